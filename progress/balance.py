"""The watch : code balance: minutes coded ÷ minutes watched, against the guide's 1 : 3 rule.

Derived from WatchEvent (whose signed minutes sum to minutes watched over any period) and
CodingSession, never stored. Weeks run Monday to Sunday in the current time zone: the learner's
(progress/time_zone.py), or the site's TIME_ZONE.
"""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.db.models import Count, Max, Value
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from lib.durations import duration
from progress.models import CodingSession, WatchEvent

GOAL = 3  # hours of code for each hour of video


def week_start(day: date) -> date:
    """The Monday of the week that holds day."""
    return day - timedelta(days=day.weekday())


def start_of_day(day: date) -> datetime:
    """The aware instant where day starts in the current time zone (the learner's)."""
    return datetime.combine(day, time.min, tzinfo=timezone.get_current_timezone())


def week_bounds(day: date) -> tuple[datetime, datetime]:
    """The aware instants where day's week starts (Monday 00:00) and the next one starts."""
    monday = week_start(day)
    return start_of_day(monday), start_of_day(monday + timedelta(days=7))


@dataclass(frozen=True)
class Balance:
    """Minutes watched and coded over a period, and what the 1 : 3 rule says about them."""

    watched: int
    coded: int
    this_week: bool

    @property
    def has_watched(self):
        return self.watched > 0

    @property
    def ratio(self):
        """Hours coded per hour watched, or None when nothing was watched."""
        return self.coded / self.watched if self.has_watched else None

    @property
    def is_met(self):
        return self.has_watched and self.coded >= GOAL * self.watched

    @property
    def code_needed(self):
        """Minutes of code still missing to meet the rule."""
        return max(GOAL * self.watched - self.coded, 0) if self.has_watched else 0

    @property
    def meter_value(self):
        """The ratio for <meter>, capped at the goal, with a dot whatever the language."""
        return f"{min(self.ratio or 0, GOAL):.2f}"

    def in_words(self) -> str:
        """The balance in plain words, in the active language: on pages, in the weekly digest and
        in the API alike."""
        if not self.has_watched:
            state = "coded only" if self.coded else "nothing"
        else:
            state = "met" if self.is_met else "owed"
        return gettext(SENTENCES[self.this_week, state]) % {
            "watched": duration(self.watched),
            "coded": duration(self.coded),
            "needed": duration(self.code_needed),
        }


# Balance.in_words' sentence by period (this week or not) and state.
SENTENCES = {
    (True, "nothing"): gettext_noop(
        "You have not watched anything this week yet: nothing to balance."
    ),
    (True, "coded only"): gettext_noop(
        "You have not watched anything this week yet and coded %(coded)s: nothing to balance."
    ),
    (True, "met"): gettext_noop(
        "You watched %(watched)s and coded %(coded)s this week: the 1:3 rule is met."
    ),
    (True, "owed"): gettext_noop(
        "You watched %(watched)s and coded %(coded)s this week: %(needed)s more code before the "
        "next video."
    ),
    (False, "nothing"): gettext_noop("You have not watched anything yet: nothing to balance."),
    (False, "coded only"): gettext_noop(
        "You have not watched anything yet and coded %(coded)s: nothing to balance."
    ),
    (False, "met"): gettext_noop(
        "You watched %(watched)s and coded %(coded)s in all: the 1:3 rule is met."
    ),
    (False, "owed"): gettext_noop(
        "You watched %(watched)s and coded %(coded)s in all: %(needed)s more code to meet the 1:3 "
        "rule."
    ),
}


def balances(user, today: date | None = None) -> tuple[Balance, Balance]:
    """This week's balance and the overall one for a learner, in one query."""
    minutes = learner_minutes(user, (), today)
    return minutes.week, minutes.overall


@dataclass(frozen=True)
class ResourceCoding:
    """What a learner watched and coded of one resource, against three times its duration."""

    watched: int
    coded: int
    duration: int | None

    @property
    def goal(self):
        """Minutes of code the rule asks for: three times the duration, or what was watched."""
        target = self.duration or self.watched
        return GOAL * target if target else None

    @property
    def is_coded(self):
        """Coded once its coding sessions reach three times the resource's length, not before."""
        if self.goal is None:
            return self.coded > 0
        return self.coded >= self.goal

    @property
    def is_partly_coded(self):
        return self.coded > 0 and not self.is_coded

    @property
    def progress_max(self):
        return self.goal or 1

    @property
    def progress_value(self):
        return min(self.coded, self.progress_max)


def coding_for_resource(user, resource) -> ResourceCoding:
    """ResourceCoding for one resource, read with the learner's minutes in one query."""
    return learner_minutes(user, [resource]).coding[resource.pk]


@dataclass(frozen=True)
class CodedOn:
    """A resource the learner coded on: their minutes, and when they last logged some."""

    minutes: int
    last: datetime


@dataclass(frozen=True)
class LearnerMinutes:
    """A learner's balances this week and overall, their number of coding sessions, their coding
    of each resource asked for, and every resource they coded on."""

    week: Balance
    overall: Balance
    sessions: int
    coding: dict[int, ResourceCoding]
    coded_on: dict[int, CodedOn]


def learner_minutes(user, resources=(), today: date | None = None) -> LearnerMinutes:
    """Everything the balances count for a learner, and the coding of the given resources, in
    one query whatever the learner's history."""
    today = today or timezone.localdate()
    watched = WatchEvent.objects.for_learner(user).minutes_by_resource(*week_bounds(today))
    coded = CodingSession.objects.for_learner(user).minutes_by_resource_and_week(week_start(today))
    rows = (
        watched.annotate(rows=Count("pk"), last=Max("at"), kind=Value("watched"))
        .union(
            coded.annotate(rows=Count("pk"), last=Max("created_at"), kind=Value("coded")),
            all=True,
        )
        .order_by()
    )
    minutes: dict[str, dict[int | None, dict[str, int]]] = {"watched": {}, "coded": {}}
    for row in rows:
        minutes[row["kind"]][row["resource"]] = row
    return minutes_of(minutes, resources)


def minutes_of(minutes, resources=()) -> LearnerMinutes:
    """LearnerMinutes from a learner's minutes watched and coded per resource id (None for a
    chapter's coding): {"watched" or "coded": {id: {"total", "week", "rows", "last"}}}; no
    query."""

    def total(kind, key):
        return sum(row[key] for row in minutes[kind].values())

    def of(kind, resource):
        return minutes[kind].get(resource.pk, {}).get("total", 0)

    return LearnerMinutes(
        week=Balance(
            watched=total("watched", "week"), coded=total("coded", "week"), this_week=True
        ),
        overall=Balance(
            watched=total("watched", "total"), coded=total("coded", "total"), this_week=False
        ),
        sessions=total("coded", "rows"),
        coding={
            resource.pk: ResourceCoding(
                watched=max(of("watched", resource), 0),
                coded=of("coded", resource),
                duration=resource.duration_minutes,
            )
            for resource in resources
            if resource is not None
        },
        coded_on={
            pk: CodedOn(minutes=row["total"], last=row["last"])
            for pk, row in minutes["coded"].items()
            if pk is not None and row["total"] > 0
        },
    )
