"""The learner's own time zone: "today", weeks, streaks and the path's week follow it, at day boundaries."""

import re
import uuid
from datetime import UTC, date, datetime
from zoneinfo import available_timezones

import pytest
import time_machine
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse

from progress.models import CodingSession, Profile
from progress.time_zone import SESSION_TIME_ZONE
from tests.factories import (
    PASSWORD,
    CodingSessionFactory,
    ProfileFactory,
    ResourceFactory,
    UserFactory,
    WatchEventFactory,
)

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
TOKYO = "Asia/Tokyo"  # UTC+9
PARIS = "Europe/Paris"  # UTC+1 in winter, the site's zone
MONTREAL = "America/Montreal"  # UTC-5 in winter


@pytest.fixture
def sign_in_in(learner):
    """A client signed in as the learner, whose profile names the given time zone."""

    def sign_in(zone, **profile):
        ProfileFactory(user=learner, time_zone=zone, **profile)
        client = Client()
        client.force_login(learner)
        return client

    return sign_in


def coding_session_data(day, resource):
    return {
        "day": day.isoformat(),
        "minutes": "60",
        "built": "A reduction",
        "code_url": "",
        "resource": str(resource.pk),
        "idempotency_key": str(uuid.uuid4()),
    }


def stats_html(client):
    response = client.get(reverse("progress:stats"), headers=EN)
    assert response.status_code == 200
    return response.content.decode()


def current_streak(html):
    return re.search(r"<dt>Current streak</dt><dd>(\d+) days?</dd>", html).group(1)


def heatmap_titles(html):
    return re.findall(r'<rect class="heatmap__day[^"]*"[^>]*><title>([^<]*)</title>', html)


def week_row(html, monday_label):
    """The time watched and coded of the week whose row starts with monday_label."""
    match = re.search(
        rf"<tr><th scope=\"row\">{monday_label} \u2013 [^<]*</th><td>([^<]*)</td><td>([^<]*)</td></tr>",
        html,
    )
    assert match, f"no week row for {monday_label}"
    return match.groups()


# Tokyo (UTC+9): at 23:30 on Tuesday 13 January it is still 15:30 on Tuesday in Paris, and at
# 00:30 on Wednesday it is Tuesday 16:30 there: Paris's "today" would refuse the Wednesday.


@time_machine.travel(datetime(2026, 1, 13, 14, 30, tzinfo=UTC), tick=False)
def test_a_tokyo_learner_coding_at_2330_sees_it_on_that_day_in_stats_and_streaks(
    sign_in_in, learner
):
    """Logged at 23:30 local on Tuesday: the day, the heatmap's last square and the streak say Tuesday."""
    client = sign_in_in(TOKYO)
    resource = ResourceFactory()
    CodingSessionFactory(user=learner, day=date(2026, 1, 12), resource=resource)
    form_day = re.search(
        r'name="day" value="([^"]+)"', client.get(reverse("progress:coding_log")).content.decode()
    )
    assert form_day.group(1) == "2026-01-13"
    response = client.post(
        reverse("progress:coding_log"), coding_session_data(date(2026, 1, 13), resource)
    )
    assert response.status_code == 302
    html = stats_html(client)
    assert current_streak(html) == "2"
    assert "Tuesday 13 January 2026" in heatmap_titles(html)[-1]
    assert CodingSession.objects.filter(user=learner, day=date(2026, 1, 13)).count() == 1


@time_machine.travel(datetime(2026, 1, 13, 15, 30, tzinfo=UTC), tick=False)
def test_a_tokyo_learner_just_after_midnight_may_log_the_new_day(sign_in_in, learner):
    """00:30 on Wednesday in Tokyo is Tuesday in Paris: Wednesday is today, not the future."""
    client = sign_in_in(TOKYO)
    resource = ResourceFactory()
    response = client.post(
        reverse("progress:coding_log"), coding_session_data(date(2026, 1, 14), resource)
    )
    assert response.status_code == 302
    assert current_streak(stats_html(client)) == "1"
    assert CodingSession.objects.filter(user=learner, day=date(2026, 1, 14)).exists()


