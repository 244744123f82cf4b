"""The digest's choice on the settings page: a weekday, or none."""

import pytest
from django.urls import reverse

from reminders.models import DigestSubscription

pytestmark = pytest.mark.django_db

URL = reverse("reminders:digest_settings")
EN = {"accept-language": "en"}


def test_choosing_a_weekday_subscribes(learner_client, learner):
    response = learner_client.post(URL, {"weekday": "4"})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:settings") + "#settings-reminders-title"
    assert DigestSubscription.objects.get(user=learner).weekday == 4


def test_changing_the_weekday_keeps_one_row(learner_client, learner, subscribed):
    learner_client.post(URL, {"weekday": "6"})
    assert list(
        DigestSubscription.objects.filter(user=learner).values_list("weekday", flat=True)
    ) == [6]


def test_no_digest_unsubscribes(learner_client, learner, subscribed):
    learner_client.post(URL, {"weekday": ""})
    assert not DigestSubscription.objects.filter(user=learner).exists()


@pytest.mark.parametrize("weekday", ["7", "-1", "monday"])
def test_a_bad_weekday_changes_nothing(learner_client, learner, subscribed, weekday):
    response = learner_client.post(URL, {"weekday": weekday}, headers=EN, follow=True)
    assert "Choose a weekday, or no digest." in response.content.decode()
    assert DigestSubscription.objects.get(user=learner).weekday == 0


def test_the_settings_page_shows_the_choice(learner_client, subscribed):
    html = learner_client.get(reverse("accounts:settings"), headers=EN).content.decode()
    assert '<option value="0" selected>Monday</option>' in html
    assert 'aria-labelledby="settings-reminders-title"' in html


@pytest.mark.parametrize("with_reminders", [False, True])
def test_the_settings_page_query_count_does_not_depend_on_reminders(
    learner_client, learner, with_reminders, django_assert_num_queries
):
    """Session, user, and one statement for the revision token, the profile, the feed, the
    digest and the nudge."""
    from reminders.models import CalendarFeed, NudgeSubscription

    if with_reminders:
        CalendarFeed.issue_for(learner)
        DigestSubscription.objects.create(user=learner, weekday=2)
        NudgeSubscription.objects.create(user=learner, hour=7)
    learner_client.get(reverse("accounts:settings"))
    with django_assert_num_queries(3):
        learner_client.get(reverse("accounts:settings"))


def test_with_htmx_the_section_comes_back_with_its_announcement(learner_client, learner):
    """An htmx POST gets the section's body and an out-of-band line for its live region."""
    response = learner_client.post(URL, {"weekday": "2"}, headers={**EN, "HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="reminders-body">')
    assert '<option value="2" selected>Wednesday</option>' in html
    assert (
        '<span id="reminders-status" hx-swap-oob="innerHTML">Your weekly digest is on.</span>'
        in html
    )
    assert DigestSubscription.objects.get(user=learner).weekday == 2


def test_with_htmx_a_bad_weekday_is_announced(learner_client, learner):
    response = learner_client.post(URL, {"weekday": "9"}, headers={**EN, "HX-Request": "true"})
    assert "Choose a weekday, or no digest." in response.content.decode()
    assert not DigestSubscription.objects.filter(user=learner).exists()
