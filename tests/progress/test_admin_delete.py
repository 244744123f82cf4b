"""A curator cannot delete a resource that learners have history on: admin says why, nothing goes."""

import pytest
from django.urls import reverse

from curriculum.models import Resource
from progress.models import CodingSession, Note, Watch, WatchEvent
from tests.factories import (
    ChapterFactory,
    CodingSessionFactory,
    NoteFactory,
    ResourceFactory,
    UserFactory,
    WatchEventFactory,
    WatchFactory,
)

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}


@pytest.fixture
def studied(learner):
    """A resource the learner watched, coded after and wrote a private note on."""
    resource = ResourceFactory(title="How GPU Computing Works")
    WatchFactory(user=learner, resource=resource, logged_minutes=30)
    WatchEventFactory(user=learner, resource=resource, minutes=30)
    CodingSessionFactory(user=learner, resource=resource)
    NoteFactory(user=learner, resource=resource, text="my private thoughts")
    return resource


def assert_history_kept(resource):
    assert Resource.objects.filter(pk=resource.pk).exists()
    counts = [model.objects.filter(resource=resource).count() for model in (Watch, WatchEvent)]
    counts += [model.objects.filter(resource=resource).count() for model in (CodingSession, Note)]
    assert counts == [1, 1, 1, 1]


def test_the_delete_page_names_what_protects_the_resource(client, curator, studied):
    """The confirmation page says it cannot delete, lists the rows, and hides the note's text."""
    client.force_login(curator)
    url = reverse("admin:curriculum_resource_delete", args=[studied.pk])
    response = client.get(url, headers=EN)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Cannot delete resource" in html
    assert "would require deleting the following protected related objects" in html
    assert "my private thoughts" not in html
    assert_history_kept(studied)


def test_the_delete_page_counts_learners_rows_and_names_no_learner(client, curator, studied):
    """Each kind of row is summarised as counts: no username, no text a learner wrote."""
    CodingSessionFactory(
        user=UserFactory(username="grace"), resource=studied, built="my secret kernel"
    )
    CodingSessionFactory(user=UserFactory(username="linus"), resource=studied)
    client.force_login(curator)
    url = reverse("admin:curriculum_resource_delete", args=[studied.pk])
    html = client.get(url, headers=EN).content.decode()
    for summary in (
        "1 watch state by 1 learner",
        "1 watch event by 1 learner",
        "3 coding sessions by 3 learners",
        "1 note by 1 learner",
    ):
        assert f"<li>{summary}</li>" in html
    for private in ("ada", "grace", "linus", "A kernel, take", "my secret kernel"):
        assert private not in html


def test_the_delete_page_counts_learners_rows_in_french(client, curator, studied):
    """A French-speaking curator reads the same counts in French, still naming no learner."""
    CodingSessionFactory(user=UserFactory(username="grace"), resource=studied)
    client.force_login(curator)
    url = reverse("admin:curriculum_resource_delete", args=[studied.pk])
    html = client.get(url, headers={"accept-language": "fr"}).content.decode()
    assert "<li>2 séances de code (2 apprenants)</li>" in html
    assert "<li>1 remarque (1 apprenant)</li>" in html
    assert "grace" not in html


def test_the_bulk_delete_counts_learners_across_resources(client, curator, studied):
    """Two resources coded on by the same learner: two sessions, one learner."""
    other = ResourceFactory()
    CodingSessionFactory(user=studied.coding_sessions.get().user, resource=other)
    client.force_login(curator)
    data = {"action": "delete_selected", "_selected_action": [studied.pk, other.pk]}
    response = client.post(reverse("admin:curriculum_resource_changelist"), data, headers=EN)
    html = response.content.decode()
    assert "<li>2 coding sessions by 1 learner</li>" in html
    assert "ada" not in html


def test_deleting_a_chapter_learners_coded_on_names_no_learner(client, curator):
    """A chapter is protected by coding sessions too, and its page counts them the same way."""
    session = CodingSessionFactory(resource=None, chapter=ChapterFactory())
    client.force_login(curator)
    url = reverse("admin:curriculum_chapter_delete", args=[session.chapter.pk])
    html = client.get(url, headers=EN).content.decode()
    assert "Cannot delete chapter" in html
    assert "<li>1 coding session by 1 learner</li>" in html
    assert session.user.username not in html


def test_confirming_the_delete_anyway_deletes_nothing(client, curator, studied):
    """Posting the confirmation shows the same refusal (not a 500) and keeps every row."""
    client.force_login(curator)
    url = reverse("admin:curriculum_resource_delete", args=[studied.pk])
    response = client.post(url, {"post": "yes"}, headers=EN)
    assert response.status_code == 200
    assert "Cannot delete resource" in response.content.decode()
    assert_history_kept(studied)


def test_the_bulk_delete_action_refuses_too(client, curator, studied):
    """Deleting from the changelist with the bulk action is refused the same way."""
    client.force_login(curator)
    untouched = ResourceFactory()
    data = {
        "action": "delete_selected",
        "_selected_action": [studied.pk, untouched.pk],
        "post": "yes",
    }
    response = client.post(reverse("admin:curriculum_resource_changelist"), data, headers=EN)
    assert response.status_code == 200
    assert "Cannot delete resources" in response.content.decode()
    assert_history_kept(studied)
    assert Resource.objects.filter(pk=untouched.pk).exists()


def test_a_resource_nobody_studied_can_be_deleted(client, curator):
    """Without learner history, the curator's delete goes through."""
    client.force_login(curator)
    resource = ResourceFactory()
    url = reverse("admin:curriculum_resource_delete", args=[resource.pk])
    assert client.post(url, {"post": "yes"}).status_code == 302
    assert not Resource.objects.filter(pk=resource.pk).exists()
