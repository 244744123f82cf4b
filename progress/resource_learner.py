"""What the resource page shows of the signed-in learner, read in one SQL statement.

The page needs six things of one learner: the watch row of the resource, whether the player
records, the sittings of the resource, the minutes that make the balances and the resource's
coded state, its five latest coding sessions and the note; and the curriculum's revision token,
which tells the page whether the curriculum it found the resource in is still the current one.
Six querysets cost six round trips and
about 0.8 ms of ORM each before any SQL is sent (the profile of 2026-12-03); one UNION ALL of
plain SQL, written once per process, costs one. Each row says what it is in its first column.
"""

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import Model

from curriculum.models import Revision
from lib.prepared import prepared_rows
from progress.balance import Balance, LearnerMinutes, ResourceCoding, week_bounds, week_start
from progress.models import CodingSession, Note, Profile, Watch, WatchEvent

RESOURCE_SESSIONS_SHOWN = 5


@dataclass(frozen=True, slots=True)
class Sitting:
    pk: int
    logged_minutes: int
    at: datetime


@dataclass(frozen=True, slots=True)
class RecentSession:
    day: date
    minutes: int
    built: str


@dataclass(frozen=True, slots=True)
class LearnerRows:
    """The learner's rows for one resource page."""

    watch: Watch | None
    records_viewing: bool
    sittings: tuple[Sitting, ...]  # newest first
    minutes: LearnerMinutes  # with the coding of this resource alone
    sessions: tuple[RecentSession, ...]  # newest first, at most RESOURCE_SESSIONS_SHOWN
    note: str | None  # None: no note; "" a note emptied
    token: str | None = None  # the curriculum's revision token, read in the same statement


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _typed_null(model: type[Model], field: str) -> str:
    # PostgreSQL types a UNION's columns pair by pair: a NULL in the first two branches would
    # become text, then clash with a date or a timestamp further down.
    return f"CAST(NULL AS {model._meta.get_field(field).db_type(connection)})"


def _statement() -> str:
    """The statement, for the database of the connection; %s are its parameters in order."""
    watch, profile, event = _table(Watch), _table(Profile), _table(WatchEvent)
    revision = _table(Revision)
    session, note = _table(CodingSession), _table(Note)
    no_time = _typed_null(WatchEvent, "at")
    no_day = _typed_null(CodingSession, "day")
    # kind, id, a, b, c, at, day, text
    return f"""
SELECT 'watch', id, logged_minutes, resume_seconds, 0, finished_at, {no_day}, NULL
  FROM {watch} WHERE user_id = %s AND resource_id = %s
UNION ALL
SELECT 'profile', id, CASE WHEN records_viewing THEN 1 ELSE 0 END, 0, 0, {no_time}, {no_day}, NULL
  FROM {profile} WHERE user_id = %s
UNION ALL
SELECT 'watched', 0, COALESCE(SUM(minutes), 0),
       COALESCE(SUM(CASE WHEN at >= %s AND at < %s THEN minutes ELSE 0 END), 0),
       COALESCE(SUM(CASE WHEN resource_id = %s THEN minutes ELSE 0 END), 0),
       {no_time}, {no_day}, NULL
  FROM {event} WHERE user_id = %s
UNION ALL
SELECT 'coded', COUNT(*), COALESCE(SUM(minutes), 0),
       COALESCE(SUM(CASE WHEN day >= %s AND day < %s THEN minutes ELSE 0 END), 0),
       COALESCE(SUM(CASE WHEN resource_id = %s THEN minutes ELSE 0 END), 0),
       {no_time}, {no_day}, NULL
  FROM {session} WHERE user_id = %s
UNION ALL
SELECT 'sitting', id, logged_minutes, ROW_NUMBER() OVER (ORDER BY at DESC, id DESC), 0, at,
       {no_day}, NULL
  FROM {event} WHERE user_id = %s AND resource_id = %s AND kind = %s
UNION ALL
SELECT * FROM (
  SELECT 'session', id, minutes, ROW_NUMBER() OVER (ORDER BY day DESC, created_at DESC, id DESC),
         0, {no_time}, day, built
    FROM {session} WHERE user_id = %s AND resource_id = %s
   ORDER BY day DESC, created_at DESC, id DESC LIMIT {RESOURCE_SESSIONS_SHOWN}
) recent
UNION ALL
SELECT 'note', id, 0, 0, 0, {no_time}, {no_day}, text
  FROM {note} WHERE user_id = %s AND resource_id = %s
UNION ALL
SELECT 'token', 0, 0, 0, 0, {no_time}, {no_day}, token
  FROM {revision} WHERE id = (SELECT MIN(id) FROM {revision})
"""


