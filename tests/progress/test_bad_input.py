"""Bad values the per-form tests do not already cover, one table per form: each gets a clear
error on its field and writes nothing. (Zero, negative, out-of-range minutes, old or future days,
non-web links, over-long notes and taken usernames are in the forms' own test modules.)"""

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from progress.models import CodingSession, Note, Profile, Watch, WatchEvent
from tests.factories import FollowedResourceFactory, ProfileFactory, ResourceFactory
from tests.pages import field_errors

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}
WHOLE_NUMBER = "Enter the minutes you watched as a whole number."
SITTING_RANGE = "A sitting lasts from 1 to 1440 minutes (24 hours)."


@pytest.mark.parametrize(
    ("minutes", "error"),
    [
        ("99999999999999999999", SITTING_RANGE),
        ("1e3", WHOLE_NUMBER),
        ("<b>10</b>", WHOLE_NUMBER),
        ("10\x00", WHOLE_NUMBER),
        ("x" * 10_000, WHOLE_NUMBER),
    ],
)
def test_a_bad_sitting_is_refused_with_its_message(learner_client, minutes, error):
    """Huge, scientific, marked-up or binary minutes: the message says why, no row is written."""
    course = ResourceFactory(kind="course", duration_minutes=720)
    url = reverse("progress:log_sitting", args=[course.slug])
    response = learner_client.post(url, {"minutes": minutes}, headers=EN)
    assert [str(m) for m in get_messages(response.wsgi_request)] == [error]
    assert not Watch.objects.exists() and not WatchEvent.objects.exists()


@pytest.mark.parametrize(
    ("factory", "slug", "status"),
    [(ResourceFactory, "no-such-resource", 404), (FollowedResourceFactory, None, 302)],
)
def test_a_sitting_on_an_unknown_or_followed_resource_writes_nothing(
    learner_client, factory, slug, status
):
    """An unknown slug is a 404; a channel (followed, no minutes) gets a message."""
    resource = factory()
    url = reverse("progress:log_sitting", args=[slug or resource.slug])
    response = learner_client.post(url, {"minutes": "10"}, headers=EN)
    assert response.status_code == status
    assert not Watch.objects.exists() and not WatchEvent.objects.exists()


def coding_session_data(**overrides):
    data = {
        "day": timezone.localdate().isoformat(),
        "minutes": "90",
        "built": "A tiled matmul",
        "code_url": "",
        "resource": str(ResourceFactory().pk),
        "chapter": "",
        "idempotency_key": str(uuid.uuid4()),
    }
    return {**data, **overrides}


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("minutes", "99999999999999999999", "Enter between 1 and 1440 minutes (24 h)."),
        ("minutes", "1.5", "Enter a whole number."),
        ("day", "yesterday", "Enter a valid date."),
        ("day", "2025-02-30", "Enter a valid date."),
        ("built", "x" * 301, "Ensure this value has at most 300 characters (it has 301)."),
        ("built", "a\x00b", "Null characters are not allowed."),
        ("code_url", "https://example.com/" + "x" * 500, "at most 500 characters"),
        ("code_url", "data:text/html,<script>", "Enter a web address that starts with http"),
        ("resource", "999999", "Select a valid choice."),
        ("resource", "lecture-3", "Select a valid choice."),
        ("chapter", "999999", "Select a valid choice."),
        ("idempotency_key", "not-a-uuid", "Enter a valid UUID."),
    ],
)
def test_a_bad_coding_session_is_refused_on_its_field(learner_client, field, value, error):
    """Each bad value comes back as an error on its own field; no session is saved."""
    response = learner_client.post(
        reverse("progress:coding_log"), coding_session_data(**{field: value}), headers=EN
    )
    assert response.status_code == 200
    assert error in " ".join(field_errors(response, field))
    assert not CodingSession.objects.exists()


@pytest.mark.parametrize(
    ("value", "error"),
    [("a\x00b", "Null characters are not allowed."), ("x" * 10_001, "at most 10,000 characters")],
)
def test_a_bad_note_is_refused(learner_client, value, error):
    """A binary or over-long note is refused with its reason; none is saved."""
    resource = ResourceFactory()
    url = reverse("progress:note", args=[resource.slug])
    response = learner_client.post(url, {"text": value}, headers=EN)
    assert error in response.content.decode()
    assert not Note.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("architecture", "999999", "Select a valid choice."),
        ("architecture", "hopper", "Select a valid choice."),
        ("language", "de", "Select a valid choice. de is not one of the available choices."),
        ("language", "<script>", "is not one of the available choices."),
        ("started_on", "tomorrow", "Enter a valid date."),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(learner_client, learner, field, value, error):
    """Unknown architectures and languages, unreadable days: a field error, the profile as it was."""
    ProfileFactory(user=learner)
    before = list(Profile.objects.values())
    data = {"architecture": "", "started_on": "2025-01-06", "language": "", field: value}
    response = learner_client.post(reverse("accounts:settings"), data, headers=EN)
    errors = response.context["page"].profile_form[field].errors
    assert any(error in message for message in errors)
    assert list(Profile.objects.values()) == before


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("username", "<b>ada</b>", "Enter a valid username."),
        ("username", "ada\x00", "Null characters are not allowed."),
        ("email", "ada@" + "x" * 260 + ".example", "at most 254 characters"),
        ("email", "javascript:alert(1)", "Enter a valid email address."),
    ],
)
def test_a_bad_sign_up_is_refused_and_creates_no_account(client, field, value, error):
    """Markup, binary or over-long values in the sign-up form: an error, no user."""
    data = {
        "username": "ada",
        "email": "ada@example.com",
        "password1": "a long passphrase 42",
        "password2": "a long passphrase 42",
        field: value,
    }
    response = client.post(reverse("signup"), data, headers=EN)
    assert error in str(response.context["form"].errors[field])
    assert not get_user_model().objects.exists()
