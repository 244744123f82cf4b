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
"""

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.utils import CursorWrapper


@contextmanager
def prepared_cursor() -> Iterator[CursorWrapper]:
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
