"""The daily nudge's choice on the settings page: an hour of the learner's day, or none."""

import pytest
from django.urls import reverse

from reminders.models import NudgeSubscription

pytestmark = pytest.mark.django_db

URL = reverse("reminders:nudge_settings")
EN = {"accept-language": "en"}
FR = {"accept-language": "fr"}


@pytest.fixture
def nudged(learner):
    return NudgeSubscription.objects.create(user=learner, hour=18)


def test_choosing_an_hour_subscribes(learner_client, learner):
    response = learner_client.post(URL, {"hour": "7"})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:settings") + "#settings-reminders-title"
    assert NudgeSubscription.objects.get(user=learner).hour == 7


def test_midnight_is_an_hour_like_the_others(learner_client, learner):
    learner_client.post(URL, {"hour": "0"})
    assert NudgeSubscription.objects.get(user=learner).hour == 0


def test_changing_the_hour_keeps_one_row(learner_client, learner, nudged):
    learner_client.post(URL, {"hour": "21"})
    assert list(NudgeSubscription.objects.filter(user=learner).values_list("hour", flat=True)) == [
        21
    ]


def test_no_nudge_unsubscribes(learner_client, learner, nudged):
    learner_client.post(URL, {"hour": ""})
    assert not NudgeSubscription.objects.filter(user=learner).exists()


@pytest.mark.parametrize("hour", ["24", "-1", "18:30", "evening"])
def test_a_bad_hour_changes_nothing(learner_client, learner, nudged, hour):
    response = learner_client.post(URL, {"hour": hour}, headers=EN, follow=True)
    assert "Choose an hour, or no daily nudge." in response.content.decode()
    assert NudgeSubscription.objects.get(user=learner).hour == 18


def test_the_settings_page_shows_a_labelled_choice(learner_client, nudged):
    """A native select with its label and its help tied to it: keyboard and screen readers need nothing more."""
    html = learner_client.get(reverse("accounts:settings"), headers=EN).content.decode()
    assert '<label for="id_hour">Daily nudge by e-mail:</label>' in html
    assert 'aria-describedby="id_hour_helptext"' in html
    assert "only on days when code is owed and none is logged yet" in html
    assert '<option value="18" selected>18:00</option>' in html
    assert '<option value="">No daily nudge</option>' in html


def test_the_settings_page_offers_it_in_french(learner_client):
    html = learner_client.get(reverse("accounts:settings"), headers=FR).content.decode()
    assert "Rappel quotidien par e-mail" in html
    assert '<option value="" selected>Pas de rappel quotidien</option>' in html


def test_with_htmx_the_section_comes_back_with_its_announcement(learner_client, learner):
    response = learner_client.post(URL, {"hour": "19"}, headers={**EN, "HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="reminders-body">')
    assert '<option value="19" selected>19:00</option>' in html
    assert (
        '<span id="reminders-status" hx-swap-oob="innerHTML">Your daily nudge is on.</span>' in html
    )
    assert NudgeSubscription.objects.get(user=learner).hour == 19
