"""`send_nudges` queues the daily nudges whose hour has come, the worker sends them: only when code is
owed and none is logged yet, in the learner's time zone, at most once per learner and day."""

import logging
from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django_tasks_db.models import DBTaskResult

from reminders.models import Nudge, NudgeSubscription
from reminders.tasks import send_nudge
from tests.factories import CodingSessionFactory, ProfileFactory, UserFactory, WatchEventFactory
from tests.reminders.helpers import run_worker, run_workers_at_once

pytestmark = pytest.mark.django_db(transaction=True)

TUESDAY = date(2026, 1, 20)
# One instant of Tuesday 20 January 2026 in both learners' weeks: 09:00 in Tokyo, Monday 19:00 in Toronto.
WATCHED_AT = datetime(2026, 1, 20, 0, 0, tzinfo=UTC)
TOKYO_AT_18 = datetime(2026, 1, 20, 9, 10, tzinfo=UTC)  # 18:10 in Tokyo, 04:10 in Toronto
TORONTO_AT_18 = datetime(
    2026, 1, 20, 23, 10, tzinfo=UTC
)  # 18:10 in Toronto, Wednesday 08:10 in Tokyo


def nudged(username, zone, hour=18, watched=60, language="en"):
    """A learner who asked for the nudge at hour, and watched this week (so code is owed)."""
    user = UserFactory(username=username)
    ProfileFactory(user=user, time_zone=zone, language=language)
    NudgeSubscription.objects.create(user=user, hour=hour)
    if watched:
        WatchEventFactory(user=user, minutes=watched, at=WATCHED_AT)
    return user


def send_nudges(at):
    with time_machine.travel(at, tick=False):
        call_command("send_nudges", verbosity=0)
        run_worker()


def recipients():
    return sorted(address for message in mail.outbox for address in message.to)


def test_each_learner_is_nudged_at_their_hour_in_their_zone():
    """18:10 in Tokyo is 04:10 in Toronto: Tokyo's nudge goes; Toronto's goes 14 hours later."""
    hiro = nudged("hiro", "Asia/Tokyo")
    jean = nudged("jean", "America/Toronto")
    send_nudges(TOKYO_AT_18)
    assert recipients() == [hiro.email]
    send_nudges(TORONTO_AT_18)
    assert recipients() == sorted([hiro.email, jean.email])
    assert sorted(Nudge.objects.values_list("user__username", "day", "status")) == [
        ("hiro", TUESDAY, "sent"),
        ("jean", TUESDAY, "sent"),
    ]


def test_nothing_leaves_before_the_hour_nor_hours_after_it():
    """17:10 is too early; 21:10, three hours late (the timer was off), is too late."""
    nudged("hiro", "Asia/Tokyo")
    send_nudges(TOKYO_AT_18 - timedelta(hours=1))
    send_nudges(TOKYO_AT_18 + timedelta(hours=3))
    assert mail.outbox == []
    assert not Nudge.objects.exists()


def test_a_run_missed_by_the_timer_is_caught_up_within_two_hours():
    hiro = nudged("hiro", "Asia/Tokyo")
    send_nudges(TOKYO_AT_18 + timedelta(hours=2))
    assert recipients() == [hiro.email]


def test_code_logged_today_means_no_nudge():
    """Thirty minutes typed today in Tokyo: nothing to nudge about, and no row kept."""
    hiro = nudged("hiro", "Asia/Tokyo")
    CodingSessionFactory(user=hiro, day=TUESDAY, minutes=5, source="editor")
    send_nudges(TOKYO_AT_18)
    assert mail.outbox == []
    assert not Nudge.objects.exists()


def test_code_logged_between_queueing_and_sending_stops_the_nudge():
    """The worker checks again: code from the CLI after the command ran, no mail; the day is settled."""
    hiro = nudged("hiro", "Asia/Tokyo")
    with time_machine.travel(TOKYO_AT_18, tick=False):
        call_command("send_nudges", verbosity=0)
        CodingSessionFactory(user=hiro, day=TUESDAY, minutes=30)
        run_worker()
        call_command("send_nudges", verbosity=0)
        run_worker()
    assert mail.outbox == []
    assert Nudge.objects.get(user=hiro).status == Nudge.Status.SKIPPED
    assert DBTaskResult.objects.get().return_value == "skipped: code logged today"


def test_nothing_owed_means_no_nudge():
    """Nothing watched this week: the week owes no code, whatever the hour."""
    nudged("hiro", "Asia/Tokyo", watched=0)
    send_nudges(TOKYO_AT_18)
    assert mail.outbox == []
    assert not Nudge.objects.exists()


