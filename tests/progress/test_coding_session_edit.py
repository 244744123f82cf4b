import pytest
from django.urls import reverse

from progress.models import CodingSession
from tests.factories import CodingSessionFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def edit_data(session, **overrides):
    data = {
        "day": session.day.isoformat(),
        "minutes": "45",
        "built": "A better kernel",
        "code_url": "",
        "resource": str(session.resource_id),
        "chapter": "",
    }
    return {**data, **overrides}


def test_it_shows_the_form_filled_in(learner_client, learner):
    """The edit page holds the session's values and no idempotency key."""
    session = CodingSessionFactory(user=learner, built="First kernel")
    response = learner_client.get(reverse("progress:coding_session_edit", args=[session.pk]))
    html = response.content.decode()
    assert 'value="First kernel"' in html
    assert "idempotency_key" not in html


def test_it_updates_the_session(learner_client, learner):
    """A valid POST changes the session and redirects to the log with a message."""
    session = CodingSessionFactory(user=learner)
    url = reverse("progress:coding_session_edit", args=[session.pk])
    response = learner_client.post(url, edit_data(session), headers=EN, follow=True)
    assert "Coding session updated." in response.content.decode()
    session.refresh_from_db()
    assert (session.minutes, session.built) == (45, "A better kernel")


def test_bad_input_changes_nothing(learner_client, learner):
    """Minutes over a day are refused and the session keeps its values."""
    session = CodingSessionFactory(user=learner, minutes=90)
    url = reverse("progress:coding_session_edit", args=[session.pk])
    response = learner_client.post(url, edit_data(session, minutes="2000"), headers=EN)
    assert response.status_code == 200
    assert "Enter between 1 and 1440 minutes (24 h)." in response.content.decode()
    session.refresh_from_db()
    assert session.minutes == 90


def test_editing_someone_elses_session_is_a_404(learner_client, other_learner):
    """Another learner's session cannot be read or changed."""
    session = CodingSessionFactory(user=other_learner, minutes=90)
    url = reverse("progress:coding_session_edit", args=[session.pk])
    assert learner_client.get(url).status_code == 404
    assert learner_client.post(url, edit_data(session)).status_code == 404
    session.refresh_from_db()
    assert session.minutes == 90


def test_the_delete_page_asks_for_confirmation(learner_client, learner):
    """GET shows a confirmation and deletes nothing."""
    session = CodingSessionFactory(user=learner, built="Reduction kernel")
    url = reverse("progress:coding_session_delete", args=[session.pk])
    response = learner_client.get(url, headers=EN)
    assert "Reduction kernel" in response.content.decode()
    assert "Delete the session" in response.content.decode()
    assert CodingSession.objects.filter(pk=session.pk).exists()


def test_it_deletes_the_session_on_post(learner_client, learner):
    """POST deletes it and redirects with a message."""
    session = CodingSessionFactory(user=learner)
    url = reverse("progress:coding_session_delete", args=[session.pk])
    response = learner_client.post(url, headers=EN, follow=True)
    assert "Coding session deleted." in response.content.decode()
    assert not CodingSession.objects.filter(pk=session.pk).exists()


def test_deleting_someone_elses_session_is_a_404(learner_client, other_learner):
    """Another learner's session stays where it is."""
    session = CodingSessionFactory(user=other_learner)
    url = reverse("progress:coding_session_delete", args=[session.pk])
    assert learner_client.post(url).status_code == 404
    assert learner_client.get(url).status_code == 404
    assert CodingSession.objects.filter(pk=session.pk).exists()