Converter = Callable[[Any], Any]
_statements: dict[str, tuple[str, Converter, Converter]] = {}
_lock = threading.Lock()


def _prepared() -> tuple[str, Converter, Converter]:
    """The statement and the converters of its two date columns, once per process and database."""
    vendor = connection.vendor
    try:
        return _statements[vendor]
    except KeyError:
        with _lock:
            at, day = WatchEvent._meta.get_field("at"), CodingSession._meta.get_field("day")
            _statements[vendor] = (_statement(), _converter(at), _converter(day))
            return _statements[vendor]


def _converter(field) -> Converter:
    """What the ORM applies to the field's column as the database returns it (SQLite: text)."""
    column = field.get_col(field.model._meta.db_table)
    converters = connection.ops.get_db_converters(column) + field.get_db_converters(connection)

    def convert(value):
        for converter in converters:
            value = converter(value, column, connection)
        return value

    return convert


def learner_rows(user_id: int, resource, today: date) -> LearnerRows:
    """The learner's rows for the page of resource, weeks counted from today (their day)."""
    statement, to_datetime, to_date = _prepared()
    ops = connection.ops
    start, end = week_bounds(today)
    monday = week_start(today)
    user, pk = user_id, resource.pk
    params = [
        *(user, pk),
        user,
        ops.adapt_datetimefield_value(start),
        ops.adapt_datetimefield_value(end),
        pk,
        user,
        ops.adapt_datefield_value(monday),
        ops.adapt_datefield_value(monday + timedelta(days=7)),
        pk,
        user,
        *(user, pk, WatchEvent.Kind.SITTING.value),
        *(user, pk),
        *(user, pk),
    ]
    rows = prepared_rows(statement, params)

    watch = None
    records = True  # a learner without a profile yet has the default
    watched = coded = (0, 0, 0)
    sessions_count = 0
    sittings: list[tuple[int, Sitting]] = []
    sessions: list[tuple[int, RecentSession]] = []
    note = token = None
    for kind, row_id, a, b, c, at, day, text in rows:
        if kind == "watch":
            watch = Watch(
                pk=row_id,
                user_id=user_id,
                resource=resource,
                logged_minutes=a,
                resume_seconds=b,
                finished_at=to_datetime(at),
            )
        elif kind == "profile":
            records = bool(a)
        elif kind == "watched":
            watched = (a, b, c)
        elif kind == "coded":
            coded, sessions_count = (a, b, c), row_id
        elif kind == "sitting":
            sittings.append((b, Sitting(row_id, a, to_datetime(at))))
        elif kind == "session":
            sessions.append((b, RecentSession(to_date(day), a, text)))
        elif kind == "token":
            token = text
        else:
            note = text
    return LearnerRows(
        watch=watch,
        records_viewing=records,
        sittings=tuple(sitting for _n, sitting in sorted(sittings, key=lambda pair: pair[0])),
        minutes=LearnerMinutes(
            week=Balance(watched=watched[1], coded=coded[1], this_week=True),
            overall=Balance(watched=watched[0], coded=coded[0], this_week=False),
            sessions=sessions_count,
            coding={
                pk: ResourceCoding(
                    watched=max(watched[2], 0), coded=coded[2], duration=resource.duration_minutes
                )
            },
        ),
        sessions=tuple(session for _n, session in sorted(sessions, key=lambda pair: pair[0])),
        note=note,
        token=token,
    )
