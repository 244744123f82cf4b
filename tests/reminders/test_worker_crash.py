"""A worker killed mid-send (SIGKILL) loses no digest: the next hourly run queues it again.

The worker is a real `manage.py db_worker` process sending over SMTP to a real server (aiosmtpd)
that holds the message without answering; the test kills the worker there. Its task stays
RUNNING (django-tasks-db recovers nothing) and its transaction dies with it, so the digest is
still unsent: `send_digests` leaves it while the task is younger than LOST_AFTER, then marks the
task failed and queues the digest again, and the next worker delivers it once.
"""

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta

import pytest
import time_machine
from django.db import connection, transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from progress.models import Profile
from reminders.models import Digest, DigestSubscription
from reminders.recovery import LOST_AFTER
from tests.config.helpers import PROJECT_DIR
from tests.config.test_app_servers import database_url_of_this_test
from tests.factories import UserFactory
from tests.reminders.helpers import run_worker, send_digests
from tests.reminders.smtp import mailer_settings, start_smtp_server

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="The worker is another process on the test database: this needs PostgreSQL.",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def smtp_server(settings):
    controller = start_smtp_server()
    settings.MAILERS = mailer_settings(controller)
    yield controller
    controller.handler.held.clear()
    controller.stop()


@pytest.fixture
def ada(settings):
    """Ada, subscribed for today (UTC, any hour): her digest is due now."""
    settings.DIGEST_HOUR = 0
    ada = UserFactory(username="ada")
    Profile.objects.for_learner(ada)
    Profile.objects.filter(user=ada).update(time_zone="UTC", language="en")
    DigestSubscription.objects.create(user=ada, weekday=timezone.now().weekday())
    return ada


def start_worker(smtp_port):
    """`manage.py db_worker` in its own process, on the test database, sending over SMTP."""
    environment = {
        "PATH": os.environ.get("PATH", ""),
        **{name: value for name, value in os.environ.items() if name.startswith("COVERAGE")},
        "DEBUG": "0",
        "HTTPS": "0",
        "SECRET_KEY": "a-worker-of-the-crash-test-" + "x" * 30,
        "DATABASE_URL": database_url_of_this_test(),
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_port),
        "EMAIL_USE_TLS": "0",
        "SITE_URL": "https://parcours.example",
    }
    command = ["manage.py", "db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.1"]
    return subprocess.Popen(
        [sys.executable, *command],
        cwd=PROJECT_DIR,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def kill_mid_send(worker, smtp_server):
    """Wait until the server holds the worker's message, then SIGKILL the worker."""
    try:
        held = smtp_server.handler.holding.wait(timeout=90)
        assert held, worker.stderr.read().decode()[-2000:] if worker.poll() is not None else ""
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
    smtp_server.handler.held.clear()  # the server answers 451 to a sender that is gone


def wait_until_unlocked(digest, timeout=10):
    """PostgreSQL ends the dead worker's session, and its row lock, once it sees the socket close."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with transaction.atomic():
            if Digest.objects.select_for_update(skip_locked=True).filter(pk=digest.pk).exists():
                return
        time.sleep(0.05)
    raise AssertionError("the killed worker's lock was never released")


def test_a_digest_whose_worker_was_killed_mid_send_is_delivered_once_after_recovery(
    smtp_server, ada, capsys
):
    """Killed while the SMTP server holds the message: left alone while the task could still be
    alive, then queued again by the hourly run; the next worker delivers exactly one mail."""
    smtp_server.handler.held.set()
    send_digests()
    digest = Digest.objects.get(user=ada)
    kill_mid_send(start_worker(smtp_server.port), smtp_server)
    wait_until_unlocked(digest)

    lost = DBTaskResult.objects.get()
    assert lost.status == "RUNNING"
    digest.refresh_from_db()
    assert (digest.sent_at, digest.attempts) == (None, 0)

    capsys.readouterr()
    send_digests()  # minutes later: the task may still be alive, so nothing is queued
    run_worker()
    assert smtp_server.handler.received == []
    assert DBTaskResult.objects.get().status == "RUNNING"

    with time_machine.travel(lost.started_at + LOST_AFTER + timedelta(minutes=5), tick=True):
        send_digests()
        run_worker()

    [raw] = smtp_server.handler.received
    assert f"To: {ada.email}".encode() in raw
    digest.refresh_from_db()
    assert digest.sent_at is not None and digest.attempts == 1
    lost.refresh_from_db()
    assert (lost.status, lost.exception_class_path) == ("FAILED", "reminders.recovery.LostWorker")
    again = DBTaskResult.objects.exclude(pk=lost.pk).get()
    assert (again.status, again.return_value) == ("SUCCESSFUL", "sent")


def test_a_digest_killed_mid_send_is_not_queued_again_once_the_learner_unsubscribed(
    smtp_server, ada
):
    """Recovery sends only what is still wanted: unsubscribed meanwhile, nothing leaves."""
    smtp_server.handler.held.set()
    send_digests()
    digest = Digest.objects.get(user=ada)
    kill_mid_send(start_worker(smtp_server.port), smtp_server)
    wait_until_unlocked(digest)
    DigestSubscription.objects.filter(user=ada).delete()

    later = DBTaskResult.objects.get().started_at + LOST_AFTER + timedelta(minutes=5)
    with time_machine.travel(later, tick=True):
        send_digests()
        run_worker()

    assert smtp_server.handler.received == []
    assert list(DBTaskResult.objects.values_list("status", flat=True)) == ["FAILED"]
