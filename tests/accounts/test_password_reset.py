import io
import re

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}
NEW_PASSWORD = "a new and longer passphrase"
INVALID_LINK = "This link is invalid or expired"


def ask_for_reset(client, email="ada@example.com"):
    return client.post(reverse("password_reset"), {"email": email}, headers=EN)


def reset_link(message):
    return re.search(r"http://testserver(/accounts/reset/\S+/\S+/)", message.body).group(1)


def set_new_password(client, link, password=NEW_PASSWORD):
    """Follow the e-mailed link, then post the new password twice to where it leads."""
    form_page = client.get(link, headers=EN, follow=True)
    url = form_page.redirect_chain[-1][0] if form_page.redirect_chain else link
    data = {"new_password1": password, "new_password2": password}
    return client.post(url, data, headers=EN)


def test_the_page_shows_its_form_without_queries(client, django_assert_num_queries):
    """The reset page asks for an e-mail address, touching no table."""
    with django_assert_num_queries(0):
        response = client.get(reverse("password_reset"), headers=EN)
    assert response.status_code == 200
    assert 'name="email"' in response.content.decode()


def test_asking_for_a_reset_emails_a_link_to_the_account(client, learner):
    """The account's address, typed in any case, receives one message with a reset link."""
    response = ask_for_reset(client, email="ADA@example.com")
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ada@example.com"]
    assert message.subject == "Reset your Parcours password"
    assert "Hello ada," in message.body
    assert reset_link(message).startswith("/accounts/reset/")


def test_an_unknown_address_sends_nothing_and_reveals_nothing(client, learner):
    """An address with no account gets the same answer and no message."""
    response = ask_for_reset(client, email="nobody@example.com")
    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []


def test_the_emailed_link_sets_a_new_password(client, learner):
    """Following the link and choosing a password replaces the old one."""
    ask_for_reset(client)
    response = set_new_password(client, reset_link(mail.outbox[0]))
    assert response.status_code == 302
    assert response.url == reverse("password_reset_complete")
    learner.refresh_from_db()
    assert learner.check_password(NEW_PASSWORD)


def test_a_link_used_twice_is_invalid_and_changes_nothing(client, learner):
    """Once used, the link shows the invalid-link page and the password stays as set."""
    ask_for_reset(client)
    link = reset_link(mail.outbox[0])
    set_new_password(client, link)

    response = client.get(link, headers=EN)
    assert response.status_code == 200
    assert INVALID_LINK in response.content.decode()
    assert 'name="new_password1"' not in response.content.decode()
    learner.refresh_from_db()
    assert learner.check_password(NEW_PASSWORD)


def test_a_tampered_token_is_invalid_and_changes_nothing(client, learner):
    """A link whose token was altered shows the invalid-link page and changes nothing."""
    ask_for_reset(client)
    uid, token = reset_link(mail.outbox[0]).strip("/").split("/")[-2:]
    tampered = reverse("password_reset_confirm", args=[uid, token[:-1] + "x"])

    response = client.get(tampered, headers=EN)
    assert INVALID_LINK in response.content.decode()
    response = client.post(tampered, {"new_password1": "x" * 20, "new_password2": "x" * 20})
    assert response.status_code == 200
    learner.refresh_from_db()
    assert learner.check_password(PASSWORD)


def test_a_tampered_user_id_is_invalid(client, learner):
    """A link naming no user shows the invalid-link page."""
    ask_for_reset(client)
    token = reset_link(mail.outbox[0]).strip("/").split("/")[-1]
    response = client.get(reverse("password_reset_confirm", args=["zzz", token]), headers=EN)
    assert INVALID_LINK in response.content.decode()


def test_a_weak_new_password_is_refused(client, learner):
    """Django's validators apply on the reset form too; the old password stays."""
    ask_for_reset(client)
    response = set_new_password(client, reset_link(mail.outbox[0]), password="12345678")
    assert response.status_code == 200
    assert "This password is too common." in response.content.decode()
    learner.refresh_from_db()
    assert learner.check_password(PASSWORD)


def test_an_empty_or_non_ascii_address_gets_a_clear_error(client, learner):
    """An empty address is required; accents before the @ are not a valid address."""
    response = ask_for_reset(client, email="")
    assert "This field is required." in response.content.decode()
    response = ask_for_reset(client, email="élève@example.com")
    assert "Enter a valid email address." in response.content.decode()
    assert mail.outbox == []


def test_the_done_and_complete_pages_load_without_queries(client, django_assert_num_queries):
    """The "check your e-mail" and "password reset" pages touch no table."""
    with django_assert_num_queries(0):
        done = client.get(reverse("password_reset_done"), headers=EN)
        complete = client.get(reverse("password_reset_complete"), headers=EN)
    assert "Check your e-mail" in done.content.decode()
    assert "Your new password is set." in complete.content.decode()


def test_the_new_password_form_loads_in_fixed_queries(client, learner, django_assert_num_queries):
    """Behind a valid link, the form costs the user and the session, whatever the data."""
    ask_for_reset(client)
    link = client.get(reset_link(mail.outbox[0]))
    with django_assert_num_queries(2):
        response = client.get(link.url, headers=EN)
    assert 'name="new_password1"' in response.content.decode()


def test_the_console_prints_the_link_on_one_line_as_sent(client, learner):
    """Without an SMTP server the mail is printed decoded: the French text and the whole link."""
    stream = io.StringIO()
    console = {
        "default": {"BACKEND": "config.console_mail.EmailBackend", "OPTIONS": {"stream": stream}}
    }
    with override_settings(MAILERS=console):
        client.post(reverse("password_reset"), {"email": "ada@example.com"})
    printed = stream.getvalue()
    link = re.search(r"http://testserver/accounts/reset/\S+/\S+/", printed).group(0)
    assert f"\n{link}\n" in printed
    assert 'name="new_password1"' in client.get(link, follow=True).content.decode()
    assert "Bonjour ada," in printed
    assert "=3D" not in printed and "=\n" not in printed
    assert "Subject: " in printed and "To: ada@example.com" in printed
