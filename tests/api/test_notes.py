"""Private notes through the API: read and write one's own, never someone else's."""

import pytest

from progress.models import Note
from tests.factories import NoteFactory, ResourceFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def scan(db):
    return ResourceFactory(slug="scan")


def test_writing_then_reading_a_note(api, learner, scan):
    response = api.put("/resources/scan/note", {"text": "Work-efficient scan next."})
    assert response.status_code == 200
    assert api.get("/resources/scan/note").json()["text"] == "Work-efficient scan next."
    assert Note.objects.get(user=learner).text == "Work-efficient scan next."


def test_an_empty_text_deletes_the_note(api, learner, scan):
    NoteFactory(user=learner, resource=scan)
    response = api.put("/resources/scan/note", {"text": ""})
    assert response.json() == {"resource": "scan", "text": "", "updated_at": None}
    assert not Note.objects.exists()


def test_another_learners_note_is_never_read(api, other_learner, scan):
    NoteFactory(user=other_learner, resource=scan, text="Grace's secret")
    assert api.get("/resources/scan/note").json()["text"] == ""
    assert api.get("/resources/scan").json()["note"] == ""


def test_writing_leaves_another_learners_note_alone(api, learner, other_learner, scan):
    theirs = NoteFactory(user=other_learner, resource=scan, text="Grace's secret")
    api.put("/resources/scan/note", {"text": "Mine"})
    theirs.refresh_from_db()
    assert theirs.text == "Grace's secret"
    assert Note.objects.get(user=learner).text == "Mine"


def test_a_note_over_10000_characters_is_refused(api, scan):
    response = api.put("/resources/scan/note", {"text": "x" * 10_001})
    assert response.status_code == 422
    assert "text" in response.json()["fields"]
    assert not Note.objects.exists()


def test_a_read_token_cannot_write_a_note(client, read_token, scan):
    from tests.api.conftest import bearer

    response = client.put(
        "/api/v1/resources/scan/note",
        {"text": "x"},
        content_type="application/json",
        headers=bearer(read_token),
    )
    assert response.status_code == 403
    assert not Note.objects.exists()


def test_the_note_of_an_unknown_resource_is_a_404(api):
    assert api.put("/resources/nope/note", {"text": "x"}).status_code == 404
