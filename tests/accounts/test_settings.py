import re
from datetime import date, timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from progress.models import Profile
from tests.factories import PASSWORD, ArchitectureFactory, ProfileFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
URL = "/settings/"


def profile_data(**overrides):
    return {"architecture": "", "started_on": "2025-01-06", "language": "", **overrides}


def test_the_url_is_named_settings():
    """/settings/ is reversed as accounts:settings."""
    assert reverse("accounts:settings") == URL


def test_it_requires_sign_in(client):
    """Anonymous visitors go to the sign-in page."""
    assert client.get(URL).status_code == 302


def test_it_offers_i_dont_know_for_the_gpu(learner_client):
    """The architecture select starts with “I don't know”."""
    ArchitectureFactory(name="Hopper")
    html = learner_client.get(URL, headers=EN).content.decode()
    assert "I don&#39;t know" in html
    assert "Hopper" in html
    assert "Export my data" in html and "Delete my account" in html


def test_it_saves_the_gpu_and_the_start_day(learner_client, learner):
    """A valid POST saves the profile and redirects with a message."""
    hopper = ArchitectureFactory(name="Hopper")
    response = learner_client.post(
        URL, profile_data(architecture=str(hopper.pk)), headers=EN, follow=True
    )
    assert "Your settings are saved." in response.content.decode()
    profile = Profile.objects.get(user=learner)
    assert (profile.architecture, profile.started_on) == (hopper, date(2025, 1, 6))


def test_i_dont_know_clears_the_gpu(learner_client, learner):
    """An empty architecture means “I don't know”."""
    ProfileFactory(user=learner, architecture=ArchitectureFactory())
    learner_client.post(URL, profile_data())
    assert Profile.objects.get(user=learner).architecture is None


@pytest.mark.parametrize(
    ("started_on", "error"),
    [
        (
            (timezone.localdate() + timedelta(days=1)).isoformat(),
            "The day cannot be in the future.",
        ),
        ("1999-01-01", "The day cannot be before 2000."),
    ],
)
def test_a_bad_start_day_is_refused(learner_client, learner, started_on, error):
    """Future or ancient start days get a field error and change nothing."""
    ProfileFactory(user=learner, started_on=date(2025, 1, 6))
    response = learner_client.post(URL, profile_data(started_on=started_on), headers=EN)
    assert error in response.content.decode()
    assert Profile.objects.get(user=learner).started_on == date(2025, 1, 6)


def test_choosing_a_language_saves_it_and_sets_the_cookie(learner_client, learner):
    """The language is kept on the profile and applied at once through Django's cookie."""
    response = learner_client.post(URL, profile_data(language="en"), follow=True)
    assert Profile.objects.get(user=learner).language == "en"
    assert learner_client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    html = response.content.decode()
    assert '<html lang="en">' in html and "Your settings are saved." in html


def test_going_back_to_the_browser_language_removes_the_cookie(learner_client, learner):
    """An empty language deletes the cookie so the browser's choice applies again."""
    learner_client.post(URL, profile_data(language="en"))
    learner_client.post(URL, profile_data(language=""))
    assert Profile.objects.get(user=learner).language == ""
    assert learner_client.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""


def test_signing_in_applies_the_saved_language(client, learner):
    """The sign-in response sets the language cookie from the profile."""
    ProfileFactory(user=learner, language="en")
    response = client.post(reverse("login"), {"username": learner.username, "password": PASSWORD})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert '<html lang="en">' in client.get(URL).content.decode()


def test_signing_in_without_a_saved_language_sets_no_cookie(client, learner):
    """No saved language: the browser's language keeps applying."""
    response = client.post(reverse("login"), {"username": learner.username, "password": PASSWORD})
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_recording_what_i_play_is_on_by_default_and_turns_off_and_on(learner_client, learner):
    """The box is ticked for a new learner; unticked, the player is given nowhere to send what is
    played; ticked again, it is."""
    from tests.factories import ResourceFactory

    ResourceFactory(slug="lecture", watch_url="https://youtu.be/09wntC6BT5o")
    html = learner_client.get(URL, headers=EN).content.decode()
    box = re.search(r'<input type="checkbox" name="records_viewing"[^>]*>', html).group()
    assert "checked" in box
    assert "Record what I play on the resource pages" in html
    learner_client.post(URL, profile_data())
    assert Profile.objects.get(user=learner).records_viewing is False
    assert "data-record-url" not in learner_client.get("/resources/lecture/").content.decode()
    learner_client.post(URL, profile_data(records_viewing="on"))
    assert Profile.objects.get(user=learner).records_viewing is True
    page = learner_client.get("/resources/lecture/").content.decode()
    assert 'data-record-url="/resources/lecture/viewing/"' in page
