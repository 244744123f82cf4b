from django.db import migrations, models

# Every curriculum table as of this migration, the many-to-many one included.
TABLES = [
    "curriculum_part",
    "curriculum_chapter",
    "curriculum_series",
    "curriculum_architecture",
    "curriculum_resource",
    "curriculum_resource_architectures",
    "curriculum_pairing",
    "curriculum_path",
    "curriculum_stage",
    "curriculum_step",
]

POSTGRESQL_FUNCTION = """
CREATE OR REPLACE FUNCTION curriculum_renew_revision() RETURNS trigger AS $$
BEGIN
    UPDATE curriculum_revision SET token = gen_random_uuid()::text;
    RETURN NULL;
END $$ LANGUAGE plpgsql
"""

SQLITE_RENEW = "UPDATE curriculum_revision SET token = lower(hex(randomblob(16)))"


def create_triggers(apps, schema_editor):
    execute = schema_editor.execute
    execute("INSERT INTO curriculum_revision (token) VALUES ('initial')")
    if schema_editor.connection.vendor == "postgresql":
        execute(POSTGRESQL_FUNCTION)
        for table in TABLES:
            execute(
                f"CREATE TRIGGER {table}_renews_revision AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE"
                f" ON {table} FOR EACH STATEMENT EXECUTE FUNCTION curriculum_renew_revision()"
            )
    elif schema_editor.connection.vendor == "sqlite":
        for table in TABLES:
            for event in ("INSERT", "UPDATE", "DELETE"):
                execute(
                    f"CREATE TRIGGER {table}_{event.lower()}_renews_revision AFTER {event}"
                    f" ON {table} BEGIN {SQLITE_RENEW}; END"
                )
    else:  # pragma: no cover - PostgreSQL and SQLite are the two databases Parcours runs on
        raise NotImplementedError(schema_editor.connection.vendor)


def drop_triggers(apps, schema_editor):
    execute = schema_editor.execute
    for table in TABLES:
        if schema_editor.connection.vendor == "postgresql":
            execute(f"DROP TRIGGER IF EXISTS {table}_renews_revision ON {table}")
        else:
            for event in ("insert", "update", "delete"):
                execute(f"DROP TRIGGER IF EXISTS {table}_{event}_renews_revision")
    if schema_editor.connection.vendor == "postgresql":
        execute("DROP FUNCTION IF EXISTS curriculum_renew_revision()")


class Migration(migrations.Migration):
    dependencies = [("curriculum", "0001_initial")]

    operations = [
        migrations.CreateModel(
            name="Revision",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("token", models.CharField(max_length=36)),
            ],
            options={"db_table": "curriculum_revision"},
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
