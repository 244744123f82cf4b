"""Delete raw editor heartbeats past their retention (docs/editor.md, "What is kept")."""

from django.core.management.base import BaseCommand
from django.utils import timezone

from progress.editor_time import HEARTBEAT_RETENTION
from progress.models import Heartbeat


class Command(BaseCommand):
    help = (
        f"Delete editor heartbeats older than {HEARTBEAT_RETENTION.days} days; the day-by-project "
        "totals made from them stay."
    )

    def handle(self, *args, **options):
        deleted, _ = Heartbeat.objects.older_than(timezone.now() - HEARTBEAT_RETENTION).delete()
        self.stdout.write(
            f"Deleted {deleted} heartbeats older than {HEARTBEAT_RETENTION.days} days."
        )
