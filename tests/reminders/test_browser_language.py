"""With "the language of my browser" (the default), what is sent outside the browser (nudges,
digests, the editor's status bar) is in the language the learner's browser asks for: kept on the
profile at sign-up and on each visit while the setting is the browser's (issue 40, point 5)."""

from datetime import UTC, datetime
from email import message_from_bytes, policy
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from progress.models import Profile
from reminders.models import DigestSubscription, NudgeSubscription
from tests.factories import ProfileFactory, UserFactory, WatchEventFactory
from tests.reminders.helpers import run_worker
from tests.reminders.smtp import mailer_settings, start_smtp_server

pytestmark = pytest.mark.django_db(transaction=True)

EN = {"accept-language": "en-GB,en;q=0.9"}
MONDAY_MORNING = datetime(2026, 1, 19, 9, 0, tzinfo=ZoneInfo("Europe/Paris"))
TUESDAY_AT_18 = datetime(2026, 1, 20, 18, 10, tzinfo=ZoneInfo("Europe/Paris"))


def sign_up_in_english(username="emma"):
    """A learner signed up from an English browser, leaving the language to it."""
    client = Client()
    response = client.post(
        reverse("signup"),
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
            "time_zone": "Europe/Paris",
        },
        headers=EN,
    )
    assert response.status_code == 302
    return client, Profile.objects.get(user__username=username)


def send_nudge_and_digest(user):
    NudgeSubscription.objects.create(user=user, hour=18)
    DigestSubscription.objects.create(user=user, weekday=0)
    WatchEventFactory(user=user, minutes=60, at=datetime(2026, 1, 20, 8, 0, tzinfo=UTC))
    with time_machine.travel(MONDAY_MORNING, tick=False):
        call_command("send_digests", verbosity=0)
        run_worker()
    with time_machine.travel(TUESDAY_AT_18, tick=False):
        call_command("send_nudges", verbosity=0)
        run_worker()


def test_sign_up_keeps_the_browsers_language_and_leaves_the_choice_to_the_browser():
    """The profile's language stays "the browser's"; the browser's is kept beside it."""
    _client, profile = sign_up_in_english()

    assert (profile.language, profile.browser_language) == ("", "en")


def test_an_english_learners_nudge_and_digest_are_in_english():
    """Both e-mails, read from Django's outbox, speak English."""
    _client, profile = sign_up_in_english()

    send_nudge_and_digest(profile.user)

    subjects = sorted(message.subject for message in mail.outbox)
    assert subjects == ["Parcours: 30 min of code today", "Parcours: your first days"]
    assert all("Bonjour" not in message.body for message in mail.outbox)


def test_the_bytes_on_the_wire_carry_the_english_subject_and_body(settings):
    """Through a real SMTP server (aiosmtpd): the raw messages are English."""
    controller = start_smtp_server()
    settings.MAILERS = mailer_settings(controller)
    try:
        _client, profile = sign_up_in_english()
        send_nudge_and_digest(profile.user)
        received = list(controller.handler.received)
    finally:
        controller.stop()

    messages = [message_from_bytes(raw, policy=policy.default) for raw in received]
    assert sorted(str(message["Subject"]) for message in messages) == [
        "Parcours: 30 min of code today",
        "Parcours: your first days",
    ]
    assert all(b"Subject: Parcours: " in raw for raw in received)
    for message in messages:
        body = message.get_body(("plain",)).get_content()
        assert "Unsubscribe" in body or "unsubscribe" in body
        assert "désinscri" not in body.lower()


def test_signing_in_from_a_french_browser_keeps_french_while_the_setting_is_the_browsers():
    """The learner signs in again from a French browser: the next e-mail is in French."""
    client, profile = sign_up_in_english()
    client.logout()

    client.post(
        reverse("login"),
        {"username": "emma", "password": "a long enough passphrase"},
        headers={"accept-language": "fr"},
    )

    assert Profile.objects.get(pk=profile.pk).browser_language == "fr"


def test_a_session_from_before_notes_the_language_on_its_first_visit(django_assert_num_queries):
    """A session signed in before the language was noted there notes it once, then no more."""
    client, profile = sign_up_in_english()
    Profile.objects.filter(pk=profile.pk).update(browser_language="")
    session = client.session
    del session["browser_language"]
    session.save()

    client.get(reverse("accounts:settings"), headers=EN)
    assert Profile.objects.get(pk=profile.pk).browser_language == "en"
    with django_assert_num_queries(3):  # the session, the user, the page's own statement
        client.get(reverse("accounts:settings"), headers=EN)


def test_a_language_chosen_in_settings_wins_over_the_browsers():
    """A learner who chose French gets French mail whatever their browser asks for."""
    user = UserFactory(username="zoe")
    ProfileFactory(user=user, language="fr", browser_language="en")
    client = Client()
    client.force_login(user)
    client.get(reverse("progress:home"), headers=EN)

    send_nudge_and_digest(user)

    assert Profile.objects.get(user=user).browser_language == "en"
    assert sorted(message.subject for message in mail.outbox)[0].startswith("Parcours : ")
