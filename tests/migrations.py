"""Running migrations back and forth inside a test, to check what one does to existing rows."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets):
    """Migrate the test database to targets; the apps registry as it is there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    """The newest migration of every app: where a test must leave the database."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()
