"""Guessing across usernames from one address is throttled, cheaply, with a clear page."""

import datetime as dt
from unittest import mock

import pytest
import time_machine
from axes.models import AccessAttempt
from django.contrib.auth.hashers import MD5PasswordHasher
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
ATTACKER = "203.0.113.66"
START = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
USERNAMES = [f"user{n}" for n in range(12)]


def attempt(client, username, password="guess", address=ATTACKER, **headers):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        headers={**EN, **headers},
    )


def guess_round_robin(client, count, **headers):
    """count wrong passwords spread over 12 usernames, at most 4 each: no pair ever reaches 5."""
    return [attempt(client, USERNAMES[n % 12], **headers).status_code for n in range(count)]


def hashing_calls(action):
    """How many times a password is hashed or checked while action() runs."""
    with (
        mock.patch.object(
            MD5PasswordHasher, "encode", autospec=True, side_effect=MD5PasswordHasher.encode
        ) as encode,
        mock.patch.object(
            MD5PasswordHasher, "verify", autospec=True, side_effect=MD5PasswordHasher.verify
        ) as verify,
    ):
        action()
    return encode.call_count + verify.call_count


def test_48_guesses_over_12_usernames_are_refused_from_the_20th(client):
    """The red team's run: 19 ordinary errors, then 429 for the rest."""
    statuses = guess_round_robin(client, 48)
    assert statuses == [200] * 19 + [429] * 29


def test_the_address_lockout_refuses_a_real_learner_even_with_the_right_password(client, learner):
    """Once the address is locked, nobody signs in from it, and the page says why."""
    guess_round_robin(client, 20)
    response = attempt(client, "ada", PASSWORD)
    html = response.content.decode()
    assert response.status_code == 429
    assert "Too many failed sign-ins came from your address, for several accounts" in html
    assert "Try again in 15 minutes." in html
    assert "_auth_user_id" not in client.session


def test_other_addresses_are_not_locked(client, learner):
    """The learner signs in from their own address meanwhile."""
    guess_round_robin(client, 25)
    assert attempt(client, "ada", PASSWORD, address="198.51.100.20").status_code == 302


def test_the_address_lockout_ends_after_15_minutes(client, learner):
    """A quarter of an hour after the last refused attempt, the address may try again."""
    with time_machine.travel(START, tick=False) as clock:
        guess_round_robin(client, 20)
        clock.shift(dt.timedelta(minutes=15, seconds=1))
        assert attempt(client, "ada", PASSWORD).status_code == 302


def test_nineteen_failures_leave_the_address_open(client, learner):
    """Below the address limit, the right password still works from that address."""
    guess_round_robin(client, 19)
    assert attempt(client, "ada", PASSWORD).status_code == 302


def test_a_refused_attempt_hashes_no_password(client, learner):
    """Locked out, an attempt costs no hashing at all; a counted failure elsewhere does hash."""
    guess_round_robin(client, 20)
    assert hashing_calls(lambda: attempt(client, "ada", PASSWORD)) == 0
    assert hashing_calls(lambda: attempt(client, "ada", "wrong", address="198.51.100.20")) >= 1
    assert (
        hashing_calls(lambda: attempt(client, "nobody-at-all", "x", address="198.51.100.21")) >= 1
    )


def test_a_forged_x_forwarded_for_is_ignored_by_default(client):
    """Without a configured header, a new X-Forwarded-For per attempt does not give a new address."""
    statuses = [
        attempt(client, USERNAMES[n % 12], x_forwarded_for=f"192.0.2.{n}").status_code
        for n in range(20)
    ]
    assert statuses[-1] == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {ATTACKER}


def test_a_configured_header_gives_the_client_address(client, settings):
    """Behind a proxy that sets X-Real-IP (and is configured so), each client counts on its own."""
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_REAL_IP", "REMOTE_ADDR"]
    guess_round_robin(client, 20, x_real_ip="192.0.2.1")
    assert guess_round_robin(client, 1, x_real_ip="192.0.2.2") == [200]
    assert guess_round_robin(client, 1, x_real_ip="192.0.2.1") == [429]
    assert guess_round_robin(client, 1, x_forwarded_for="192.0.2.9") == [200]