@time_machine.travel(datetime(2026, 1, 13, 15, 30, tzinfo=UTC), tick=False)
def test_in_the_site_zone_the_same_instant_refuses_wednesday(sign_in_in, learner):
    """The same request from a learner in Paris: Wednesday is still tomorrow there."""
    client = sign_in_in("")
    resource = ResourceFactory()
    response = client.post(
        reverse("progress:coding_log"), coding_session_data(date(2026, 1, 14), resource), headers=EN
    )
    assert response.status_code == 200
    assert "The day cannot be in the future." in response.content.decode()
    assert not CodingSession.objects.filter(user=learner).exists()


# Montréal (UTC-5): at 23:30 on Tuesday it is already Wednesday 05:30 in Paris.


@time_machine.travel(datetime(2026, 1, 14, 4, 30, tzinfo=UTC), tick=False)
def test_a_montreal_learner_at_2330_is_still_on_tuesday(sign_in_in, learner):
    """Wednesday is refused as the future; the heatmap ends on Tuesday; Monday and Tuesday make a streak."""
    client = sign_in_in(MONTREAL)
    resource = ResourceFactory()
    CodingSessionFactory(user=learner, day=date(2026, 1, 12), resource=resource)
    CodingSessionFactory(user=learner, day=date(2026, 1, 13), resource=resource)
    response = client.post(
        reverse("progress:coding_log"), coding_session_data(date(2026, 1, 14), resource), headers=EN
    )
    assert "The day cannot be in the future." in response.content.decode()
    html = stats_html(client)
    assert "Tuesday 13 January 2026" in heatmap_titles(html)[-1]
    assert current_streak(html) == "2"
    assert CodingSession.objects.filter(user=learner).count() == 2


# Paris (UTC+1) for a learner on a site that runs in UTC: Sunday 23:30 there is Sunday 22:30 UTC,
# Monday 00:30 there is still Sunday in UTC.


@time_machine.travel(datetime(2026, 1, 18, 23, 30, tzinfo=UTC), tick=False)
def test_a_paris_learner_on_a_utc_site_starts_the_week_at_their_midnight(
    settings, sign_in_in, learner
):
    """Watched at 00:10 Monday local (Sunday 23:10 UTC): it belongs to the new week, not to last."""
    settings.TIME_ZONE = "UTC"
    client = sign_in_in(PARIS)
    resource = ResourceFactory()
    WatchEventFactory(
        user=learner, resource=resource, minutes=90, at=datetime(2026, 1, 18, 23, 10, tzinfo=UTC)
    )
    WatchEventFactory(
        user=learner, resource=resource, minutes=30, at=datetime(2026, 1, 18, 22, 50, tzinfo=UTC)
    )
    html = stats_html(client)
    assert week_row(html, "19 January 2026") == (
        "1\N{NO-BREAK SPACE}h\N{NO-BREAK SPACE}30",
        "0\N{NO-BREAK SPACE}min",
    )
    assert week_row(html, "12 January 2026") == (
        "30\N{NO-BREAK SPACE}min",
        "0\N{NO-BREAK SPACE}min",
    )


def test_changing_the_zone_regroups_the_same_data(sign_in_in, learner):
    """An event at Monday 03:00 UTC is Sunday evening in Montréal, Monday in Tokyo: its week moves."""
    resource = ResourceFactory()
    WatchEventFactory(
        user=learner, resource=resource, minutes=60, at=datetime(2026, 1, 12, 3, 0, tzinfo=UTC)
    )
    with time_machine.travel(datetime(2026, 1, 14, 12, 0, tzinfo=UTC), tick=False):
        client = sign_in_in(MONTREAL)
        html = stats_html(client)
        assert week_row(html, "5 January 2026") == (
            "1\N{NO-BREAK SPACE}h",
            "0\N{NO-BREAK SPACE}min",
        )
        assert week_row(html, "12 January 2026") == (
            "0\N{NO-BREAK SPACE}min",
            "0\N{NO-BREAK SPACE}min",
        )
        response = client.post(
            reverse("accounts:settings"),
            {"architecture": "", "started_on": "2026-01-05", "language": "", "time_zone": TOKYO},
        )
        assert response.status_code == 302
        html = stats_html(client)
    # Emptied, the week of 5 January leaves the table, which starts at the first week with hours.
    assert "5 January 2026 \u2013" not in html
    assert week_row(html, "12 January 2026") == ("1\N{NO-BREAK SPACE}h", "0\N{NO-BREAK SPACE}min")
    assert Profile.objects.get(user=learner).time_zone == TOKYO


