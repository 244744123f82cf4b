"""The start day is the learner's own day: sign-up takes it in the learner's zone, and Settings
never judges again a start day the learner did not touch (issue 40, point 1)."""

from datetime import UTC, date, datetime

import pytest
import time_machine
from django.urls import reverse

from progress.models import Profile
from tests.factories import ProfileFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
TORONTO = "America/Toronto"
TOKYO = "Asia/Tokyo"
# 23:30 in Toronto on Friday 4 December is 05:30 on Saturday in Paris, the site's zone.
TORONTO_EVENING = datetime(2026, 12, 5, 4, 30, tzinfo=UTC)


def sign_up(client, **extra):
    data = {
        "username": "tess",
        "email": "tess@example.com",
        "password1": "a long enough passphrase",
        "password2": "a long enough passphrase",
    }
    return client.post(reverse("signup"), {**data, **extra})


def settings_data(profile, **changes):
    return {
        "architecture": "",
        "gpu_card": "",
        "started_on": profile.started_on.isoformat(),
        "language": profile.language,
        "time_zone": profile.time_zone,
        "records_viewing": "on",
        **changes,
    }


@time_machine.travel(TORONTO_EVENING, tick=False)
def test_a_learner_signing_up_in_toronto_at_night_starts_on_their_own_today(client):
    """Not on Paris's Saturday: the path starts on Friday, their today."""
    assert sign_up(client, time_zone=TORONTO).status_code == 302

    assert Profile.objects.get(user__username="tess").started_on == date(2026, 12, 4)


@time_machine.travel(TORONTO_EVENING, tick=False)
def test_without_the_browsers_zone_the_start_day_is_the_sites_today(client):
    """No zone from the browser (no JavaScript): the site's zone, and its day."""
    assert sign_up(client, time_zone="").status_code == 302

    assert Profile.objects.get(user__username="tess").started_on == date(2026, 12, 5)


@time_machine.travel(TORONTO_EVENING, tick=False)
def test_the_toronto_learner_saves_settings_the_same_evening(client):
    """Signed up, then Settings saved with the start day untouched and a new language: saved."""
    sign_up(client, time_zone=TORONTO)
    profile = Profile.objects.get(user__username="tess")

    response = client.post(
        reverse("accounts:settings"), settings_data(profile, language="en"), headers=EN
    )

    assert response.status_code == 302
    assert Profile.objects.get(pk=profile.pk).language == "en"


@time_machine.travel(TORONTO_EVENING, tick=False)
def test_a_start_day_saved_tomorrow_before_does_not_block_other_settings(learner, client):
    """A profile signed up before the fix holds Paris's Saturday; changing the zone still saves,
    and the untouched start day stays as it was."""
    profile = ProfileFactory(user=learner, time_zone=TORONTO, started_on=date(2026, 12, 5))
    client.force_login(learner)

    response = client.post(
        reverse("accounts:settings"), settings_data(profile, time_zone=TOKYO), headers=EN
    )

    assert response.status_code == 302
    profile.refresh_from_db()
    assert (profile.time_zone, profile.started_on) == (TOKYO, date(2026, 12, 5))


@time_machine.travel(TORONTO_EVENING, tick=False)
def test_a_start_day_changed_to_the_learners_tomorrow_is_refused(learner, client):
    """A day the learner types is still judged, in their zone: Saturday is Toronto's tomorrow."""
    profile = ProfileFactory(user=learner, time_zone=TORONTO, started_on=date(2026, 11, 30))
    client.force_login(learner)

    response = client.post(
        reverse("accounts:settings"),
        settings_data(profile, started_on="2026-12-05"),
        headers=EN,
    )

    assert response.status_code == 200
    assert "The day cannot be in the future." in response.content.decode()
    assert Profile.objects.get(pk=profile.pk).started_on == date(2026, 11, 30)


@time_machine.travel(datetime(2026, 12, 5, 20, 0, tzinfo=UTC), tick=False)
def test_a_start_day_is_judged_in_the_zone_being_saved(learner, client):
    """21:00 in Paris is Sunday 05:00 in Tokyo: moving to Tokyo, Sunday may be the start day."""
    profile = ProfileFactory(user=learner, time_zone="Europe/Paris", started_on=date(2026, 11, 30))
    client.force_login(learner)

    response = client.post(
        reverse("accounts:settings"),
        settings_data(profile, started_on="2026-12-06", time_zone=TOKYO),
        headers=EN,
    )

    assert response.status_code == 302
    assert Profile.objects.get(pk=profile.pk).started_on == date(2026, 12, 6)
