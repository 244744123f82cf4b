from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from progress.today import today_for
from reminders.models import Nudge
from reminders.nudge import due_subscribers, wants_nudge
from reminders.recovery import requeue_lost_nudges
from reminders.tasks import send_nudge


class Command(BaseCommand):
    help = (
        "Queue the daily nudge of every learner whose hour has come, on a day when code is owed "
        "and none is logged yet (run it hourly)."
    )

    def handle(self, *args, **options):
        now = timezone.now()
        requeued = requeue_lost_nudges(now)
        due = due_subscribers(now)
        queued = 0
        for each in due:
            if not wants_nudge(today_for(each.user, now=now, zone=each.zone)):
                continue
            # The row and its task are saved together: a second run finds the row and queues nothing.
            with transaction.atomic():
                nudge, created = Nudge.objects.get_or_create(user=each.user, day=each.day)
                if created:
                    send_nudge.enqueue(nudge.pk)
                    queued += 1
        self.stdout.write(
            f"Queued {queued} nudges; {len(due) - queued} due learners owe no code today, "
            f"have logged some, or have their nudge already; {requeued} queued again after their "
            "worker stopped before sending."
        )
