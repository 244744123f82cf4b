"""A coding session form whose hidden idempotency key was altered comes back with an error one can see."""

import re
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from progress.models import CodingSession
from tests.factories import ResourceFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
ALTERED = "This form was altered or is out of date, so nothing was saved."
KEY = re.compile(r'name="idempotency_key" value="([^"]*)"')


def session_data(resource, key):
    data = {
        "day": timezone.localdate().isoformat(),
        "minutes": "45",
        "built": "A reduction",
        "code_url": "",
        "resource": str(resource.pk),
        "chapter": "",
        "idempotency_key": key,
    }
    return {name: value for name, value in data.items() if value is not None}


@pytest.mark.parametrize("key", ["not-a-uuid", "", None, "' onfocus='alert(1)"])
def test_the_coding_log_shows_the_error_and_saves_nothing(learner_client, key):
    """Tampered, empty or missing: the form is shown again with the error above its fields."""
    resource = ResourceFactory()
    response = learner_client.post(
        reverse("progress:coding_log"), session_data(resource, key), headers=EN
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert ALTERED in html
    assert "onfocus" not in html.split('name="idempotency_key"')[1].split(">")[0]
    assert 'value="A reduction"' in html
    assert not CodingSession.objects.exists()


def test_the_form_shown_again_carries_a_new_key_that_saves(learner_client, learner):
    """Sending the form as shown again, with the key it now carries, saves the session once."""
    resource = ResourceFactory()
    url = reverse("progress:coding_log")
    html = learner_client.post(url, session_data(resource, "not-a-uuid"), headers=EN)
    new_key = KEY.search(html.content.decode()).group(1)
    assert uuid.UUID(new_key)
    response = learner_client.post(url, session_data(resource, new_key), headers=EN)
    assert response.status_code == 302
    assert CodingSession.objects.for_learner(learner).get().idempotency_key == uuid.UUID(new_key)


@pytest.mark.parametrize("htmx", [False, True])
def test_the_resource_page_form_shows_the_error_with_or_without_htmx(learner_client, htmx):
    """The inline form of a resource page says the same, as a page or as the swapped block."""
    resource = ResourceFactory()
    data = session_data(resource, "00000000-not-a-key")
    del data["resource"], data["chapter"]
    headers = {**EN, **({"hx-request": "true"} if htmx else {})}
    response = learner_client.post(
        reverse("progress:coding_session_add", args=[resource.slug]), data, headers=headers
    )
    assert response.status_code == 200
    assert ALTERED in response.content.decode()
    assert not CodingSession.objects.exists()


def test_the_error_is_in_french_too(learner_client):
    """The message is translated."""
    resource = ResourceFactory()
    response = learner_client.post(
        reverse("progress:coding_log"),
        session_data(resource, "x"),
        headers={"accept-language": "fr"},
    )
    assert "Ce formulaire a été modifié ou n\u2019est plus à jour" in response.content.decode()
