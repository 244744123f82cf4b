"""Delete what the sign-in log keeps past its retention (docs/security.md)."""

from datetime import timedelta

from axes.helpers import get_cool_off
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone


class Command(BaseCommand):
    help = (
        "Delete sign-ins and failed sign-ins older than SIGNIN_LOG_DAYS, "
        "and failure counts whose lockout window has passed."
    )

    def handle(self, *args, **options):
        cutoff = timezone.now() - timedelta(days=settings.SIGNIN_LOG_DAYS)
        signins, _ = AccessLog.objects.filter(attempt_time__lt=cutoff).delete()
        failures, _ = AccessFailureLog.objects.filter(attempt_time__lt=cutoff).delete()
        counts, _ = AccessAttempt.objects.filter(
            attempt_time__lt=timezone.now() - get_cool_off()
        ).delete()
        self.stdout.write(
            f"Deleted {signins} sign-ins and {failures} failed sign-ins older than "
            f"{settings.SIGNIN_LOG_DAYS} days, and {counts} expired failure counts."
        )
