from html import unescape

import pytest
from django.urls import reverse

from progress.models import Note
from tests.factories import NoteFactory, ResourceFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


@pytest.fixture
def resource():
    return ResourceFactory(slug="reductions", title="Reductions")


def note_url(slug="reductions"):
    return reverse("progress:note", args=[slug])


def test_the_url_is_the_resource_note(resource):
    """progress:note lives under the resource's address."""
    assert note_url() == "/resources/reductions/note/"


def test_it_saves_a_note_and_redirects_back(learner_client, learner, resource):
    """A plain POST saves the note and goes back to the page named by `next`."""
    response = learner_client.post(
        note_url(), {"text": "Stopped at 42:00", "next": "/resources/reductions/"}
    )
    assert response.status_code == 302 and response.url == "/resources/reductions/"
    assert Note.objects.get(user=learner, resource=resource).text == "Stopped at 42:00"


def test_saving_again_keeps_one_note(learner_client, learner, resource):
    """The second save replaces the text of the one note."""
    learner_client.post(note_url(), {"text": "first"})
    learner_client.post(note_url(), {"text": "second"})
    assert list(Note.objects.filter(user=learner).values_list("text", flat=True)) == ["second"]


def test_an_empty_note_deletes_it(learner_client, learner, resource):
    """Clearing the text removes the note."""
    NoteFactory(user=learner, resource=resource)
    response = learner_client.post(note_url(), {"text": ""}, headers=EN, follow=True)
    assert "Note deleted." in response.content.decode()
    assert not Note.objects.filter(user=learner).exists()


def test_a_note_over_10000_characters_is_refused(learner_client, learner, resource):
    """A clear error, and the note keeps its previous text."""
    NoteFactory(user=learner, resource=resource, text="kept")
    response = learner_client.post(note_url(), {"text": "x" * 10_001}, headers=EN)
    assert response.status_code == 200
    assert "A note holds at most 10,000 characters (it has 10001)." in response.content.decode()
    assert Note.objects.get(user=learner).text == "kept"


def test_markup_is_shown_as_text_with_line_breaks_kept(learner_client, learner, resource):
    """A <script> is escaped; new lines become <br>."""
    NoteFactory(user=learner, resource=resource, text="<script>alert(1)</script>\nline two")
    html = learner_client.get(note_url()).content.decode()
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;<br>line two" in html


def test_htmx_gets_the_note_block_only(learner_client, learner, resource):
    """With htmx the answer is the note block with a status line."""
    response = learner_client.post(
        note_url(), {"text": "a\nb"}, headers={"HX-Request": "true", **EN}
    )
    html = response.content.decode()
    assert "<html" not in html
    assert 'role="status"' in html and "Note saved." in html
    assert "a<br>b" in html


def test_htmx_errors_come_back_in_the_block(learner_client, resource):
    """Over-long text with htmx: the block with the error, nothing saved."""
    response = learner_client.post(
        note_url(), {"text": "x" * 10_001}, headers={"HX-Request": "true", **EN}
    )
    assert "at most 10,000 characters" in response.content.decode()
    assert not Note.objects.exists()


def test_another_learner_never_sees_the_note(client, learner, other_learner, resource):
    """Grace opens the same resource's note page and sees an empty form."""
    NoteFactory(user=learner, resource=resource, text="Ada's private thought")
    client.force_login(other_learner)
    text = unescape(client.get(note_url()).content.decode())
    assert "private thought" not in text


def test_another_learners_save_does_not_touch_mine(client, learner, other_learner, resource):
    """Each learner writes their own note on the same resource."""
    NoteFactory(user=learner, resource=resource, text="mine")
    client.force_login(other_learner)
    client.post(note_url(), {"text": "hers"})
    assert Note.objects.get(user=learner).text == "mine"
    assert Note.objects.get(user=other_learner).text == "hers"


def test_an_unknown_resource_is_a_404(learner_client):
    """No note for a slug that does not exist."""
    assert learner_client.post(note_url("nope"), {"text": "x"}).status_code == 404
