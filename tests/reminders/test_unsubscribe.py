"""One-click unsubscribe: a signed link that works signed out; GET asks, POST unsubscribes (RFC 8058)."""

import pytest
from django.test import Client
from django.urls import reverse

from reminders.digest import unsubscribe_token
from reminders.models import DigestSubscription

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def url_for(token):
    return reverse("reminders:unsubscribe", args=[token])


def test_get_asks_to_confirm_and_changes_nothing(learner, subscribed):
    """A mail scanner that follows the link unsubscribes no one: a button does."""
    url = url_for(unsubscribe_token(learner))
    response = Client().get(url, headers=EN)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Stop receiving the weekly digest by e-mail?" in html
    assert f'<form method="post" action="{url}">' in html
    assert DigestSubscription.objects.filter(user=learner).exists()


def test_the_button_unsubscribes_signed_out(learner, subscribed):
    """The confirm page's form, posted by a browser with no session."""
    response = Client().post(url_for(unsubscribe_token(learner)), headers=EN)
    assert response.status_code == 200
    assert "You are unsubscribed" in response.content.decode()
    assert not DigestSubscription.objects.filter(user=learner).exists()


def test_a_mail_clients_one_click_post_needs_no_csrf_token(learner, subscribed):
    """RFC 8058: the client posts List-Unsubscribe=One-Click, without cookies or a CSRF token."""
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        url_for(unsubscribe_token(learner)),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert not DigestSubscription.objects.filter(user=learner).exists()


def test_only_the_learner_of_the_link_is_unsubscribed(learner, subscribed, other_learner):
    DigestSubscription.objects.create(user=other_learner, weekday=3)
    Client().post(url_for(unsubscribe_token(learner)))
    assert list(DigestSubscription.objects.values_list("user__username", flat=True)) == ["grace"]


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_tampered_link_is_refused_and_changes_nothing(learner, subscribed, other_learner, method):
    """Another learner's id with this signature, or a cut signature: 400, nobody unsubscribed."""
    token = unsubscribe_token(learner)
    forged = unsubscribe_token(other_learner).split(":")[0] + ":" + token.split(":", 1)[1]
    for bad in (forged, token[:-3], "nonsense"):
        response = getattr(Client(), method)(url_for(bad), headers=EN)
        assert response.status_code == 400
        assert "This unsubscribe link is not valid" in response.content.decode()
    assert DigestSubscription.objects.filter(user=learner).exists()


def test_a_link_from_another_purpose_is_refused(learner, subscribed):
    """A value signed with the same key for something else does not unsubscribe."""
    from django.core import signing

    token = signing.dumps({"learner": learner.pk}, salt="something.else")
    assert Client().post(url_for(token)).status_code == 400
    assert DigestSubscription.objects.filter(user=learner).exists()


def test_after_unsubscribing_the_link_says_so(learner):
    html = Client().get(url_for(unsubscribe_token(learner)), headers=EN).content.decode()
    assert "You do not receive the weekly digest." in html


def test_the_link_of_a_deleted_account_is_404(learner):
    token = unsubscribe_token(learner)
    learner.delete()
    assert Client().post(url_for(token)).status_code == 404


def test_other_methods_are_refused(learner, subscribed):
    assert Client().put(url_for(unsubscribe_token(learner))).status_code == 405