def test_yesterdays_code_does_not_count_for_today():
    """Code logged on Monday: Tuesday still owes its share, and the mail says the streak is at risk."""
    hiro = nudged("hiro", "Asia/Tokyo")
    CodingSessionFactory(user=hiro, day=TUESDAY - timedelta(days=1), minutes=30)
    send_nudges(TOKYO_AT_18)
    [message] = mail.outbox
    assert "1-day coding streak: code today to keep it." in message.body


def test_running_twice_sends_one_nudge(capsys):
    """The command twice in the hour, then every hour after, and the worker each time: one mail."""
    hiro = nudged("hiro", "Asia/Tokyo")
    with time_machine.travel(TOKYO_AT_18, tick=False):
        call_command("send_nudges")
        call_command("send_nudges")
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Queued 1 nudges; 0 due learners")
    assert out[1].startswith("Queued 0 nudges; 0 due learners")
    for hours in (0, 1, 2):
        send_nudges(TOKYO_AT_18 + timedelta(hours=hours))
    assert recipients() == [hiro.email]
    assert Nudge.objects.get().attempts == 1


def test_the_same_nudge_queued_twice_is_sent_once():
    """Two tasks for one row (two workers, or a task run again): the first claims it, the second skips."""
    hiro = nudged("hiro", "Asia/Tokyo")
    with time_machine.travel(TOKYO_AT_18, tick=False):
        call_command("send_nudges", verbosity=0)
        send_nudge.enqueue(Nudge.objects.get().pk)
        run_worker()
    assert recipients() == [hiro.email]
    assert sorted(DBTaskResult.objects.values_list("return_value", flat=True)) == [
        "sent",
        "skipped: sent already, being sent, or deleted",
    ]


def test_a_nudge_left_being_sent_is_never_sent_again():
    """A worker stopped mid-send leaves the row claimed: the next run neither sends nor queues it."""
    hiro = nudged("hiro", "Asia/Tokyo")
    Nudge.objects.create(user=hiro, day=TUESDAY, status=Nudge.Status.SENDING, attempts=1)
    send_nudges(TOKYO_AT_18)
    assert mail.outbox == []
    assert not DBTaskResult.objects.exists()


def test_the_next_day_has_its_own_nudge():
    hiro = nudged("hiro", "Asia/Tokyo")
    WatchEventFactory(user=hiro, minutes=60, at=WATCHED_AT + timedelta(days=1))
    send_nudges(TOKYO_AT_18)
    send_nudges(TOKYO_AT_18 + timedelta(days=1))
    assert recipients() == [hiro.email, hiro.email]
    assert list(Nudge.objects.order_by("day").values_list("day", flat=True)) == [
        TUESDAY,
        TUESDAY + timedelta(days=1),
    ]


def test_only_subscribers_with_an_address_and_an_active_account_are_nudged():
    hiro = nudged("hiro", "Asia/Tokyo")
    UserFactory(username="ken")  # never asked
    no_address = nudged("ada", "Asia/Tokyo")
    no_address.email = ""
    no_address.save()
    inactive = nudged("grace", "Asia/Tokyo")
    inactive.is_active = False
    inactive.save()
    send_nudges(TOKYO_AT_18)
    assert recipients() == [hiro.email]
    assert list(Nudge.objects.values_list("user__username", flat=True)) == ["hiro"]


def test_unsubscribing_after_it_was_queued_sends_nothing():
    hiro = nudged("hiro", "Asia/Tokyo")
    with time_machine.travel(TOKYO_AT_18, tick=False):
        call_command("send_nudges", verbosity=0)
        NudgeSubscription.objects.filter(user=hiro).delete()
        run_worker()
    assert mail.outbox == []
    assert DBTaskResult.objects.get().return_value == "skipped: unsubscribed"


class TestTheMail:
    def test_it_is_short_and_says_the_days_code_and_where_to_log_it(self, settings):
        settings.SITE_URL = "https://parcours.example"
        hiro = nudged("hiro", "Asia/Tokyo")
        send_nudges(TOKYO_AT_18)
        [message] = mail.outbox
        assert message.subject == "Parcours: 30 min of code today"
        assert message.body.startswith("Hello hiro,\n\n30\xa0min of code today keeps you")
        assert "Nothing is logged yet today." in message.body
        assert "https://parcours.example/#today" in message.body
        unsubscribe = message.extra_headers["List-Unsubscribe"]
        assert unsubscribe.startswith("<https://parcours.example/nudge/unsubscribe/")
        assert unsubscribe[1:-1] in message.body
        assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert "streak" not in message.body  # none to keep yet
        assert len(message.body.splitlines()) <= 10
        assert message.message().get_content_type() == "text/plain"
        assert Nudge.objects.get(user=hiro).sent_at == TOKYO_AT_18

    def test_it_is_written_in_the_learners_language(self):
        nudged("jean", "America/Toronto", language="fr")
        send_nudges(TORONTO_AT_18)
        [message] = mail.outbox
        assert message.subject == "Parcours : 30 min de code aujourd’hui"
        assert message.body.startswith("Bonjour jean,")
        assert "Rien n’est encore enregistré aujourd’hui." in message.body


