"""The weekly digest's task, run by the worker (`manage.py db_worker`) from the database queue.

The Digest row of the learner's week is created before the task is queued. The task sends the
mail while it holds that row's lock and marks it sent in the same transaction: a second worker
running the same digest (queued twice, or a retry) skips the locked row, or finds it sent.
"""

import logging
from datetime import timedelta

from django.db import transaction
from django.tasks import task
from django.utils import timezone

from reminders.digest import digest_message
from reminders.models import Digest, DigestSubscription

logger = logging.getLogger(__name__)

# After a failed send, wait this long before the next attempt; then give up (and log it).
RETRY_DELAYS = [timedelta(minutes=5), timedelta(minutes=30), timedelta(hours=2)]


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
    raise failure


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
