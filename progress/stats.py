"""Statistics: a learner's weeks, coding days and streaks (the curators' are in curation/stats.py).

Every function runs a fixed number of queries, whatever the number of learners, events or
sessions: sums are grouped in the database, by day in the current time zone, the learner's
(progress/time_zone.py) or the site's TIME_ZONE (so a session at
Sunday 23:30 and one at Monday 00:30 fall in different weeks, DST or not), then gathered into
weeks in Python (`learner_record`: minutes coded and watched per day, resources finished per
kind).
"""

from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import Count
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
    return CodingSession.objects.for_learner(user).minutes_by_day()


@dataclass(frozen=True, slots=True)
class LearnerRecord:
    """What the stats page reads of a learner."""

    coded_by_day: dict[date, int]
    watched_by_day: dict[date, int]  # in the current time zone
    finished: dict[str, int]  # resources finished, by kind


def learner_record(user) -> LearnerRecord:
    """The learner's minutes coded and watched per day and resources finished per kind, in three
    queries whatever their history."""
    finished = (
        Watch.objects.for_learner(user)
        .filter(finished_at__isnull=False)
        .values("resource__kind")
        .annotate(count=Count("pk"))
        .order_by()
        .values_list("resource__kind", "count")
    )
    return LearnerRecord(
        coded_by_day=coding_minutes_by_day(user),
        watched_by_day=WatchEvent.objects.for_learner(user).minutes_by_day(),
        finished=dict(finished),
    )


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
    watched = [0] * count
    coded = [0] * count
    for sums, by_day in ((watched, watched_by_day), (coded, coded_by_day)):
        for day, minutes in by_day.items():
            week = (day - first).days // 7
            if 0 <= week < count:
                sums[week] += minutes
    # Un-marking a video watched in an earlier week can make a week's sum negative: show none.
    return [
        Week(first + timedelta(weeks=week), max(watched[week], 0), coded[week])
        for week in range(count)
    ]


def streaks(days, today: date) -> tuple[int, int]:
    """Current and longest run of consecutive days with coding sessions.

    The current run still counts when nothing is logged yet today: it ends yesterday.
    """
    # Day numbers rather than dates: no timedelta made per day of a long history.
    last = today.toordinal()
    numbers = sorted(number for number in map(date.toordinal, days) if number <= last)
    longest = run = 0
    previous = None
    for number in numbers:
        run = run + 1 if previous == number - 1 else 1
        longest = max(longest, run)
        previous = number
    alive = previous is not None and previous >= last - 1
    return (run if alive else 0), longest


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


def finished_by_kind(counts: dict[str, int]) -> list[tuple[str | Promise, int]]:
    """(kind label, count) of the resources finished, in the kinds' order."""
    return [(label, counts[kind]) for kind, label in Resource.Kind.choices if kind in counts]


@dataclass(frozen=True)
class LearnerStats:
    weeks: list[Week]
    heatmap: list[list[Day]]
    coded_by_day: dict[date, int]
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


def overall_balance(record: LearnerRecord) -> Balance:
    return Balance(
        watched=sum(record.watched_by_day.values()),
        coded=sum(record.coded_by_day.values()),
        this_week=False,
    )


def learner_stats(user, today: date | None = None) -> LearnerStats:
    """Everything a shared page shows about one learner, in three queries."""
    today = today or timezone.localdate()
    record = learner_record(user)
    current, longest = streaks(record.coded_by_day, today)
    return LearnerStats(
        weeks=weeks(record.watched_by_day, record.coded_by_day, today),
        heatmap=heatmap(record.coded_by_day, today),
        coded_by_day=record.coded_by_day,
        current_streak=current,
        longest_streak=longest,
        balance=overall_balance(record),
        finished_by_kind=finished_by_kind(record.finished),
    )
