"""Delete raw editor heartbeats past their retention (docs/editor.md, "What is kept")."""

from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from progress.editor_time import HEARTBEAT_RETENTION
from progress.models import EditorDay, Heartbeat


class Command(BaseCommand):
    help = (
        f"Delete editor heartbeats older than {HEARTBEAT_RETENTION.days} days, and the exact "
        "day totals that no new heartbeat can change any more; the coding sessions made from "
        "them stay."
    )

    def handle(self, *args, **options):
        oldest_kept = timezone.now() - HEARTBEAT_RETENTION
        deleted, _ = Heartbeat.objects.older_than(oldest_kept).delete()
        # A day before the oldest heartbeat's, in any time zone: no heartbeat accepted can reach it.
        EditorDay.objects.filter(day__lt=oldest_kept.date() - timedelta(days=1)).delete()
        self.stdout.write(
            f"Deleted {deleted} heartbeats older than {HEARTBEAT_RETENTION.days} days."
        )