class TestRetries:
    @pytest.fixture
    def broken_smtp(self, settings):
        settings.MAILERS = {"default": {"BACKEND": "tests.reminders.mailers.BrokenBackend"}}
        return settings

    def test_a_failed_send_is_retried_in_five_minutes(self, broken_smtp, caplog):
        hiro = nudged("hiro", "Asia/Tokyo")
        with caplog.at_level(logging.WARNING):
            send_nudges(TOKYO_AT_18)
        nudge = Nudge.objects.get(user=hiro)
        assert (nudge.status, nudge.attempts) == (Nudge.Status.QUEUED, 1)
        assert "SMTPServerDisconnected" in nudge.last_error
        assert any(
            "Nudge" in r.getMessage() and "attempt 1" in r.getMessage() for r in caplog.records
        )
        retry = DBTaskResult.objects.get(status="READY")
        assert retry.run_after == TOKYO_AT_18 + timedelta(minutes=5)
        broken_smtp.MAILERS = {
            "default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
        }
        send_nudges(TOKYO_AT_18 + timedelta(minutes=6))
        assert recipients() == [hiro.email]
        nudge.refresh_from_db()
        assert (nudge.status, nudge.attempts, nudge.last_error) == (Nudge.Status.SENT, 2, "")

    def test_a_retry_after_midnight_sends_nothing(self, broken_smtp):
        """Failed at 23:10 in Tokyo, retried at 23:15... then the day is over: no stale nudge."""
        hiro = nudged("hiro", "Asia/Tokyo", hour=23)
        late = datetime(2026, 1, 20, 14, 10, tzinfo=UTC)  # 23:10 in Tokyo
        send_nudges(late)
        broken_smtp.MAILERS = {
            "default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
        }
        send_nudges(late + timedelta(minutes=55))  # 00:05 on Wednesday in Tokyo
        assert mail.outbox == []
        assert Nudge.objects.get(user=hiro).status == Nudge.Status.SKIPPED

    def test_after_four_failures_it_gives_up_and_says_so(self, broken_smtp, caplog):
        """Tries at 18:10, 18:15, 18:45 and 20:45: then the row says failed, and nothing is queued."""
        hiro = nudged("hiro", "Asia/Tokyo")
        with caplog.at_level(logging.ERROR):
            for minutes in (0, 6, 40, 160, 300):
                send_nudges(TOKYO_AT_18 + timedelta(minutes=minutes))
        nudge = Nudge.objects.get(user=hiro)
        assert (nudge.status, nudge.attempts, nudge.sent_at) == (Nudge.Status.FAILED, 4, None)
        assert any("giving up" in record.getMessage() for record in caplog.records)
        assert not DBTaskResult.objects.filter(status="READY").exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent workers need PostgreSQL")
def test_two_workers_at_once_send_one_nudge(settings):
    """Two db_worker threads, the nudge queued twice, a slow SMTP server: one mail leaves."""
    settings.MAILERS = {"default": {"BACKEND": "tests.reminders.mailers.SlowBackend"}}
    hiro = nudged("hiro", "Asia/Tokyo")
    with time_machine.travel(TOKYO_AT_18, tick=True):
        call_command("send_nudges", verbosity=0)
        send_nudge.enqueue(Nudge.objects.get(user=hiro).pk)
        errors = run_workers_at_once(2)
    assert errors == []
    assert recipients() == [hiro.email]
    results = DBTaskResult.objects.values_list("worker_ids", "return_value")
    assert len({ids[0] for ids, _value in results}) == 2, "each worker ran one of the two tasks"
    assert sorted(value for _ids, value in results) == [
        "sent",
        "skipped: sent already, being sent, or deleted",
    ]
    assert Nudge.objects.get(user=hiro).attempts == 1


@pytest.mark.parametrize("due", [1, 3])
def test_the_command_reads_in_seven_queries_then_a_fixed_number_per_learner_due(
    due, django_assert_num_queries
):
    """Five for lost tasks (reminders/recovery.py: BEGIN, close, pending, orphans, COMMIT), two
    for subscribers and their zones and the nudges of their day; then nine per learner due: the
    week's watching, the days coded, and in one transaction the row (get_or_create: select,
    savepoint, insert, release) and its task."""
    for number in range(due):
        nudged(f"learner{number}", "Asia/Tokyo")
    for number in range(4):
        nudged(f"later{number}", "America/Toronto")  # not their hour: no query of theirs
    with time_machine.travel(TOKYO_AT_18, tick=False), django_assert_num_queries(7 + 9 * due):
        call_command("send_nudges", verbosity=0)
    assert Nudge.objects.count() == due
