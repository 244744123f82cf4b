"""Statistics: a learner's weeks, coding days and streaks (the curators' are in curation/stats.py).

Every function runs a fixed number of queries, whatever the number of learners, events or
sessions: sums are grouped in the database, by day in the current time zone, the learner's
(progress/time_zone.py) or the site's TIME_ZONE (so a session at
Sunday 23:30 and one at Monday 00:30 fall in different weeks, DST or not), then gathered into
weeks in Python.
"""

from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import Count, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.functional import Promise

from curriculum.models import Resource
from progress.balance import Balance, week_start
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
    days: dict[int, list[date]] = {pk: [] for pk in user_ids}
    rows = (
        CodingSession.objects.filter(user__in=user_ids, day__lte=today)
        .values_list("user", "day")
        .distinct()
        .order_by()
    )
    for user_id, day in rows:
        days[user_id].append(day)
    return {pk: streaks(learner_days, today)[0] for pk, learner_days in days.items()}


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


def finished_by_kind(user) -> list[tuple[str | Promise, int]]:
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
    finished_by_kind: list[tuple[str | Promise, int]]

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
