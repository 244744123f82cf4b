import datetime as dt
import io

import pytest
import time_machine
from axes.models import AccessAttempt
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}
LOCKED_OUT = "Too many failed sign-in attempts"


def sign_in(client, username="ada", password=PASSWORD):
    data = {"username": username, "password": password}
    return client.post(reverse("login"), data, headers=EN)


def fail_to_sign_in(client, times, username="ada"):
    return [sign_in(client, username, "not the password") for _ in range(times)][-1]


def test_four_failures_still_show_the_ordinary_error(client, learner):
    """Below the limit, a wrong password gets the form's usual message."""
    response = fail_to_sign_in(client, 4)
    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()


def test_the_fifth_failure_locks_the_account_with_a_clear_page(client, learner):
    """The fifth wrong password answers 429 with a page that says what happened and for how long."""
    response = fail_to_sign_in(client, 5)
    assert response.status_code == 429
    html = response.content.decode()
    assert LOCKED_OUT in html
    assert "paused after 5 failed attempts. Try again in 15 minutes." in html
    assert f'href="{reverse("password_reset")}"' in html


def test_the_sixth_attempt_is_refused_even_with_the_right_password(client, learner):
    """Once locked, the right password is refused too, with the lockout message, and nobody signs in."""
    fail_to_sign_in(client, 5)
    response = sign_in(client)
    assert response.status_code == 429
    assert LOCKED_OUT in response.content.decode()
    assert "Even the right password is refused until then." in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_lockout_page_speaks_french_by_default(client, learner):
    """The lockout page is a full page of the site, in the visitor's language."""
    fail_to_sign_in(client, 5)
    response = client.post(reverse("login"), {"username": "ada", "password": PASSWORD})
    assert response.status_code == 429
    assert '<html lang="fr">' in response.content.decode()


def test_the_lockout_still_holds_just_before_15_minutes(client, learner):
    """Fourteen minutes and 59 seconds after the fifth failure, the right password is still refused."""
    with time_machine.travel(dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC), tick=False) as clock:
        fail_to_sign_in(client, 5)
        clock.shift(dt.timedelta(minutes=14, seconds=59))
        response = sign_in(client)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_lockout_ends_after_15_minutes(client, learner):
    """Fifteen minutes after the fifth failure, the right password signs the learner in."""
    with time_machine.travel(dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC), tick=False) as clock:
        fail_to_sign_in(client, 5)
        clock.shift(dt.timedelta(minutes=15, seconds=1))
        response = sign_in(client)
        assert response.status_code == 302
        assert client.session["_auth_user_id"] == str(learner.pk)


def test_a_successful_sign_in_resets_the_count(client, learner):
    """Four failures, a success, then four more failures: still not locked out."""
    fail_to_sign_in(client, 4)
    assert sign_in(client).status_code == 302
    client.post(reverse("logout"))

    response = fail_to_sign_in(client, 4)
    assert response.status_code == 200
    assert sign_in(client).status_code == 302


def test_the_lockout_is_for_one_username_only(client, learner, other_learner):
    """Locking out "ada" from an address does not lock out "grace" from the same address."""
    fail_to_sign_in(client, 5)
    response = sign_in(client, username="grace")
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(other_learner.pk)


def test_curators_see_and_clear_lockouts_in_admin(client, learner, curator):
    """A curator finds the locked username in admin, deletes the attempt, and the learner is let in."""
    fail_to_sign_in(client, 5)
    attempt = AccessAttempt.objects.get(username="ada")
    curator_client = Client()
    curator_client.force_login(curator)

    listing = curator_client.get(
        reverse("admin:axes_accessattempt_changelist"), {"locked_out": "yes"}
    )
    assert listing.status_code == 200
    assert ">ada<" in listing.content.decode()

    response = curator_client.post(
        reverse("admin:axes_accessattempt_delete", args=[attempt.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not AccessAttempt.objects.exists()
    assert sign_in(client).status_code == 302


def test_axes_reset_clears_every_lockout(client, learner):
    """`manage.py axes_reset` lets a locked-out learner in again."""
    fail_to_sign_in(client, 5)
    output = io.StringIO()
    call_command("axes_reset", stdout=output)
    assert output.getvalue() == "1 attempts removed.\n"
    assert sign_in(client).status_code == 302


def test_behind_a_proxy_lockouts_follow_the_address_the_proxy_reports(client, learner, settings):
    """With X-Real-IP first in the precedence order, each client address counts on its own."""
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_REAL_IP", "REMOTE_ADDR"]
    data = {"username": "ada", "password": "not the password"}
    for address in ["203.0.113.7", "203.0.113.7", "198.51.100.9"]:
        client.post(reverse("login"), data, headers={"x-real-ip": address}, REMOTE_ADDR="10.0.0.2")
    attempts = AccessAttempt.objects.order_by("ip_address")
    assert [(a.ip_address, a.failures_since_start) for a in attempts] == [
        ("198.51.100.9", 1),
        ("203.0.113.7", 2),
    ]


def test_changing_the_usernames_case_does_not_escape_the_lockout(client, learner):
    """Five failures spread over "ada", "ADA" and "Ada" lock the account as five on one username."""
    for username in ("ada", "ADA", "Ada", "aDa", "adA"):
        response = sign_in(client, username, "not the password")
    assert response.status_code == 429
    assert sign_in(client, "ADA").status_code == 429
