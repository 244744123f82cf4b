"""The one statement of the dashboard, the coding log, a resource page, the stats page and the settings page is
prepared on its connection (lib/prepared.py): PostgreSQL plans it once per connection, not at
every request."""

import pytest
from django.db import connection

from tests.factories import CodingSessionFactory, ResourceFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL prepares statements"),
]

# Each page's address and a piece of its statement that no other statement has.
PAGES = [
    ("/", "SELECT 'profile', id, architecture_id"),
    ("/coding/", "FROM progress_editorproject"),
    ("/resources/prepared/", "SELECT 'sitting'"),
    ("/stats/", "SELECT 'finished'"),
    ("/settings/", "AS profile ON profile.user_id = learner.id"),
]


def prepared(piece):
    """(custom plans, generic plans: its runs) of each statement prepared on the connection that
    holds piece."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT custom_plans, generic_plans FROM pg_prepared_statements"
            " WHERE strpos(statement, %s) > 0",
            [piece],
        )
        return cursor.fetchall()


@pytest.fixture
def learner_with_a_session(learner):
    CodingSessionFactory(user=learner, resource=ResourceFactory(slug="prepared"))
    return learner


@pytest.mark.parametrize(("url", "piece"), PAGES)
def test_a_pages_statement_is_prepared_once_and_run_again(
    learner_client, learner_with_a_session, url, piece
):
    """The second request runs the statement the first one prepared."""
    assert learner_client.get(url).status_code == 200
    [runs_before] = prepared(piece)
    assert learner_client.get(url).status_code == 200
    [runs_after] = prepared(piece)
    assert sum(runs_after) == sum(runs_before) + 1


@pytest.mark.parametrize(("url", "piece"), PAGES)
def test_with_prepared_statements_off_nothing_is_prepared(
    learner_client, learner_with_a_session, url, piece, monkeypatch
):
    """DATABASE_PREPARED_STATEMENTS=0 leaves psycopg's prepare_threshold unset: the page's
    statement is then sent as the ORM's are."""
    connection.ensure_connection()
    monkeypatch.setattr(connection.connection, "prepare_threshold", None)
    assert learner_client.get(url).status_code == 200
    assert prepared(piece) == []
