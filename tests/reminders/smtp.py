"""A real SMTP server for the digest's tests (aiosmtpd), keeping each message's bytes as received."""

import asyncio
import socket
import threading

from aiosmtpd.controller import Controller


class Mailbox:
    """An aiosmtpd handler: each message's DATA, byte for byte, in `received`; the addresses in
    `refused` are refused at RCPT, as a server does for a mailbox that does not exist.

    While `held` is set, the server takes a message's DATA and does not answer until it is
    cleared: the sender is then in the middle of a send, as when a worker dies mid-send.
    """

    def __init__(self):
        self.received: list[bytes] = []
        self.held = threading.Event()
        self.holding = threading.Event()  # set while a message is held
        self.refused: set[str] = set()  # recipients answered "550 mailbox unavailable"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refused:
            return f"550 5.1.1 <{address}>: mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.held.is_set():
            self.holding.set()
            while self.held.is_set():
                await asyncio.sleep(0.05)
            return "451 Requested action aborted: try again later"
        self.received.append(envelope.original_content)
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_smtp_server() -> Controller:
    """An SMTP server on a free local port, in its own thread; stop it with .stop()."""
    controller = Controller(Mailbox(), hostname="127.0.0.1", port=free_port())
    controller.start()
    return controller


def mailer_settings(controller: Controller, timeout: int = 5) -> dict:
    """The MAILERS setting that sends through this server."""
    return {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": "127.0.0.1",
                "port": controller.port,
                "use_tls": False,
                "timeout": timeout,
            },
        }
    }
