"""A learner's history as their dashboard reads it, in one SQL statement.

The dashboard needs the curriculum's revision token, the learner's profile and watch rows, their
minutes watched and coded per resource (this week and in all) and their minutes coded on the days
their day reads (this week's, the current streak's).
Read one query at a time, that was five round trips and five querysets built per request; here it
is one UNION ALL whose rows say what they are, turned back into the same model instances and
sums (the branches are those of `Profile.objects.for_learner`, `Watch.objects.for_learner`,
`balance.learner_minutes` and `today.coded_by_day`; tests/progress/test_history.py holds them
together on SQLite and PostgreSQL).
"""

import datetime
from dataclasses import dataclass
from functools import cache

from django.db import connection

from curriculum.models import Revision
from lib.prepared import prepared_rows
from lib.raw_rows import day_before, day_of, instant_of
from progress.balance import WATCHED_PER_RESOURCE, week_bounds, week_start
from progress.models import CodingSession, Profile, Watch

PROFILE_FIELDS = [
    "id",
    "user_id",
    "architecture_id",
    "gpu_card_id",
    "started_on",
    "language",
    "time_zone",
    "records_viewing",
]
WATCH_FIELDS = [
    "id",
    "user_id",
    "resource_id",
    "logged_minutes",
    "finished_at",
    "skipped_at",
    "resume_seconds",
    "updated_at",
]

# The days the learner's day reads (progress/today.py): this week's up to today, the current
# streak's, and the last day coded up to today (whether anything was coded at all). The streak is
# walked back one day at a time from today or yesterday, an index probe a day, and each kind of
# day is read through the index on (user, day): the statement reads as many days as the week and
# the streak hold, not the learner's whole history. A day read twice has the same minutes.
RUN = """WITH RECURSIVE run(day) AS (
  SELECT MAX(day) FROM {coding}
   WHERE user_id = %(user)s AND day <= %(today)s AND day >= %(yesterday)s
  UNION ALL
  SELECT (SELECT MAX(day) FROM {coding} WHERE user_id = %(user)s AND day = {previous_day})
    FROM run WHERE run.day IS NOT NULL
)
"""

# Each branch fills the columns its kind needs: i1-i4 numbers, t1-t2 instants, d1 a day,
# s1-s2 text, b1 a flag. The first branch casts its NULLs, so that PostgreSQL, which types a
# UNION pairwise, never takes a column for text.
BRANCHES = f"""
SELECT 'token' AS kind, CAST(NULL AS integer) AS i1, CAST(NULL AS integer) AS i2,
       CAST(NULL AS integer) AS i3, CAST(NULL AS integer) AS i4,
       CAST(NULL AS timestamp with time zone) AS t1, CAST(NULL AS timestamp with time zone) AS t2,
       CAST(NULL AS date) AS d1, token AS s1, CAST(NULL AS varchar(64)) AS s2,
       CAST(NULL AS boolean) AS b1
  FROM {Revision._meta.db_table}
 WHERE id = (SELECT MIN(id) FROM {Revision._meta.db_table})
UNION ALL
SELECT 'profile', id, architecture_id, gpu_card_id, NULL, NULL, NULL, started_on, language,
       time_zone, records_viewing
  FROM {Profile._meta.db_table} WHERE user_id = %(user)s
UNION ALL
SELECT 'watch', id, resource_id, logged_minutes, resume_seconds, finished_at, updated_at, NULL,
       NULL, NULL, skipped_at IS NOT NULL
  FROM {Watch._meta.db_table} WHERE user_id = %(user)s
UNION ALL
{{WATCHED_PER_RESOURCE}}
UNION ALL
SELECT 'coded', resource_id, SUM(minutes),
       SUM(CASE WHEN day >= %(monday)s AND day < %(next_monday)s THEN minutes ELSE 0 END),
       COUNT(*), NULL, NULL, NULL, NULL, NULL, NULL
  FROM {{coding}} WHERE user_id = %(user)s GROUP BY resource_id
UNION ALL
SELECT 'day', SUM(minutes), NULL, NULL, NULL, NULL, NULL, day, NULL, NULL, NULL
  FROM {{coding}} WHERE user_id = %(user)s AND day >= %(monday)s AND day <= %(today)s
 GROUP BY day
UNION ALL
SELECT 'day', (SELECT SUM(minutes) FROM {{coding}} WHERE user_id = %(user)s AND day = run.day),
       NULL, NULL, NULL, NULL, NULL, day, NULL, NULL, NULL
  FROM run WHERE day IS NOT NULL
UNION ALL
SELECT 'day', SUM(minutes), NULL, NULL, NULL, NULL, NULL, day, NULL, NULL, NULL
  FROM {{coding}}
 WHERE user_id = %(user)s
   AND day = (SELECT MAX(day) FROM {{coding}} WHERE user_id = %(user)s AND day <= %(today)s)
 GROUP BY day
"""


@cache
def statement(vendor: str) -> str:
    """The statement in the database's dialect (the day before a day is written differently)."""
    coding = CodingSession._meta.db_table
    return RUN.format(coding=coding, previous_day=day_before("run.day", vendor)) + BRANCHES.format(
        WATCHED_PER_RESOURCE=WATCHED_PER_RESOURCE, coding=coding
    )


@dataclass
class History:
    """What the dashboard reads of a learner, as the separate queries would give it."""

    token: str | None
    profile: Profile | None  # None: the learner has no profile row yet
    watches: list[Watch]
    # {"watched" or "coded": {resource id or None: {"total", "week", "rows"}}}
    minutes: dict[str, dict[int | None, dict[str, int]]]
    # Minutes coded on the days the learner's day reads (RUN): progress.today.day_of gives the
    # same Today from them as from every day of the learner's history.
    coded_by_day: dict[datetime.date, int]


def history_of(user, today: datetime.date) -> History:
    """The learner's history up to today (their day), read in one statement."""
    ops = connection.ops
    week_from, week_to = week_bounds(today)
    monday = week_start(today)
    params = {
        "user": user.pk,
        "week_from": ops.adapt_datetimefield_value(week_from),
        "week_to": ops.adapt_datetimefield_value(week_to),
        "today": ops.adapt_datefield_value(today),
        "yesterday": ops.adapt_datefield_value(today - datetime.timedelta(days=1)),
        "monday": ops.adapt_datefield_value(monday),
        "next_monday": ops.adapt_datefield_value(monday + datetime.timedelta(days=7)),
    }
    rows = prepared_rows(statement(connection.vendor), params)
    history = History(
        token=None,
        profile=None,
        watches=[],
        minutes={"watched": {}, "coded": {}},
        coded_by_day={},
    )
    for kind, i1, i2, i3, i4, t1, t2, d1, s1, s2, b1 in rows:
        if kind == "watch":
            # In the model's order of fields, as from_db takes them. Whether it is skipped, not
            # when: the page asks no more (a skip renews updated_at).
            updated = instant_of(t2)
            values = [i1, user.pk, i2, i3, instant_of(t1), updated if b1 else None, i4, updated]
            history.watches.append(Watch.from_db(connection.alias, WATCH_FIELDS, values))
        elif kind in ("watched", "coded"):
            history.minutes[kind][i1] = {"total": i2, "week": i3, "rows": i4}
        elif kind == "day":
            history.coded_by_day[day_of(d1)] = i1
        elif kind == "profile":
            values = [i1, user.pk, i2, i3, day_of(d1), s1, s2, bool(b1)]
            history.profile = Profile.from_db(connection.alias, PROFILE_FIELDS, values)
        elif kind == "token":
            history.token = s1
    return history
