"""The weekly digest's task, run by the worker (`manage.py db_worker`) from the database queue.

The Digest row of the learner's week is created before the task is queued. The task sends the
mail while it holds that row's lock and marks it sent in the same transaction: a second worker
running the same digest (queued twice, or a retry) skips the locked row, or finds it sent.

A failed send raises MailNotSent, which names the row and the error's class only: the queue keeps
a failed task's message and traceback after the learner is gone, and an SMTP error often quotes
the address. The whole error goes on the Digest or Nudge row, deleted with the learner.
"""

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.tasks import TaskResultStatus, task
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from reminders.digest import digest_message
from reminders.models import Digest, DigestSubscription, Nudge
from reminders.nudge import learners_today, nudge_message, reason_not_to_send

logger = logging.getLogger(__name__)

# After a failed send, wait this long before the next attempt; then give up (and log it).
RETRY_DELAYS = [timedelta(minutes=5), timedelta(minutes=30), timedelta(hours=2)]


class MailNotSent(Exception):
    """A digest or nudge not sent: its row says why (the error may name the learner's address)."""


@task
def send_digest(digest_id: int) -> str:
    """Send one learner's digest of one week, unless it was sent already."""
    with transaction.atomic():
        digest = (
            Digest.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user")
            .filter(pk=digest_id, sent_at__isnull=True)
            .first()
        )
        if digest is None:
            return "skipped: sent already, being sent, or deleted"
        if not DigestSubscription.objects.filter(user_id=digest.user_id).exists():
            return "skipped: unsubscribed"
        digest.attempts += 1
        try:
            digest_message(digest).send()
        except Exception as error:
            digest.last_error = f"{type(error).__name__}: {error}"[:2000]
            digest.save(update_fields=["attempts", "last_error"])
            failure = error
        else:
            digest.sent_at = timezone.now()
            digest.last_error = ""
            digest.save(update_fields=["attempts", "last_error", "sent_at"])
            logger.info(
                "Digest %s sent (week of %s, attempt %s)", digest.pk, digest.week, digest.attempts
            )
            return "sent"
    retry_later(digest)
    raise MailNotSent(f"Digest {digest.pk} not sent: {type(failure).__name__}")


def retry_later(digest: Digest) -> None:
    """Queue the next attempt after a failed send, or log that there will be none."""
    if digest.attempts > len(RETRY_DELAYS):
        logger.error("Digest %s not sent after %s attempts: giving up", digest.pk, digest.attempts)
        return
    delay = RETRY_DELAYS[digest.attempts - 1]
    send_digest.using(run_after=timezone.now() + delay).enqueue(digest.pk)
    logger.warning(
        "Digest %s not sent (attempt %s: %s); next attempt in %s",
        digest.pk,
        digest.attempts,
        digest.last_error,
        delay,
    )


@task
def send_nudge(nudge_id: int) -> str:
    """Send one learner's nudge of one day, at most once: the row is claimed before the mail leaves.

    The claim is one UPDATE from queued to being sent, committed before sending: a second
    worker finds nothing to claim, and a worker stopped mid-send leaves the row claimed, so that
    nudge is missed rather than sent twice.
    """
    claimed = Nudge.objects.filter(pk=nudge_id, status=Nudge.Status.QUEUED).update(
        status=Nudge.Status.SENDING, attempts=F("attempts") + 1
    )
    if not claimed:
        return "skipped: sent already, being sent, or deleted"
    nudge = Nudge.objects.select_related("user").get(pk=nudge_id)
    today, profile = learners_today(nudge.user)
    reason = reason_not_to_send(nudge, today)
    if reason:
        nudge.status = Nudge.Status.SKIPPED
        nudge.save(update_fields=["status"])
        return f"skipped: {reason}"
    try:
        nudge_message(nudge.user, today, profile).send()
    except Exception as error:
        nudge.last_error = f"{type(error).__name__}: {error}"[:2000]
        retry_nudge_later(nudge)
        raise MailNotSent(f"Nudge {nudge.pk} not sent: {type(error).__name__}") from None
    nudge.status, nudge.sent_at, nudge.last_error = Nudge.Status.SENT, timezone.now(), ""
    nudge.save(update_fields=["status", "sent_at", "last_error"])
    logger.info("Nudge %s sent (%s, attempt %s)", nudge.pk, nudge.day, nudge.attempts)
    return "sent"


def retry_nudge_later(nudge: Nudge) -> None:
    """Queue the row and its next attempt together after a failed send (the task gives up when
    the learner's day is over), or mark it failed after the last."""
    if nudge.attempts > len(RETRY_DELAYS):
        nudge.status = Nudge.Status.FAILED
        nudge.save(update_fields=["status", "last_error"])
        logger.error("Nudge %s not sent after %s attempts: giving up", nudge.pk, nudge.attempts)
        return
    delay = RETRY_DELAYS[nudge.attempts - 1]
    with transaction.atomic():
        nudge.status = Nudge.Status.QUEUED
        nudge.save(update_fields=["status", "last_error"])
        send_nudge.using(run_after=timezone.now() + delay).enqueue(nudge.pk)
    logger.warning(
        "Nudge %s not sent (attempt %s: %s); next attempt in %s",
        nudge.pk,
        nudge.attempts,
        nudge.last_error,
        delay,
    )


def forget_tasks_of(user) -> int:
    """Delete the queue's rows of the learner's digests and nudges (waiting retries, failed and
    finished sends) before the rows themselves go; the count. A task running now is left to
    its worker, which still has to mark it done."""
    deleted = 0
    for mail_task, model in ((send_digest, Digest), (send_nudge, Nudge)):
        ids = list(model.objects.filter(user=user).values_list("pk", flat=True))
        if ids:
            deleted += (
                DBTaskResult.objects.filter(
                    task_path=mail_task.module_path, args_kwargs__args__0__in=ids
                )
                .exclude(status=TaskResultStatus.RUNNING)
                .delete()[0]
            )
    return deleted
