"""Check with EXPLAIN that one learner's rows are reached through an index, never a full scan."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db.models import Sum  # noqa: E402
from django.utils import timezone  # noqa: E402

from progress.models import Note, Practice, Watch, WatchEvent  # noqa: E402

PER_LEARNER_TABLES = ("progress_practice", "progress_watch", "progress_watchevent", "progress_note")


def per_learner_queries(user):
    week_ago = timezone.now() - timezone.timedelta(days=7)
    return {
        "practice page": Practice.objects.filter(user=user).order_by("-day", "-created_at")[:20],
        "practice minutes per resource": Practice.objects.filter(user=user)
        .values("resource")
        .annotate(minutes=Sum("minutes")),
        "watch states": Watch.objects.filter(user=user),
        "watched this week": WatchEvent.objects.filter(user=user, at__gte=week_ago)
        .values("user")
        .annotate(minutes=Sum("minutes")),
        "notes": Note.objects.filter(user=user),
    }


def main():
    user = get_user_model().objects.order_by("?").first()
    full_scans = []
    for name, queryset in per_learner_queries(user).items():
        plan = queryset.explain()
        scanned = [table for table in PER_LEARNER_TABLES if f"Seq Scan on {table}" in plan]
        print(f"EXPLAIN {name}: {'full scan of ' + ', '.join(scanned) if scanned else 'index'}")
        full_scans += scanned
    if full_scans:
        raise SystemExit(f"full table scans for one learner: {full_scans}")


if __name__ == "__main__":
    main()
