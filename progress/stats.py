"""Statistics: a learner's weeks, coding days and streaks; the curators' view of the path.

Every function runs a fixed number of queries, whatever the number of learners, events or
sessions: sums are grouped in the database, by day in the current time zone, the learner's
(progress/time_zone.py) or the site's TIME_ZONE (so a session at
Sunday 23:30 and one at Monday 00:30 fall in different weeks, DST or not), then gathered into
weeks in Python.
"""

import statistics
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, IntegerField, Max, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone

from curriculum.models import Resource
from progress.balance import Balance, start_of_day, week_start
from progress.models import CodingSession, Watch, WatchEvent

WEEKS_CHARTED = 12
WEEKS_IN_HEATMAP = 26
# Upper bounds (in minutes) of the heatmap's levels 1, 2 and 3; level 4 is anything above.
LEVEL_LIMITS = (30, 60, 120)


# A learner's statistics


def coding_minutes_by_day(user) -> dict[date, int]:
    """Minutes coded per day, over the learner's whole history, in one query."""
    rows = (
        CodingSession.objects.filter(user=user)
        .values("day")
        .annotate(total=Sum("minutes"))
        .order_by()
        .values_list("day", "total")
    )
    return dict(rows)


def watching_minutes_by_day(user) -> dict[date, int]:
    """Minutes watched per day (in the current time zone), over the learner's whole history, in one query."""
    rows = (
        WatchEvent.objects.filter(user=user)
        .annotate(day=TruncDate("at", tzinfo=timezone.get_current_timezone()))
        .values("day")
        .annotate(total=Sum("minutes"))
        .order_by()
        .values_list("day", "total")
    )
    return dict(rows)


@dataclass(frozen=True)
class Week:
    """Minutes watched and coded in the week starting on monday."""

    monday: date
    watched: int
    coded: int

    @property
    def sunday(self):
        return self.monday + timedelta(days=6)

    @property
    def watched_hours(self):
        return self.watched / 60

    @property
    def coded_hours(self):
        return self.coded / 60


def weeks(watched_by_day, coded_by_day, today: date, count=WEEKS_CHARTED) -> list[Week]:
    """The last count weeks (Monday to Sunday, this one included), oldest first."""
    first = week_start(today) - timedelta(weeks=count - 1)
    mondays = [first + timedelta(weeks=index) for index in range(count)]
    watched = dict.fromkeys(mondays, 0)
    coded = dict.fromkeys(mondays, 0)
    for day, minutes in watched_by_day.items():
        if week_start(day) in watched:
            watched[week_start(day)] += minutes
    for day, minutes in coded_by_day.items():
        if week_start(day) in coded:
            coded[week_start(day)] += minutes
    # Un-marking a video watched in an earlier week can make a week's sum negative: show none.
    return [Week(monday, max(watched[monday], 0), coded[monday]) for monday in mondays]


def streaks(days, today: date) -> tuple[int, int]:
    """Current and longest run of consecutive days with coding sessions.

    The current run still counts when nothing is logged yet today: it ends yesterday.
    """
    days = sorted(day for day in days if day <= today)
    longest = run = 0
    previous = None
    for day in days:
        run = run + 1 if previous == day - timedelta(days=1) else 1
        longest = max(longest, run)
        previous = day
    alive = previous is not None and previous >= today - timedelta(days=1)
    return (run if alive else 0), longest


def current_streaks_of_learners(user_ids, today: date | None = None) -> dict[int, int]:
    """Each learner's current run of coding days, keyed by user id, in one query."""
    today = today or timezone.localdate()
    days = {pk: [] for pk in user_ids}
    rows = (
        CodingSession.objects.filter(user__in=user_ids, day__lte=today)
        .values_list("user", "day")
        .distinct()
        .order_by()
    )
    for user_id, day in rows:
        days[user_id].append(day)
    return {pk: streaks(learner_days, today)[0] for pk, learner_days in days.items()}


def last_activity_of_learners(user_ids) -> dict[int, datetime | None]:
    """When each learner last watched or logged a coding session, keyed by user id, in two queries."""

    def latest(model, field):
        rows = (
            model.objects.filter(user__in=user_ids)
            .values("user")
            .annotate(last=Max(field))
            .order_by()
            .values_list("user", "last")
        )
        return dict(rows)

    watched, coded = latest(WatchEvent, "at"), latest(CodingSession, "created_at")
    return {
        pk: max((when for when in (watched.get(pk), coded.get(pk)) if when), default=None)
        for pk in user_ids
    }


def level(minutes: int) -> int:
    """The heatmap level of a day: 0 for none, then 1 to 4."""
    if minutes <= 0:
        return 0
    return 1 + sum(minutes > limit for limit in LEVEL_LIMITS)


@dataclass(frozen=True)
class Day:
    day: date
    minutes: int

    @property
    def level(self):
        return level(self.minutes)


def heatmap(coded_by_day, today: date, count=WEEKS_IN_HEATMAP) -> list[list[Day]]:
    """The last count weeks as columns of days, Monday first; days after today are left out."""
    first = week_start(today) - timedelta(weeks=count - 1)
    columns = []
    for week in range(count):
        monday = first + timedelta(weeks=week)
        days = [monday + timedelta(days=offset) for offset in range(7)]
        columns.append([Day(day, coded_by_day.get(day, 0)) for day in days if day <= today])
    return columns


def finished_by_kind(user) -> list[tuple[str, int]]:
    """(kind label, count) of the resources the learner finished, in the kinds' order, one query."""
    rows = (
        Watch.objects.filter(user=user, finished_at__isnull=False)
        .values("resource__kind")
        .annotate(count=Count("pk"))
        .order_by()
        .values_list("resource__kind", "count")
    )
    counts = dict(rows)
    return [(label, counts[kind]) for kind, label in Resource.Kind.choices if kind in counts]


@dataclass(frozen=True)
class LearnerStats:
    weeks: list[Week]
    heatmap: list[list[Day]]
    current_streak: int
    longest_streak: int
    balance: Balance
    finished_by_kind: list[tuple[str, int]]

    @property
    def total_watched(self):
        return max(self.balance.watched, 0)

    @property
    def total_coded(self):
        return self.balance.coded

    @property
    def total_watched_hours(self):
        return self.total_watched / 60

    @property
    def total_coded_hours(self):
        return self.total_coded / 60


def learner_stats(user, today: date | None = None) -> LearnerStats:
    """Everything the stats page shows about one learner, in three queries."""
    today = today or timezone.localdate()
    coded_by_day = coding_minutes_by_day(user)
    watched_by_day = watching_minutes_by_day(user)
    current, longest = streaks(coded_by_day, today)
    overall = Balance(
        watched=sum(watched_by_day.values()), coded=sum(coded_by_day.values()), this_week=False
    )
    return LearnerStats(
        weeks=weeks(watched_by_day, coded_by_day, today),
        heatmap=heatmap(coded_by_day, today),
        current_streak=current,
        longest_streak=longest,
        balance=overall,
        finished_by_kind=finished_by_kind(user),
    )


# The curators' view of the path


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
    previous = None
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
