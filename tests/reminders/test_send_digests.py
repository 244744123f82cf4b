"""`send_digests` queues due digests, the worker sends them: once per learner and week, retried on failure."""

import logging
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django_tasks_db.models import DBTaskResult

from progress.models import Profile
from reminders.models import Digest, DigestSubscription
from tests.factories import UserFactory
from tests.reminders.helpers import run_worker, run_workers_at_once, send_digests

PARIS = ZoneInfo("Europe/Paris")
MONDAY_MORNING = datetime(2026, 1, 19, 9, 0, tzinfo=PARIS)


def subscriber(username, weekday=0, zone="", email=None):
    user = UserFactory(username=username, **({"email": email} if email is not None else {}))
    Profile.objects.for_learner(user)
    Profile.objects.filter(user=user).update(time_zone=zone, language="en")
    DigestSubscription.objects.create(user=user, weekday=weekday)
    return user


def recipients():
    return sorted(address for message in mail.outbox for address in message.to)


@pytest.mark.django_db(transaction=True)
class TestWhoGetsOne:
    @time_machine.travel(MONDAY_MORNING, tick=False)
    def test_every_subscriber_due_gets_one_and_no_one_else(self):
        """Monday subscribers get theirs; a Friday subscriber and a learner who never asked get none."""
        ada = subscriber("ada")
        grace = subscriber("grace")
        subscriber("linus", weekday=4)
        UserFactory(username="ken")
        call_command("send_digests")
        assert recipients() == []  # queued, not sent: the worker sends
        run_worker()
        assert recipients() == sorted([ada.email, grace.email])
        assert Digest.objects.filter(sent_at__isnull=False).count() == 2

    @time_machine.travel(datetime(2026, 1, 19, 7, 59, tzinfo=PARIS), tick=False)
    def test_nothing_leaves_before_the_digest_hour(self):
        subscriber("ada")
        send_digests()
        run_worker()
        assert mail.outbox == []
        assert not Digest.objects.exists()

    @time_machine.travel(datetime(2026, 1, 18, 23, 30, tzinfo=ZoneInfo("UTC")), tick=False)
    def test_the_weekday_and_hour_are_the_learners(self):
        """Sunday 23:30 UTC is Monday 08:30 in Tokyo (due) and Monday 00:30 in Paris (not yet)."""
        tokyo = subscriber("hiro", zone="Asia/Tokyo")
        subscriber("ada", zone="Europe/Paris")
        montreal = subscriber("jean", weekday=6, zone="America/Montreal")  # Sunday 18:30 there
        send_digests()
        run_worker()
        assert recipients() == sorted([tokyo.email, montreal.email])
        assert Digest.objects.get(user=tokyo).week == date(2026, 1, 19)
        assert Digest.objects.get(user=montreal).week == date(2026, 1, 12)

    @time_machine.travel(MONDAY_MORNING, tick=False)
    def test_learners_without_an_address_or_inactive_are_skipped(self):
        subscriber("ada", email="")
        inactive = subscriber("grace")
        inactive.is_active = False
        inactive.save()
        send_digests()
        run_worker()
        assert mail.outbox == []

    @time_machine.travel(MONDAY_MORNING, tick=False)
    def test_unsubscribing_after_it_was_queued_sends_nothing(self):
        ada = subscriber("ada")
        send_digests()
        DigestSubscription.objects.filter(user=ada).delete()
        run_worker()
        assert mail.outbox == []
        assert Digest.objects.get(user=ada).sent_at is None


