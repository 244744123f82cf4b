"""The learner's day: today's code target under the 1 : 3 rule, what is coded today, the streak.

The target is what this week still owes under the rule, spread evenly over the week's remaining
days, today included: owed = 3 x watched this week - coded this week before today. Today's own
coding does not shrink today's target (it is what meets it); today's watching raises it. Days and
weeks are the learner's, in their time zone (progress/time_zone.py), whoever asks: a page, the
editor's status bar, a mail. Coded today counts every source (forms, one tap, CLI, editor).
"""

import math
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.db.models import Q, Sum
from django.utils import timezone

from lib.time_zone import zone_or_default
from progress.balance import GOAL, week_bounds, week_start
from progress.models import CodingSession, Profile, WatchEvent
from progress.stats import streaks

# No day asks for more than this, whatever the week owes: a 12 h course watched on a Sunday
# would otherwise make a 36 h day. The rest stays owed, and the week's figure says so.
MOST_IN_A_DAY = 4 * 60
# Targets are rounded up to this many minutes: "25 min", not "23 min".
ROUNDED_TO = 5


@dataclass(frozen=True)
class Today:
    """A learner's day: the code target, what is coded, the streak. All minutes are whole."""

    day: date
    target: int  # minutes of code to do today under 1:3 (0 when the week owes nothing)
    coded: int  # minutes coded today, every source
    week_owed: int  # minutes the week owes under 1:3, counted before today's coding
    days_left: int  # days left in the week, today included (7 on Monday, 1 on Sunday)
    streak: int  # consecutive days with code, ending today, or yesterday when today has none yet
    has_watched: bool  # anything watched, ever: before that, no target means anything
    has_coded: bool  # anything coded, ever

    @property
    def is_first_day(self):
        """Nothing watched nor coded yet: the day's advice is what to watch first."""
        return not self.has_watched and not self.has_coded

    @property
    def left(self):
        """Minutes of code still to do today to meet the target."""
        return max(self.target - self.coded, 0)

    @property
    def is_met(self):
        """Today's target is met (there was one, and it is coded)."""
        return self.target > 0 and self.coded >= self.target

    @property
    def owes_code(self):
        """The week owes code and today's share is not coded yet."""
        return self.left > 0

    @property
    def keeps_streak(self):
        """Something is coded today: the streak holds today."""
        return self.coded > 0

    @property
    def streak_at_risk(self):
        """A streak runs through yesterday and nothing is coded yet today."""
        return self.streak > 0 and not self.keeps_streak


def day_target(week_owed: int, days_left: int) -> int:
    """The week's owed minutes spread over the days left, rounded up, at most MOST_IN_A_DAY."""
    if week_owed <= 0:
        return 0
    share = math.ceil(week_owed / days_left / ROUNDED_TO) * ROUNDED_TO
    return min(share, MOST_IN_A_DAY)


def zone_of(user) -> ZoneInfo:
    """The learner's time zone, from their profile (the site's when none is set), one query."""
    name = Profile.objects.filter(user=user).values_list("time_zone", flat=True).first()
    return zone_or_default(name or "")


def today_for(user, *, now: datetime | None = None, zone: ZoneInfo | None = None) -> Today:
    """The learner's day at now (default: this instant) in their zone, in three queries (two when
    zone is given: a request has the learner's zone active already)."""
    zone = zone or zone_of(user)
    day = (now or timezone.now()).astimezone(zone).date()
    with timezone.override(zone):
        start, end = week_bounds(day)
    watched = WatchEvent.objects.for_learner(user).aggregate(
        week=Sum("minutes", filter=Q(at__gte=start, at__lt=end), default=0),
        ever=Sum("minutes", default=0),
    )
    return day_of(
        day,
        watched_this_week=watched["week"],
        watched_ever=watched["ever"],
        coded_by_day=coded_by_day(user, day),
    )


def coded_by_day(user, day: date) -> dict[date, int]:
    """Minutes the learner coded on each day up to day (their history), in one query."""
    return CodingSession.objects.for_learner(user).filter(day__lte=day).minutes_by_day()


def day_of(day: date, *, watched_this_week: int, watched_ever: int, coded_by_day) -> Today:
    """The Today of day from the minutes watched (this week, ever) and coded per day; no query.

    The dashboard calls it with the minutes its balances already read.
    """
    monday = week_start(day)
    coded_before_today = sum(m for d, m in coded_by_day.items() if monday <= d < day)
    week_owed = max(GOAL * max(watched_this_week, 0) - coded_before_today, 0)
    days_left = (monday + timedelta(days=7) - day).days
    current, _longest = streaks(coded_by_day, day)
    return Today(
        day=day,
        target=day_target(week_owed, days_left),
        coded=coded_by_day.get(day, 0),
        week_owed=week_owed,
        days_left=days_left,
        streak=current,
        has_watched=watched_ever > 0,
        has_coded=bool(coded_by_day),
    )
