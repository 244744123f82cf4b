"""What the coding log reads of a learner, in one SQL statement.

The log needs the curriculum's revision token, the learner's minutes watched and coded per
resource (this week and in all, for the balances and the count of sessions), one page of their
sessions and their editor projects. Read through querysets that was five round trips, a UNION
of querysets and model instances built per request; here it is one UNION ALL whose rows say what
they are (the branches are those of `balance.learner_minutes`, `CodingSession.objects.for_learner(
).row_values()` paginated, and `EditorProject.objects.for_learner()`; tests/progress/
test_coding_log_rows.py holds them together).
"""

import datetime
from dataclasses import dataclass

from django.db import connection

from curriculum.models import Revision
from lib.prepared import prepared_rows
from lib.raw_rows import day_of
from progress.balance import WATCHED_PER_RESOURCE, week_bounds, week_start
from progress.models import CodingSession, EditorProject

SESSIONS_PER_PAGE = 20
# A page asked for past the last one (or before the first) shows the last one, as Django's
# Paginator.get_page does; this stands for "the last one" in the statement.
LAST_PAGE = 2**31 - 1

SESSIONS = CodingSession._meta.db_table

# Each branch fills the columns its kind needs: i1-i5 numbers, d1 a day, s1-s3 text, b1 a flag.
# The first branch casts its NULLs, so that PostgreSQL, which types a UNION pairwise, never takes
# a column for text. The page's offset is clamped to the last page in the statement itself.
SQL = f"""
SELECT 'token' AS kind, CAST(NULL AS integer) AS i1, CAST(NULL AS integer) AS i2,
       CAST(NULL AS integer) AS i3, CAST(NULL AS integer) AS i4, CAST(NULL AS integer) AS i5,
       CAST(NULL AS date) AS d1, token AS s1, CAST(NULL AS varchar(200)) AS s2,
       CAST(NULL AS varchar(6)) AS s3, CAST(NULL AS boolean) AS b1
  FROM {Revision._meta.db_table}
 WHERE id = (SELECT MIN(id) FROM {Revision._meta.db_table})
UNION ALL
{WATCHED_PER_RESOURCE}
UNION ALL
SELECT 'coded', resource_id, SUM(minutes),
       SUM(CASE WHEN day >= %(monday)s AND day < %(next_monday)s THEN minutes ELSE 0 END),
       COUNT(*), NULL, NULL, NULL, NULL, NULL, NULL
  FROM {SESSIONS} WHERE user_id = %(user)s GROUP BY resource_id
UNION ALL
SELECT 'session', id, minutes, resource_id, chapter_id, ordinal, day, built, code_url, source,
       NULL
  FROM (SELECT id, minutes, resource_id, chapter_id, day, built, code_url, source,
               ROW_NUMBER() OVER (ORDER BY day DESC, created_at DESC, id DESC) AS ordinal
          FROM {SESSIONS} WHERE user_id = %(user)s
         ORDER BY day DESC, created_at DESC, id DESC
         LIMIT %(per_page)s
        OFFSET %(per_page)s * (
               (SELECT CASE WHEN %(page)s < pages THEN %(page)s ELSE pages END
                  FROM (SELECT CASE WHEN COUNT(*) = 0 THEN 1
                                    ELSE (COUNT(*) + %(per_page)s - 1) / %(per_page)s END AS pages
                          FROM {SESSIONS} WHERE user_id = %(user)s) AS counted) - 1)) AS one_page
UNION ALL
SELECT 'project', id, NULL, resource_id, chapter_id, ordinal, NULL, name, NULL, NULL, counted
  FROM (SELECT id, resource_id, chapter_id, name, counted,
               ROW_NUMBER() OVER (ORDER BY name) AS ordinal
          FROM {EditorProject._meta.db_table} WHERE user_id = %(user)s) AS projects
"""


@dataclass(frozen=True, slots=True)
class SessionValues:
    """A coding session's columns as its row in the log shows them."""

    pk: int
    day: datetime.date
    minutes: int
    built: str
    code_url: str
    resource_id: int | None
    chapter_id: int | None
    source: str


@dataclass(frozen=True, slots=True)
class ProjectValues:
    """An editor project's columns as the log lists them."""

    pk: int
    name: str
    counted: bool
    resource_id: int | None
    chapter_id: int | None


@dataclass
class CodingLogRows:
    token: str | None
    # {"watched" or "coded": {resource id or None: {"total", "week", "rows"}}}, as
    # balance.minutes_of takes them
    minutes: dict[str, dict[int | None, dict[str, int]]]
    sessions: list[SessionValues]  # one page, newest first
    projects: list[ProjectValues]  # by name
    count: int  # every session of the learner
    number: int  # the page shown
    pages: int


def requested_page(value: str | None) -> int:
    """The page number asked for in the address, as Paginator.get_page reads it: not a number is
    the first page, before the first one or past the last one is the last one."""
    try:
        number = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 1
    return number if 1 <= number < LAST_PAGE else LAST_PAGE


def coding_log_rows(user, today: datetime.date, page: int) -> CodingLogRows:
    """The learner's balances, page of sessions (clamped to the last one) and editor projects,
    with the curriculum's revision token, read in one statement."""
    ops = connection.ops
    week_from, week_to = week_bounds(today)
    monday = week_start(today)
    params = {
        "user": user.pk,
        "week_from": ops.adapt_datetimefield_value(week_from),
        "week_to": ops.adapt_datetimefield_value(week_to),
        "monday": ops.adapt_datefield_value(monday),
        "next_monday": ops.adapt_datefield_value(monday + datetime.timedelta(days=7)),
        "per_page": SESSIONS_PER_PAGE,
        "page": page,
    }
    fetched = prepared_rows(SQL, params)
    token = None
    minutes: dict[str, dict[int | None, dict[str, int]]] = {"watched": {}, "coded": {}}
    sessions, projects = [], []
    for kind, i1, i2, i3, i4, i5, d1, s1, s2, s3, b1 in fetched:
        if kind == "session":
            values = SessionValues(i1, day_of(d1), i2, s1, s2, i3, i4, s3)
            sessions.append((i5, values))
        elif kind == "project":
            projects.append((i5, ProjectValues(i1, s1, bool(b1), i3, i4)))
        elif kind == "token":
            token = s1
        else:
            minutes[kind][i1] = {"total": i2, "week": i3, "rows": i4}
    count = sum(row["rows"] for row in minutes["coded"].values())
    pages = max(1, -(-count // SESSIONS_PER_PAGE))
    return CodingLogRows(
        token=token,
        minutes=minutes,
        sessions=[values for _ordinal, values in sorted(sessions, key=lambda pair: pair[0])],
        projects=[values for _ordinal, values in sorted(projects, key=lambda pair: pair[0])],
        count=count,
        number=min(page, pages),
        pages=pages,
    )
