"""A cursor whose statements PostgreSQL plans once per connection, not at every run.

A page's one statement (a UNION ALL of four to eight branches for one learner) costs PostgreSQL
more to plan than to run: 0.4 to 0.9 ms of planning against 0.2 to 0.4 of execution on the
benchmark's database. Django binds parameters on the client, which cannot prepare; this cursor
binds them on the server and prepares each statement the first time it runs on a connection
(connections are persistent: CONN_MAX_AGE), after which PostgreSQL plans it no more than its
generic plan needs. It is Django's cursor wrapper around psycopg's server-binding cursor: its
statements are counted, logged and wrapped (connection.execute_wrapper) as any other.

For statements written for it only: server-side binding types each parameter from its Python
value, where the ORM's SQL may rely on the client writing it in place. On another database than
PostgreSQL, or with prepared statements turned off (DATABASE_PREPARED_STATEMENTS=0), it is
Django's own cursor.

A migration that changes the type of a column a prepared statement returns makes PostgreSQL
refuse to run it on the connections that prepared it before ("cached plan must not change result
type"), and psycopg keeps sending the same statement. prepared_rows() then replaces the
connection and runs the statement once more, so a deployment's migrations cost each connection
one reconnect, not every request until the app servers are reloaded.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, NotSupportedError, connections
from django.db.backends.utils import CursorWrapper

# PostgreSQL's feature_not_supported, which "cached plan must not change result type" carries.
FEATURE_NOT_SUPPORTED = "0A000"


def prepared_rows(sql: str, params: Any) -> list[tuple]:
    """The rows of one statement run prepared, prepared again once if a migration changed the
    type of what it returns."""
    try:
        return _rows(sql, params)
    except NotSupportedError as error:
        database = connections[DEFAULT_DB_ALIAS]
        if not _plan_outdated(error) or database.in_atomic_block:
            raise
        database.close()
        return _rows(sql, params)


def _rows(sql: str, params: Any) -> list[tuple]:
    with _prepared_cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _plan_outdated(error: NotSupportedError) -> bool:
    return getattr(error.__cause__, "sqlstate", None) == FEATURE_NOT_SUPPORTED


@contextmanager
def _prepared_cursor() -> Iterator[CursorWrapper]:
    """A cursor for statements run on every request: prepared on the connection at first use."""
    # Looked up once: each attribute of django.db.connection looks the connection up again.
    database = connections[DEFAULT_DB_ALIAS]
    if database.vendor == "postgresql":
        # What database.cursor() does before it makes its cursor.
        database.close_if_health_check_failed()
        database.ensure_connection()
    if database.vendor != "postgresql" or database.connection.prepare_threshold is None:
        with database.cursor() as cursor:
            yield cursor
        return
    database.validate_thread_sharing()
    with database.wrap_database_errors:
        raw = _preparing_cursor_class()(database.connection)
        _read_instants_as_django_does(database, raw)
    wrapped = (
        database.make_debug_cursor(raw) if database.queries_logged else database.make_cursor(raw)
    )
    with wrapped as cursor:
        yield cursor


@cache
def _preparing_cursor_class() -> Any:
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparingCursor(ServerBindingCursor):
        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=True, binary=binary)

    return PreparingCursor


def _read_instants_as_django_does(database, cursor) -> None:
    """The time zone of the instants read, as DatabaseWrapper.create_cursor sets it."""
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    loader = database.connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT)
    if database.timezone != loader.timezone:
        register_tzloader(database.timezone, cursor)
