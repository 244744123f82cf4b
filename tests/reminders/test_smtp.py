"""The digest and the nudge leave over SMTP when the site is set up for it, headers intact.

The server is a real one (aiosmtpd) and the tests read the bytes it received: a parser with
`policy.default` would decode an RFC 2047-encoded header again and hide what a mail provider sees.
"""

import re
from datetime import UTC, datetime
from email import message_from_bytes, policy
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client

from reminders.models import Digest, DigestSubscription, Nudge, NudgeSubscription
from tests.factories import ProfileFactory, UserFactory, WatchEventFactory
from tests.reminders.helpers import run_worker, send_digests
from tests.reminders.smtp import mailer_settings, start_smtp_server

pytestmark = pytest.mark.django_db(transaction=True)

MONDAY_MORNING = datetime(2026, 1, 19, 9, 0, tzinfo=ZoneInfo("Europe/Paris"))


@pytest.fixture
def smtp_server(settings):
    controller = start_smtp_server()
    settings.MAILERS = mailer_settings(controller)
    yield controller.handler
    controller.stop()


def header_lines(raw: bytes, name: bytes) -> bytes:
    """The header's lines as they are on the wire, folds included."""
    head = raw.split(b"\r\n\r\n", 1)[0]
    match = re.search(rb"(?im)^" + name + rb":[^\r\n]*(?:\r\n[ \t][^\r\n]*)*", head)
    assert match, f"no {name.decode()} header"
    return match.group(0)


def sent_digest(smtp_server):
    ada = UserFactory(username="ada")
    DigestSubscription.objects.create(user=ada, weekday=0)
    with time_machine.travel(MONDAY_MORNING, tick=False):
        send_digests()
        run_worker()
    [raw] = smtp_server.received
    return ada, raw


def test_the_digest_is_sent_over_smtp(smtp_server):
    """Both parts and the headers arrive, and the digest is marked sent."""
    ada, raw = sent_digest(smtp_server)
    message = message_from_bytes(raw, policy=policy.default)
    assert message["To"] == ada.email
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.get_content_type() == "multipart/alternative"
    assert [part.get_content_type() for part in message.iter_parts()] == ["text/plain", "text/html"]
    assert Digest.objects.get(user=ada).sent_at is not None


def test_list_unsubscribe_is_a_bracketed_url_on_the_wire(smtp_server, settings):
    """RFC 2369/8058 readers find <https://…> in the raw bytes, not an RFC 2047 encoded-word."""
    settings.SITE_URL = "https://parcours.example"
    _ada, raw = sent_digest(smtp_server)
    line = header_lines(raw, b"List-Unsubscribe")
    assert b"=?" not in line
    url = re.fullmatch(rb"List-Unsubscribe: <(https://[^>\s]+)>", line).group(1).decode()
    assert url.startswith("https://parcours.example/digest/unsubscribe/")
    assert len(url) > 78  # long enough that the e-mail package would have encoded it
    assert header_lines(raw, b"List-Unsubscribe-Post") == (
        b"List-Unsubscribe-Post: List-Unsubscribe=One-Click"
    )
    raw_message = message_from_bytes(raw, policy=policy.compat32)
    assert raw_message["List-Unsubscribe"] == f"<{url}>"
    assert url in message_from_bytes(raw, policy=policy.default).get_body(("plain",)).get_content()


def test_the_nudges_one_click_unsubscribe_works_from_the_bytes_received(smtp_server, settings):
    """The nudge's List-Unsubscribe, read from the wire, is a bracketed URL whose one-click POST
    (as a mail client sends it: no cookie, no CSRF token) stops the nudge and leaves the digest."""
    settings.SITE_URL = "https://parcours.example"
    hiro = UserFactory(username="hiro")
    ProfileFactory(user=hiro, time_zone="Asia/Tokyo", language="en")
    NudgeSubscription.objects.create(user=hiro, hour=18)
    DigestSubscription.objects.create(user=hiro, weekday=0)
    WatchEventFactory(user=hiro, minutes=60, at=datetime(2026, 1, 20, 0, 0, tzinfo=UTC))
    with time_machine.travel(
        datetime(2026, 1, 20, 18, 10, tzinfo=ZoneInfo("Asia/Tokyo")), tick=False
    ):
        call_command("send_nudges", verbosity=0)
        run_worker()
    [raw] = smtp_server.received
    line = header_lines(raw, b"List-Unsubscribe")
    assert b"=?" not in line
    url = re.fullmatch(rb"List-Unsubscribe: <(https://[^>\s]+)>", line).group(1).decode()
    assert url.startswith("https://parcours.example/nudge/unsubscribe/")
    assert header_lines(raw, b"List-Unsubscribe-Post") == (
        b"List-Unsubscribe-Post: List-Unsubscribe=One-Click"
    )
    assert Nudge.objects.get(user=hiro).status == Nudge.Status.SENT

    response = Client(enforce_csrf_checks=True).post(
        url.removeprefix(settings.SITE_URL),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert not NudgeSubscription.objects.filter(user=hiro).exists()
    assert DigestSubscription.objects.filter(user=hiro).exists()
