from django.db import migrations

# Migration 0005 rebuilt curriculum_resource on SQLite (a new column with a default, an altered
# one), which drops a table's triggers: the resource table stopped renewing the revision token,
# so pages kept a curator's old resource until the process restarted. Its triggers are made
# again here (see 0002); PostgreSQL keeps its statement triggers through ALTER TABLE.
TABLE = "curriculum_resource"
SQLITE_RENEW = "UPDATE curriculum_revision SET token = lower(hex(randomblob(16)))"
EVENTS = ("insert", "update", "delete")


def renew_sqlite_triggers(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    for event in EVENTS:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_{event}_renews_revision")
        schema_editor.execute(
            f"CREATE TRIGGER {TABLE}_{event}_renews_revision AFTER {event.upper()}"
            f" ON {TABLE} BEGIN {SQLITE_RENEW}; END"
        )


class Migration(migrations.Migration):
    dependencies = [("curriculum", "0005_resource_video_id")]

    operations = [
        # Undoing this changes nothing; undoing 0005 after it rebuilds the table once more on
        # SQLite and leaves it without triggers until migrated forward again.
        migrations.RunPython(renew_sqlite_triggers, migrations.RunPython.noop),
    ]
