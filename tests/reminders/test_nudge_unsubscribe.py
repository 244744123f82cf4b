"""The nudge's one-click unsubscribe: its own signed link, GET asks, POST stops the nudge only."""

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from reminders.digest import unsubscribe_token
from reminders.models import DigestSubscription, NudgeSubscription
from reminders.nudge import UNSUBSCRIBE_SALT

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


@pytest.fixture
def nudged(learner):
    """The learner gets both mails: the nudge at 18:00 and the digest on Mondays."""
    DigestSubscription.objects.create(user=learner, weekday=0)
    return NudgeSubscription.objects.create(user=learner, hour=18)


def url_for(token):
    return reverse("reminders:nudge_unsubscribe", args=[token])


def nudge_token(user):
    return unsubscribe_token(user, salt=UNSUBSCRIBE_SALT)


def test_get_asks_to_confirm_and_changes_nothing(learner, nudged):
    url = url_for(nudge_token(learner))
    response = Client().get(url, headers=EN)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Stop receiving the daily nudge by e-mail?" in html
    assert f'<form method="post" action="{url}">' in html
    assert NudgeSubscription.objects.filter(user=learner).exists()


def test_a_mail_clients_one_click_post_stops_the_nudge_and_leaves_the_digest(learner, nudged):
    response = Client(enforce_csrf_checks=True).post(
        url_for(nudge_token(learner)),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
        headers=EN,
    )
    assert response.status_code == 200
    assert "You are unsubscribed: no more daily nudge." in response.content.decode()
    assert not NudgeSubscription.objects.filter(user=learner).exists()
    assert DigestSubscription.objects.filter(user=learner).exists()


def test_the_digests_link_does_not_open_the_nudges_page(learner, nudged):
    """Each mail's link is signed for it: the digest's token is refused here, and the other way."""
    digest_token = unsubscribe_token(learner)
    assert Client().post(url_for(digest_token), headers=EN).status_code == 400
    digest_url = reverse("reminders:unsubscribe", args=[nudge_token(learner)])
    assert Client().post(digest_url).status_code == 400
    assert NudgeSubscription.objects.filter(user=learner).exists()
    assert DigestSubscription.objects.filter(user=learner).exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_tampered_link_is_refused(learner, nudged, method):
    token = nudge_token(learner)
    for bad in (token[:-3], "nonsense", signing.dumps({"learner": learner.pk}, salt="other")):
        response = getattr(Client(), method)(url_for(bad), headers=EN)
        assert response.status_code == 400
        assert "Use the link of a nudge as it came" in response.content.decode()
    assert NudgeSubscription.objects.filter(user=learner).exists()


def test_after_unsubscribing_the_link_says_so_in_french(learner):
    response = Client().get(url_for(nudge_token(learner)), headers={"accept-language": "fr"})
    assert "Vous ne recevez pas le rappel quotidien." in response.content.decode()


def test_the_link_of_a_deleted_account_is_404(learner):
    token = nudge_token(learner)
    learner.delete()
    assert Client().post(url_for(token)).status_code == 404