@time_machine.travel(datetime(2026, 1, 11, 15, 30, tzinfo=UTC), tick=False)
def test_the_path_week_turns_at_the_learners_midnight(sign_in_in, seed_path):
    """Started on Monday 5 January: at Monday 00:30 in Tokyo it is week 2; in Paris still week 1."""
    tokyo = sign_in_in(TOKYO, started_on=date(2026, 1, 5))
    assert "Week 2 of 4" in tokyo.get("/", headers=EN).content.decode()
    paris = UserFactory(username="paris")
    ProfileFactory(user=paris, started_on=date(2026, 1, 5))
    client = Client()
    client.force_login(paris)
    assert "Week 1 of 4" in client.get("/", headers=EN).content.decode()


def test_settings_offer_every_iana_zone_with_the_site_zone_filled_in_by_default(sign_in_in):
    """The field offers zoneinfo's names as the learner types (a datalist); a learner who never
    chose sees the site's."""
    html = sign_in_in("").get(reverse("accounts:settings"), headers=EN).content.decode()
    assert 'list="time-zones"' in html and 'value="Europe/Paris"' in html
    offered = html.split('<datalist id="time-zones">')[1].split("</datalist>")[0]
    assert offered.count("<option ") == len(available_timezones())
    assert '<option value="Asia/Tokyo">' in offered
    assert '<option value="America/Montreal">' in offered


def test_an_unknown_zone_is_refused(sign_in_in, learner):
    """A name zoneinfo does not know is an error and changes nothing."""
    client = sign_in_in(TOKYO)
    response = client.post(
        reverse("accounts:settings"),
        {
            "architecture": "",
            "started_on": "2026-01-05",
            "language": "",
            "time_zone": "Mars/Olympus",
        },
        headers=EN,
    )
    assert response.status_code == 200
    assert "is not a time zone" in response.content.decode()
    assert Profile.objects.get(user=learner).time_zone == TOKYO


def test_signing_in_puts_the_zone_in_the_session(client, learner):
    """The middleware then reads it from the session, with no query of its own."""
    ProfileFactory(user=learner, time_zone=TOKYO)
    client.post(reverse("login"), {"username": learner.username, "password": PASSWORD})
    assert client.session[SESSION_TIME_ZONE] == TOKYO


def test_a_session_from_before_reads_the_profile_once(sign_in_in, django_assert_num_queries):
    """A session without the zone (signed in before it was kept there) gets it on its next request."""
    client = sign_in_in(MONTREAL)
    session = client.session
    del session[SESSION_TIME_ZONE]
    session.save()
    assert SESSION_KEY in client.session
    client.get(reverse("accounts:settings"))
    assert client.session[SESSION_TIME_ZONE] == MONTREAL
    with django_assert_num_queries(3):  # session, user, the revision with the profile and reminders
        client.get(reverse("accounts:settings"))


class TestSignUp:
    def sign_up(self, client, **extra):
        data = {
            "username": "hiro",
            "email": "hiro@example.com",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
        }
        return client.post(reverse("signup"), {**data, **extra})

    def test_the_form_carries_the_site_zone_for_the_script_to_replace(self, client):
        """Without JavaScript the hidden field keeps the site's zone; the script is linked."""
        html = client.get(reverse("signup")).content.decode()
        assert re.search(
            r'<input type="hidden" name="time_zone" value="Europe/Paris"[^>]*data-browser-time-zone',
            html,
        )
        assert "js/time_zone.js" in html

    def test_the_browsers_zone_is_saved(self, client):
        """What the script filled in becomes the profile's zone, and the session's."""
        assert self.sign_up(client, time_zone=TOKYO).status_code == 302
        assert Profile.objects.get(user__username="hiro").time_zone == TOKYO
        assert client.session[SESSION_TIME_ZONE] == TOKYO

    def test_an_unknown_browser_zone_falls_back_to_the_site_zone(self, client):
        """Sign-up never fails over a zone: an unknown one becomes the site's."""
        assert self.sign_up(client, time_zone="Etc/Nowhere").status_code == 302
        assert Profile.objects.get(user__username="hiro").time_zone == PARIS