@pytest.mark.django_db(transaction=True)
class TestOncePerWeek:
    def test_hourly_runs_send_one_digest_a_week(self):
        """The command every hour of Monday and the worker after each: one mail; next Monday, one more."""
        ada = subscriber("ada")
        for hour in range(8, 24):
            with time_machine.travel(MONDAY_MORNING.replace(hour=hour), tick=False):
                send_digests()
                run_worker()
        assert recipients() == [ada.email]
        with time_machine.travel(MONDAY_MORNING + timedelta(weeks=1), tick=False):
            send_digests()
            run_worker()
        assert recipients() == [ada.email, ada.email]
        assert list(Digest.objects.values_list("week", flat=True).order_by("week")) == [
            date(2026, 1, 19),
            date(2026, 1, 26),
        ]

    @time_machine.travel(MONDAY_MORNING, tick=False)
    def test_a_second_run_of_the_command_queues_nothing(self, capsys):
        subscriber("ada")
        call_command("send_digests")
        call_command("send_digests")
        out = capsys.readouterr().out.splitlines()
        assert out == [
            "Queued 1 digests; 0 already queued or sent this week;"
            " 0 queued again after their worker stopped mid-send.",
            "Queued 0 digests; 1 already queued or sent this week;"
            " 0 queued again after their worker stopped mid-send.",
        ]
        assert DBTaskResult.objects.count() == 1

    @time_machine.travel(MONDAY_MORNING, tick=False)
    def test_the_same_digest_queued_twice_is_sent_once(self):
        """A task run twice (queued twice, or retried after it sent) finds the row sent."""
        from reminders.tasks import send_digest

        ada = subscriber("ada")
        send_digests()
        send_digest.enqueue(Digest.objects.get(user=ada).pk)
        run_worker()
        assert recipients() == [ada.email]
        assert sorted(DBTaskResult.objects.values_list("return_value", flat=True)) == [
            "sent",
            "skipped: sent already, being sent, or deleted",
        ]


@pytest.mark.django_db(transaction=True)
class TestRetries:
    @pytest.fixture
    def broken_smtp(self, settings):
        settings.MAILERS = {"default": {"BACKEND": "tests.reminders.mailers.BrokenBackend"}}
        return settings

    def test_a_failed_send_is_logged_and_retried_later(self, broken_smtp, caplog):
        """The send fails: logged, attempt counted, another try queued 5 minutes on; it then succeeds."""
        ada = subscriber("ada")
        with time_machine.travel(MONDAY_MORNING, tick=False), caplog.at_level(logging.WARNING):
            send_digests()
            run_worker()
        digest = Digest.objects.get(user=ada)
        assert (digest.sent_at, digest.attempts) == (None, 1)
        assert "SMTPServerDisconnected" in digest.last_error
        assert any("not sent (attempt 1" in record.getMessage() for record in caplog.records)
        assert any(
            record.name == "django.tasks" and record.levelno == logging.ERROR
            for record in caplog.records
        )
        retry = DBTaskResult.objects.get(status="READY")
        assert retry.run_after == MONDAY_MORNING + timedelta(minutes=5)

        broken_smtp.MAILERS = {
            "default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
        }
        with time_machine.travel(MONDAY_MORNING + timedelta(minutes=4), tick=False):
            run_worker()  # too early for the retry
        assert mail.outbox == []
        with time_machine.travel(MONDAY_MORNING + timedelta(minutes=6), tick=False):
            run_worker()
        assert recipients() == [ada.email]
        digest.refresh_from_db()
        assert digest.attempts == 2 and digest.sent_at is not None and digest.last_error == ""

    def test_after_four_failures_it_gives_up_and_says_so(self, broken_smtp, caplog):
        ada = subscriber("ada")
        with caplog.at_level(logging.ERROR):
            for minutes in (0, 6, 40, 200, 1000):
                with time_machine.travel(MONDAY_MORNING + timedelta(minutes=minutes), tick=False):
                    send_digests()
                    run_worker()
        digest = Digest.objects.get(user=ada)
        assert digest.attempts == 4 and digest.sent_at is None
        assert any("giving up" in record.getMessage() for record in caplog.records)
        assert not DBTaskResult.objects.filter(status="READY").exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_send_one_digest(settings):
    """Two db_worker threads, the digest queued twice, a slow SMTP server: one mail leaves."""
    from reminders.tasks import send_digest

    settings.MAILERS = {"default": {"BACKEND": "tests.reminders.mailers.SlowBackend"}}
    ada = subscriber("ada")
    with time_machine.travel(MONDAY_MORNING, tick=True):
        send_digests()
        send_digest.enqueue(Digest.objects.get(user=ada).pk)
        errors = run_workers_at_once(2)
    assert errors == []
    assert recipients() == [ada.email]
    results = DBTaskResult.objects.values_list("worker_ids", "return_value")
    assert len({ids[0] for ids, _value in results}) == 2, "each worker ran one of the two tasks"
    assert sorted(value for _ids, value in results) == [
        "sent",
        "skipped: sent already, being sent, or deleted",
    ]
    assert Digest.objects.get(user=ada).attempts == 1
