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
    """Key, lock, insert, read the day, projects (insert, read), sessions (read, write), and the
    savepoint around them."""
    user = UserFactory()
    key = EditorKey.objects.issue(user=user)
    now = an_hour_ago_for(minutes=size + 1) + 60
    # A heartbeat a minute before, so that even a bulk of one makes a minute of code.
    client.post(
        BULK,
        [cli_heartbeat(now - 60, project="p0")],
        content_type="application/json",
        headers=basic(key),
    )
    beats = [cli_heartbeat(now + 60 * n, project=f"p{n % 2}") for n in range(size)]
    with django_assert_num_queries(10):
        response = client.post(BULK, beats, content_type="application/json", headers=basic(key))
    assert response.status_code == 201
    assert len(response.json()["responses"]) == size
    assert CodingSession.objects.count() == (1 if size == 1 else 2)
