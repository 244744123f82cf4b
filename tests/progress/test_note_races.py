"""The first save of a note, twice at once on the web or the API, leaves one note and no 500."""

import pytest
from django.db import connection
from django.urls import reverse

from api.models import AccessToken
from progress.models import Note
from tests.factories import ResourceFactory, UserFactory
from tests.progress.test_concurrency import run_at_once, signed_in_clients

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="races need PostgreSQL (set DATABASE_URL)"
    ),
    pytest.mark.django_db(transaction=True),
]


def test_twenty_first_saves_on_the_web_keep_one_note():
    learner = UserFactory(username="ada")
    resource = ResourceFactory(slug="gpu-mode-12")
    clients = signed_in_clients(learner, count=20)
    url = reverse("progress:note", args=[resource.slug])

    responses = run_at_once(
        lambda index: clients[index].post(url, {"text": f"Note {index}"}), count=20
    )

    assert [response.status_code for response in responses] == [302] * 20
    assert Note.objects.filter(user=learner, resource=resource).count() == 1


def test_fifty_first_saves_through_the_api_keep_one_note(client):
    learner = UserFactory(username="ada")
    ResourceFactory(slug="gpu-mode-9")
    _token, clear = AccessToken.objects.create_for(user=learner, name="laptop", scope="write")
    headers = {"Authorization": f"Bearer {clear}"}

    def save(index):
        return client.put(
            "/api/v1/resources/gpu-mode-9/note",
            {"text": f"Note {index}"},
            content_type="application/json",
            headers=headers,
        )

    responses = run_at_once(save)

    assert [response.status_code for response in responses] == [200] * 50
    note = Note.objects.get(user=learner)
    assert {response.json()["text"] for response in responses} >= {note.text}
