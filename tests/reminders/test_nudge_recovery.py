"""`send_nudges` closes nudge tasks left RUNNING by a dead worker and queues again only the nudges
that were never claimed: a claimed one may have left, and a nudge goes at most once.

As in test_recovery.py, a task row put back to RUNNING stands for a worker killed at that moment.
"""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from reminders.models import Nudge, NudgeSubscription
from reminders.recovery import LOST_AFTER
from tests.factories import ProfileFactory, UserFactory, WatchEventFactory
from tests.reminders.helpers import run_worker

pytestmark = pytest.mark.django_db(transaction=True)

TOKYO_AT_18 = datetime(2026, 1, 20, 9, 10, tzinfo=UTC)
LATER = TOKYO_AT_18 + LOST_AFTER + timedelta(minutes=5)


@pytest.fixture
def hiro():
    """A Tokyo learner nudged at 18:00 who watched an hour this week and coded nothing today."""
    user = UserFactory(username="hiro")
    ProfileFactory(user=user, time_zone="Asia/Tokyo", language="en")
    NudgeSubscription.objects.create(user=user, hour=18)
    WatchEventFactory(user=user, minutes=60, at=datetime(2026, 1, 20, 0, 0, tzinfo=UTC))
    return user


def send_nudges(at):
    with time_machine.travel(at, tick=False):
        call_command("send_nudges", verbosity=0)
        run_worker()


def queued_then_worker_killed(status):
    """The command queued the nudge; a worker took its task and died with the row in status."""
    with time_machine.travel(TOKYO_AT_18, tick=False):
        call_command("send_nudges", verbosity=0)
    Nudge.objects.update(status=status)
    DBTaskResult.objects.update(status="RUNNING", started_at=TOKYO_AT_18, finished_at=None)


def test_a_nudge_never_claimed_is_queued_again_and_sent_once(hiro):
    """Killed before its claim: the row is still queued, so it certainly did not leave."""
    queued_then_worker_killed(Nudge.Status.QUEUED)
    send_nudges(LATER)
    send_nudges(LATER + timedelta(hours=1))
    assert [message.to for message in mail.outbox] == [[hiro.email]]
    assert Nudge.objects.get().status == Nudge.Status.SENT
    assert sorted(DBTaskResult.objects.values_list("status", flat=True)) == ["FAILED", "SUCCESSFUL"]


def test_a_nudge_claimed_when_its_worker_died_is_not_sent_again(hiro):
    """Killed mid-send: perhaps sent, so never again; its task is closed as failed."""
    queued_then_worker_killed(Nudge.Status.SENDING)
    send_nudges(LATER)
    assert mail.outbox == []
    assert Nudge.objects.get().status == Nudge.Status.SENDING
    assert list(DBTaskResult.objects.values_list("status", flat=True)) == ["FAILED"]


def test_a_task_still_young_is_left_running(hiro):
    """Under LOST_AFTER its worker may be alive: nothing is queued beside it."""
    queued_then_worker_killed(Nudge.Status.QUEUED)
    send_nudges(TOKYO_AT_18 + LOST_AFTER - timedelta(seconds=1))
    assert mail.outbox == []
    assert list(DBTaskResult.objects.values_list("status", flat=True)) == ["RUNNING"]


def test_a_lost_nudge_of_a_day_long_past_is_not_queued_again(hiro):
    """Two days on, the row is left alone: it would only be skipped."""
    queued_then_worker_killed(Nudge.Status.QUEUED)
    two_days_later = TOKYO_AT_18 + timedelta(days=2, hours=-9)  # Thursday 09:10 in Tokyo
    send_nudges(two_days_later)
    assert Nudge.objects.get(day=date(2026, 1, 20)).status == Nudge.Status.QUEUED
    assert list(DBTaskResult.objects.values_list("status", flat=True)) == ["FAILED"]
