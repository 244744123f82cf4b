"""A bulk is ingested in a fixed number of queries, however many heartbeats it holds."""

import pytest

from editor.models import EditorKey
from progress.models import CodingSession
from tests.editor.conftest import BULK, an_hour_ago_for, basic, cli_heartbeat
from tests.factories import UserFactory


@pytest.mark.parametrize("size", [1, 25])
def test_a_bulk_takes_the_same_queries_at_1_and_25_heartbeats(
    db, client, django_assert_num_queries, size
):
    """Key, lock, the learner's project names (the cap), the stored heartbeats near the new ones,
    insert, projects, the exact day totals (read, write), sessions (read, write), and the savepoint
    around them: the same with a learner history of any size, since only the heartbeats within 15
    minutes of the new ones are read."""
    user = UserFactory()
    key = EditorKey.objects.issue(user=user)
    now = an_hour_ago_for(minutes=size + 1) + 60
    # A minute of each project before, so that both have a session that the bulk extends.
    client.post(
        BULK,
        [cli_heartbeat(now - 60 * (3 - n), project=f"p{n % 2}") for n in range(3)],
        content_type="application/json",
        headers=basic(key),
    )
    beats = [cli_heartbeat(now + 60 * n, project=f"p{n % 2}") for n in range(size)]
    with django_assert_num_queries(12):
        response = client.post(BULK, beats, content_type="application/json", headers=basic(key))
    assert response.status_code == 201
    assert len(response.json()["responses"]) == size
    assert CodingSession.objects.count() == 2
