"""Mail backends for the digest's failure and concurrency tests."""

import smtplib
import time

from django.core.mail.backends.locmem import EmailBackend as LocmemBackend


class BrokenBackend(LocmemBackend):
    """An SMTP server that refuses every message."""

    def send_messages(self, messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


class SlowBackend(LocmemBackend):
    """A slow SMTP server: time enough for a second worker to try the same digest."""

    def send_messages(self, messages):
        time.sleep(0.5)
        return super().send_messages(messages)
