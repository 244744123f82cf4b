from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from reminders.digest import due_learners
from reminders.models import Digest
from reminders.recovery import requeue_lost_digests
from reminders.tasks import send_digest


class Command(BaseCommand):
    help = (
        "Queue the weekly digest of every learner whose weekday and hour have come, and again"
        " those whose worker stopped mid-send (run it hourly)."
    )

    def handle(self, *args, **options):
        now = timezone.now()
        requeued = requeue_lost_digests(now)
        due = due_learners(now)
        queued = 0
        for user_id, week in due:
            # The row and its task are saved together: a second run finds the row and queues nothing.
            with transaction.atomic():
                digest, created = Digest.objects.get_or_create(user_id=user_id, week=week)
                if created:
                    send_digest.enqueue(digest.pk)
                    queued += 1
        self.stdout.write(
            f"Queued {queued} digests; {len(due) - queued} already queued or sent this week; "
            f"{requeued} queued again after their worker stopped mid-send."
        )
