"""Every curriculum table renews the revision token through database triggers, on SQLite and on
PostgreSQL (curriculum/models.py, Revision): curriculum/structure.py rebuilds the pages'
curriculum only when that token changes, so a table without its triggers serves stale pages.

A migration that rebuilds a table on SQLite (most AddField and AlterField) drops its triggers:
these tests read the running database's catalogue, after every migration, to catch that."""

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from curriculum.models import Revision
from tests.conftest import curriculum_tables

EVENTS = ("INSERT", "UPDATE", "DELETE")


def renewing_events():
    """{table: the events on which a trigger renews the revision token}, read from the catalogue."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger'")
            rows = [
                (table, event)
                for table, sql in cursor.fetchall()
                for event in EVENTS
                if f"AFTER {event} " in sql.upper() and "CURRICULUM_REVISION" in sql.upper()
            ]
        else:
            cursor.execute(
                "SELECT event_object_table, event_manipulation FROM information_schema.triggers"
                " WHERE action_statement = 'EXECUTE FUNCTION curriculum_renew_revision()'"
            )
            rows = cursor.fetchall()
    found = {}
    for table, event in rows:
        found.setdefault(table, set()).add(event)
    return found


def test_every_curriculum_table_has_its_revision_triggers(db):
    """Insert, update and delete on each curriculum table (many-to-many ones included) renew it."""
    found = renewing_events()
    tables = [model._meta.db_table for model in curriculum_tables()]

    missing = {
        table: sorted(set(EVENTS) - found.get(table, set()))
        for table in tables
        if set(EVENTS) - found.get(table, set())
    }

    assert len(tables) >= 11  # the ten of migration 0002 and the GPU cards: none forgotten
    assert "curriculum_resource" in tables and "curriculum_resource_architectures" in tables
    assert missing == {}, f"curriculum tables without their revision triggers: {missing}"


def test_the_revision_table_has_no_trigger(db):
    """The token's own table renews nothing: a trigger there would renew it forever."""
    assert Revision._meta.db_table not in renewing_events()


def test_a_raw_update_of_any_curriculum_table_renews_the_token(seed):
    """What the catalogue says, seen at work: an UPDATE in SQL, past the ORM, on each table."""
    unchanged = []
    for model in curriculum_tables():
        before = Revision.objects.get().token
        with connection.cursor() as cursor:
            table = connection.ops.quote_name(model._meta.db_table)
            cursor.execute(f"UPDATE {table} SET id = id")
        if Revision.objects.get().token == before:
            unchanged.append(model._meta.db_table)

    assert unchanged == []


def test_a_lost_token_row_is_made_again_and_the_curriculum_kept_under_it(client, seed):
    """After `manage.py flush` or a restore without it, the first request makes the token's row
    again; the next ones read it and build nothing, as before it was lost."""
    Revision.objects.all().delete()
    assert client.get("/resources/").status_code == 200
    assert Revision.objects.count() == 1
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/resources/").status_code == 200
    assert [query["sql"] for query in queries] == [queries[0]["sql"]]
    assert "curriculum_revision" in queries[0]["sql"]


@pytest.mark.django_db(transaction=True)
def test_flush_leaves_a_token_row_so_the_first_request_costs_what_the_next_do(client):
    """A flush empties every table, the token's too, then sends post_migrate, which makes the row
    again: the first request after it reads the token like any other and writes nothing."""
    call_command("flush", interactive=False, verbosity=0)
    assert Revision.objects.count() == 1
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/resources/").status_code == 200
    assert not any(query["sql"].startswith("INSERT") for query in queries)
