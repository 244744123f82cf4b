"""Digests and nudges whose worker died mid-send: found by the age of their task, queued again.

django-tasks-db marks a task RUNNING when a worker takes it and leaves it so if that worker is
killed (or its machine stops): nothing would ever run that digest again. The send itself held
the digest's row lock in a transaction that died with the worker's connection, so the row is
still unsent; `send_digests` calls `requeue_lost_digests` on each run to send it after all.
`send_nudges` calls `requeue_lost_nudges`, which queues again only nudges never claimed.
"""

from datetime import datetime, timedelta

from django.db import transaction
from django.tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from reminders.models import Digest, Nudge
from reminders.tasks import RETRY_DELAYS, send_digest, send_nudge

# A send takes seconds (each SMTP step times out after EMAIL_TIMEOUT, 10 s by default): a digest
# task still running after this long has lost its worker. If it was only slow, the copy queued
# meanwhile finds the row locked or sent and skips it.
LOST_AFTER = timedelta(minutes=15)
LOST_WORKER = "reminders.recovery.LostWorker"


def close_lost_tasks(task, now: datetime) -> set[int]:
    """Mark task's runs RUNNING for longer than LOST_AFTER failed; return the row ids (first
    argument) of its runs still waiting or running. Two queries."""
    tasks = DBTaskResult.objects.filter(task_path=task.module_path)
    tasks.filter(status=TaskResultStatus.RUNNING, started_at__lt=now - LOST_AFTER).update(
        status=TaskResultStatus.FAILED,
        finished_at=now,
        exception_class_path=LOST_WORKER,
        traceback=f"No news of the worker running it for {LOST_AFTER}: it stopped mid-task.\n",
    )
    pending = tasks.filter(status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING])
    return {call["args"][0] for call in pending.values_list("args_kwargs", flat=True)}


def requeue_lost_digests(now: datetime) -> int:
    """Mark digest tasks running for longer than LOST_AFTER failed, and queue again every digest
    of the last week still unsent with no task waiting or running for it (short of the last retry).
    Returns how many were queued; three queries and one per digest queued."""
    with transaction.atomic():
        pending_ids = close_lost_tasks(send_digest, now)
        orphans = (
            Digest.objects.unsent_for_subscribers(since_week=now.date() - timedelta(days=7))
            .filter(attempts__lte=len(RETRY_DELAYS))
            .exclude(pk__in=pending_ids)
            .values_list("pk", flat=True)
        )
        orphan_ids = list(orphans)
        for digest_id in orphan_ids:
            send_digest.enqueue(digest_id)
    return len(orphan_ids)


def requeue_lost_nudges(now: datetime) -> int:
    """Close nudge tasks whose worker died, and queue again the nudges still queued (never
    claimed, so never sent) of yesterday or today with no task waiting or running for them.

    A nudge claimed (being sent) when its worker died stays so: it may have left, and a nudge
    is sent at most once. The task itself skips a nudge whose day is over. Returns how many were
    queued; three queries and one per nudge queued.
    """
    with transaction.atomic():
        pending_ids = close_lost_tasks(send_nudge, now)
        orphan_ids = list(
            Nudge.objects.filter(
                status=Nudge.Status.QUEUED,
                day__gte=now.date() - timedelta(days=1),
                created_at__lt=now - LOST_AFTER,
            )
            .exclude(pk__in=pending_ids)
            .values_list("pk", flat=True)
        )
        for nudge_id in orphan_ids:
            send_nudge.enqueue(nudge_id)
    return len(orphan_ids)
