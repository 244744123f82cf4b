"""The settings page's statement is prepared on its connection (lib/prepared.py): PostgreSQL plans
it once per connection, not at every request."""

import psycopg
import pytest
from django.db import NotSupportedError, connection, transaction

from accounts.settings_page import learner_state
from groups import actions as group_actions
from progress.models import Profile
from tests.factories import CodingSessionFactory, ResourceFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL prepares statements"),
]

# Each page's address and a piece of its statement that no other statement has.
PAGES = [
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


@pytest.fixture
def address(learner_with_a_session):
    """A page's address, with the slug of the learner's group for the board."""
    group = group_actions.create_group(
        owner=learner_with_a_session, name="Prepared", display_name="Ada L."
    )
    return lambda url: url.format(group=group.slug)


@pytest.mark.parametrize(("url", "piece"), PAGES)
def test_a_pages_statement_is_prepared_once_and_run_again(learner_client, address, url, piece):
    """The second request runs the statement the first one prepared."""
    assert learner_client.get(address(url)).status_code == 200
    [runs_before] = prepared(piece)
    assert learner_client.get(address(url)).status_code == 200
    [runs_after] = prepared(piece)
    assert sum(runs_after) == sum(runs_before) + 1


@pytest.mark.parametrize(("url", "piece"), PAGES)
def test_with_prepared_statements_off_nothing_is_prepared(
    learner_client, address, url, piece, monkeypatch
):
    """DATABASE_PREPARED_STATEMENTS=0 leaves psycopg's prepare_threshold unset: the page's
    statement is then sent as the ORM's are."""
    connection.ensure_connection()
    monkeypatch.setattr(connection.connection, "prepare_threshold", None)
    assert learner_client.get(address(url)).status_code == 200
    assert prepared(piece) == []


@pytest.fixture
def change_a_returned_columns_type():
    """What a migration run by another process beside a live server may do: the settings page's
    statement returns the profile's language, whose type becomes text for the test (and varchar
    again after it). On the test's own connection psycopg would see the ALTER and forget what it
    prepared."""
    table, language = Profile._meta.db_table, Profile._meta.get_field("language")
    parameters = connection.get_connection_params()
    with psycopg.connect(**parameters, autocommit=True) as migrating:
        yield lambda: migrating.execute(f"ALTER TABLE {table} ALTER COLUMN language TYPE text")
        migrating.execute(
            f"ALTER TABLE {table} ALTER COLUMN language TYPE varchar({language.max_length})"
        )


@pytest.mark.django_db(transaction=True)
def test_a_page_survives_a_migration_that_changes_what_its_statement_returns(
    learner_client, learner_with_a_session, change_a_returned_columns_type
):
    """PostgreSQL refuses to run the plan prepared before the change: the page prepares its
    statement again on a new connection instead of failing until the server is reloaded."""
    url, piece = "/settings/", "AS profile ON profile.user_id = learner.id"
    assert learner_client.get(url).status_code == 200
    assert prepared(piece)
    connection_before = connection.connection
    change_a_returned_columns_type()
    assert learner_client.get(url).status_code == 200
    assert connection.connection is not connection_before
    assert learner_client.get(url).status_code == 200
    [runs] = prepared(piece)
    assert sum(runs) == 2


@pytest.mark.django_db(transaction=True)
def test_inside_a_transaction_the_outdated_plan_is_the_callers_error(
    learner_client, learner_with_a_session, change_a_returned_columns_type
):
    """A transaction the failed statement aborted cannot run it again: the error is raised, and
    the transaction's rollback forgets the statements prepared on the connection."""
    assert learner_client.get("/settings/").status_code == 200
    change_a_returned_columns_type()
    with pytest.raises(NotSupportedError), transaction.atomic():
        learner_state(learner_with_a_session)
    assert learner_client.get("/settings/").status_code == 200
