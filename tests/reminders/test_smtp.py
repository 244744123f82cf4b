"""The digest leaves over SMTP when the site is configured for it, headers and both parts intact."""

import socketserver
import threading
from datetime import datetime
from email import message_from_bytes, policy
from zoneinfo import ZoneInfo

import pytest
import time_machine

from reminders.models import Digest, DigestSubscription
from tests.factories import UserFactory
from tests.reminders.helpers import run_worker, send_digests

pytestmark = pytest.mark.django_db(transaction=True)


class SMTPHandler(socketserver.StreamRequestHandler):
    """Just enough of RFC 5321 to take messages: each one's DATA goes to server.received."""

    def reply(self, line):
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self):
        self.reply("220 test SMTP")
        while line := self.rfile.readline():
            verb = line.decode().strip().split(" ")[0].upper()
            if verb in {"EHLO", "HELO"}:
                self.reply("250 test")
            elif verb == "DATA":
                self.reply("354 go ahead")
                data = b""
                while (chunk := self.rfile.readline()) != b".\r\n":
                    data += chunk[1:] if chunk.startswith(b"..") else chunk
                self.server.received.append(data)
                self.reply("250 queued")
            elif verb == "QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("250 ok")


@pytest.fixture
def smtp_server(settings):
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), SMTPHandler)
    server.received = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": "127.0.0.1",
                "port": server.server_address[1],
                "use_tls": False,
                "timeout": 5,
            },
        }
    }
    yield server
    server.shutdown()
    server.server_close()


@time_machine.travel(datetime(2026, 1, 19, 9, 0, tzinfo=ZoneInfo("Europe/Paris")), tick=False)
def test_the_digest_is_sent_over_smtp(smtp_server):
    ada = UserFactory(username="ada")
    DigestSubscription.objects.create(user=ada, weekday=0)
    send_digests()
    run_worker()
    [raw] = smtp_server.received
    message = message_from_bytes(raw, policy=policy.default)
    assert message["To"] == ada.email
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message["List-Unsubscribe"].startswith("<http://127.0.0.1:8000/digest/unsubscribe/")
    assert message.get_content_type() == "multipart/alternative"
    assert [part.get_content_type() for part in message.iter_parts()] == ["text/plain", "text/html"]
    assert Digest.objects.get(user=ada).sent_at is not None
