"""A curator cannot delete a resource that learners have history on: admin says why, nothing goes."""

import pytest
from django.urls import reverse

from curriculum.models import Resource
from progress.models import Note, Practice, Watch, WatchEvent
from tests.factories import (
    NoteFactory,
    PracticeFactory,
    ResourceFactory,
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
    PracticeFactory(user=learner, resource=resource)
    NoteFactory(user=learner, resource=resource, text="my private thoughts")
    return resource


def assert_history_kept(resource):
    assert Resource.objects.filter(pk=resource.pk).exists()
    counts = [model.objects.filter(resource=resource).count() for model in (Watch, WatchEvent)]
    counts += [model.objects.filter(resource=resource).count() for model in (Practice, Note)]
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
