"""`send_digests` recovers digest tasks left RUNNING by a dead worker: what it sends again and not.

A real kill is in test_worker_crash.py (PostgreSQL); here a task row is put back to RUNNING to
stand for a worker killed at a moment a kill cannot aim at, or to count queries on any database.
"""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django_tasks_db.models import DBTaskResult

from reminders.models import Digest, DigestSubscription
from reminders.recovery import LOST_AFTER, requeue_lost_digests
from tests.factories import UserFactory
from tests.reminders.helpers import run_worker, send_digests

pytestmark = pytest.mark.django_db(transaction=True)

MONDAY_MORNING = datetime(2026, 1, 19, 9, 0, tzinfo=ZoneInfo("Europe/Paris"))
LATER = MONDAY_MORNING + LOST_AFTER + timedelta(minutes=5)


def subscriber(username):
    user = UserFactory(username=username)
    DigestSubscription.objects.create(user=user, weekday=0)
    return user


def left_running(tasks):
    """As if the worker running these had been killed: RUNNING since Monday morning, never finished."""
    tasks.update(status="RUNNING", started_at=MONDAY_MORNING, finished_at=None, return_value=None)


def test_a_digest_sent_before_its_worker_died_is_not_sent_again():
    """Killed after the commit, before its task was marked done: the task is closed, no second mail."""
    ada = subscriber("ada")
    with time_machine.travel(MONDAY_MORNING, tick=False):
        send_digests()
        run_worker()
    left_running(DBTaskResult.objects.all())
    with time_machine.travel(LATER, tick=False):
        send_digests()
        run_worker()
    assert [message.to for message in mail.outbox] == [[ada.email]]
    assert DBTaskResult.objects.get().status == "FAILED"


def test_a_digest_given_up_after_its_retries_is_not_queued_again():
    """Four failed attempts end it: a dead worker's task does not start a fifth."""
    ada = subscriber("ada")
    with time_machine.travel(MONDAY_MORNING, tick=False):
        send_digests()
    Digest.objects.filter(user=ada).update(attempts=4, last_error="SMTPServerDisconnected")
    left_running(DBTaskResult.objects.all())
    with time_machine.travel(LATER, tick=False):
        send_digests()
        run_worker()
    assert mail.outbox == []
    assert list(DBTaskResult.objects.values_list("status", flat=True)) == ["FAILED"]


def test_a_task_still_young_is_left_running():
    """Under LOST_AFTER its worker may be alive and sending: nothing is queued beside it."""
    subscriber("ada")
    with time_machine.travel(MONDAY_MORNING, tick=False):
        send_digests()
    left_running(DBTaskResult.objects.all())
    with time_machine.travel(MONDAY_MORNING + LOST_AFTER - timedelta(seconds=1), tick=False):
        assert requeue_lost_digests(MONDAY_MORNING + LOST_AFTER - timedelta(seconds=1)) == 0
    assert list(DBTaskResult.objects.values_list("status", flat=True)) == ["RUNNING"]


def test_last_weeks_unsent_digest_is_not_sent_a_week_late():
    """Recovery reaches back one week: an older digest would arrive beside the next one."""
    subscriber("ada")
    with time_machine.travel(MONDAY_MORNING, tick=False):
        send_digests()
    left_running(DBTaskResult.objects.all())
    eight_days_later = MONDAY_MORNING + timedelta(days=8)
    with time_machine.travel(eight_days_later, tick=False):
        assert requeue_lost_digests(eight_days_later) == 0


@pytest.mark.parametrize("learners", [1, 4])
def test_recovery_takes_three_queries_and_one_insert_per_digest_queued_again(
    learners, django_assert_num_queries
):
    """BEGIN, close the lost tasks, read the pending ones, read the orphans, one insert each, COMMIT."""
    for number in range(learners):
        subscriber(f"learner{number}")
    with time_machine.travel(MONDAY_MORNING, tick=False):
        send_digests()
    left_running(DBTaskResult.objects.all())
    with time_machine.travel(LATER, tick=False), django_assert_num_queries(5 + learners):
        assert requeue_lost_digests(LATER) == learners
    assert DBTaskResult.objects.filter(status="READY").count() == learners
