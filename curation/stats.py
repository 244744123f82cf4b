"""The curators' statistics: how many learners reach each step of the path, how active they
are and how they balance watching and coding, over a cohort or a study group.

Every function runs a fixed number of queries, whatever the number of learners.
"""

import statistics
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, IntegerField, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from progress.balance import start_of_day
from progress.models import CodingSession, Watch, WatchEvent


def learners(cohort: date | None = None):
    """Learners (users who are not staff), those who signed up in cohort's month if given."""
    users = get_user_model().objects.filter(is_staff=False)
    if cohort is None:
        return users
    following = (cohort.replace(day=28) + timedelta(days=4)).replace(day=1)
    return users.filter(
        date_joined__gte=start_of_day(cohort), date_joined__lt=start_of_day(following)
    )


def cohorts() -> list[date]:
    """The first day of every month in which learners signed up, latest first, in one query."""
    months = learners().datetimes(
        "date_joined", "month", order="DESC", tzinfo=timezone.get_default_timezone()
    )
    return [month.date() for month in months]


STARTED = Q(logged_minutes__gt=0) | Q(finished_at__isnull=False)
FINISHED = Q(finished_at__isnull=False)


@dataclass
class StepCounts:
    """How many learners started, finished and coded on one step of the path."""

    step: object
    started: int = 0
    finished: int = 0
    coded: int = 0
    drop_off: int | None = None  # learners who started the previous step and not this one


def started_and_finished(rows):
    """From (key, user, finished) rows of started watches: the users who started, and who finished, per key."""
    started, finished = {}, {}
    for key, user, has_finished in rows:
        started.setdefault(key, set()).add(user)
        if has_finished:
            finished.setdefault(key, set()).add(user)
    return started, finished


def learners_by_resource(watches, coding_sessions, resource_ids):
    """The sets of learners who started, finished and coded on each resource id, in two queries."""
    watch_rows = (
        watches.filter(STARTED, resource__in=resource_ids)
        .annotate(has_finished=FINISHED)
        .values_list("resource", "user", "has_finished")
        .order_by()
    )
    started, finished = started_and_finished(watch_rows)
    coding_rows = (
        coding_sessions.filter(resource__in=resource_ids).values_list("resource", "user").distinct()
    )
    coded = {}
    for resource, user in coding_rows.order_by():
        coded.setdefault(resource, set()).add(user)
    return {
        pk: {
            "started": started.get(pk, set()),
            "finished": finished.get(pk, set()),
            "coded": coded.get(pk, set()),
        }
        for pk in resource_ids
    }


def architecture_learners(watches, coding_sessions):
    """Learners who started, finished, coded on any architecture-presenting session; two queries."""
    sessions = Q(resource__presents_architecture=True)
    watch_rows = (
        watches.filter(sessions, STARTED)
        .annotate(has_finished=FINISHED)
        .values_list("resource__presents_architecture", "user", "has_finished")
        .order_by()
    )
    started, finished = started_and_finished(watch_rows)
    coded = set(coding_sessions.filter(sessions).values_list("user", flat=True).order_by())
    return {
        "started": started.get(True, set()),
        "finished": finished.get(True, set()),
        "coded": coded,
    }


def step_counts(path, users) -> list[StepCounts]:
    """StepCounts for each step of the path, in path order, in four queries."""
    steps = [step for stage in path.stages.all() for step in stage.steps.all()] if path else []
    watches = Watch.objects.filter(user__in=users)
    coding_sessions = CodingSession.objects.filter(user__in=users)
    by_resource = learners_by_resource(
        watches, coding_sessions, [step.resource_id for step in steps if step.resource_id]
    )
    architecture = architecture_learners(watches, coding_sessions)
    progress = []
    previous: set[int] | None = None
    for step in steps:
        who = architecture if step.is_architecture_talk else by_resource[step.resource_id]
        drop_off = None if previous is None else len(previous - who["started"])
        counts = {kind: len(users) for kind, users in who.items()}
        progress.append(StepCounts(step, drop_off=drop_off, **counts))
        previous = who["started"]
    return progress


def active_learners(users, now: datetime | None = None) -> dict[str, int]:
    """How many learners, and how many watched or coded anything in the last 7 and 30 days."""
    now = now or timezone.now()
    today = timezone.localdate(now)

    def active_since(days):
        watched = WatchEvent.objects.filter(user=OuterRef("pk"), at__gte=now - timedelta(days))
        coded = CodingSession.objects.filter(
            user=OuterRef("pk"), day__gt=today - timedelta(days), day__lte=today
        )
        return Count("pk", filter=Q(Exists(watched)) | Q(Exists(coded)))

    return users.aggregate(
        learners=Count("pk"), last_7_days=active_since(7), last_30_days=active_since(30)
    )


def median_ratio(users) -> float | None:
    """The median of minutes coded ÷ minutes watched over learners who watched something."""

    def total(model):
        sums = (
            model.objects.filter(user=OuterRef("pk"))
            .order_by()
            .values("user")
            .annotate(total=Sum("minutes"))
            .values("total")
        )
        return Coalesce(Subquery(sums, output_field=IntegerField()), 0)

    rows = (
        users.annotate(watched=total(WatchEvent), coded=total(CodingSession))
        .filter(watched__gt=0)
        .values_list("watched", "coded")
    )
    ratios = [coded / watched for watched, coded in rows]
    return statistics.median(ratios) if ratios else None
