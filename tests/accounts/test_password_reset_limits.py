"""Password-reset mails are limited per account and per address, silently for the requester."""

import pytest
from django.core import mail
from django.urls import reverse

from accounts.throttling import RESET_MAILS_PER_ACCOUNT, RESET_REQUESTS_PER_ADDRESS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}


def ask_for_reset(client, email="ada@example.com", address="192.0.2.50", **headers):
    return client.post(
        reverse("password_reset"), {"email": email}, REMOTE_ADDR=address, headers={**EN, **headers}
    )


def test_the_limits_are_three_mails_per_account_and_ten_requests_per_address():
    """The figures docs/security.md states."""
    assert (RESET_MAILS_PER_ACCOUNT, RESET_REQUESTS_PER_ADDRESS) == (3, 10)


def test_an_account_gets_three_mails_then_none_with_the_same_answer(client, learner):
    """From different addresses, the fourth request for one account sends nothing but looks the same."""
    responses = [ask_for_reset(client, address=f"192.0.2.{n}") for n in range(1, 6)]
    assert len(mail.outbox) == 3
    assert {(r.status_code, r["Location"]) for r in responses} == {
        (302, reverse("password_reset_done"))
    }


def test_one_account_over_its_limit_does_not_stop_mails_to_another(client, learner, other_learner):
    """The per-account limit is per account."""
    for n in range(4):
        ask_for_reset(client, address=f"192.0.2.{n}")
    ask_for_reset(client, email=other_learner.email, address="192.0.2.99")
    assert [message.to for message in mail.outbox][-1] == [other_learner.email]
    assert len(mail.outbox) == 4


def test_an_address_gets_ten_requests_then_sends_nothing(client):
    """Eleven accounts asked for from one address: ten mails; the same from another address works."""
    users = [UserFactory(username=f"user{n}", email=f"user{n}@example.com") for n in range(12)]
    for user in users[:11]:
        response = ask_for_reset(client, email=user.email)
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 10
    ask_for_reset(client, email=users[11].email, address="198.51.100.1")
    assert len(mail.outbox) == 11


def test_requests_for_unknown_addresses_count_toward_the_address_limit(client, learner):
    """Probing with made-up e-mails uses up the address's requests too."""
    for n in range(10):
        ask_for_reset(client, email=f"nobody{n}@example.com")
    ask_for_reset(client)
    assert mail.outbox == []


def test_a_forged_x_forwarded_for_does_not_give_a_new_address(client):
    """Without a configured header, rotating X-Forwarded-For still counts on the connecting address."""
    users = [UserFactory(username=f"user{n}", email=f"user{n}@example.com") for n in range(11)]
    for n, user in enumerate(users):
        ask_for_reset(client, email=user.email, x_forwarded_for=f"203.0.113.{n}")
    assert len(mail.outbox) == 10


def test_the_done_page_keeps_the_usual_message(client, learner):
    """Over the limit, the requester reads the usual "if an account uses this address" text."""
    for n in range(3):
        ask_for_reset(client, address=f"192.0.2.{n}")
    response = client.post(
        reverse("password_reset"), {"email": "ada@example.com"}, headers=EN, follow=True
    )
    assert "If an account uses the address you entered" in response.content.decode()
    assert len(mail.outbox) == 3
