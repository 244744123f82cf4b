"""The learner's day (progress/today.py): today's code target under 1:3, coded today, the streak."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from progress.models import Profile
from progress.today import MOST_IN_A_DAY, today_for
from tests.factories import CodingSessionFactory, ProfileFactory, ResourceFactory, WatchEventFactory

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")
TOKYO = ZoneInfo("Asia/Tokyo")
# Wednesday 18 November 2026, 15:00 in Paris: five days are left in the week, today included.
WEDNESDAY = date(2026, 11, 18)
NOW = datetime(2026, 11, 18, 15, 0, tzinfo=PARIS)


def watched(user, minutes, at=NOW - timedelta(hours=1)):
    return WatchEventFactory(user=user, resource=ResourceFactory(), minutes=minutes, at=at)


def coded(user, day, minutes):
    return CodingSessionFactory(user=user, day=day, minutes=minutes)


@pytest.fixture
def parisian(learner):
    ProfileFactory(user=learner, time_zone="Europe/Paris")
    return learner


def test_a_new_learner_has_no_target_and_no_streak(parisian):
    """Day one, nothing watched nor coded: no target, nothing owed, the first-day advice applies."""
    today = today_for(parisian, now=NOW)
    assert (today.day, today.target, today.coded, today.streak) == (WEDNESDAY, 0, 0, 0)
    assert today.is_first_day and not today.has_watched and not today.owes_code


def test_the_weeks_debt_is_spread_over_the_days_left_today_included(parisian):
    """1 h watched this week owes 3 h; Wednesday to Sunday is five days: 36 min, rounded to 40."""
    watched(parisian, 60)
    today = today_for(parisian, now=NOW)
    assert (today.week_owed, today.days_left, today.target, today.left) == (180, 5, 40, 40)
    assert today.owes_code and not today.is_first_day


def test_coding_earlier_in_the_week_lowers_the_target(parisian):
    """Of 3 h owed, 1 h 40 coded on Monday leaves 1 h 20 over five days: 16 min, rounded to 20."""
    watched(parisian, 60)
    coded(parisian, date(2026, 11, 16), 100)
    today = today_for(parisian, now=NOW)
    assert (today.week_owed, today.target) == (80, 20)


def test_coding_today_meets_the_target_without_moving_it(parisian):
    """Today's coding is counted against today's target, which stays put."""
    watched(parisian, 60)
    coded(parisian, WEDNESDAY, 30)
    coded(parisian, WEDNESDAY, 15)
    today = today_for(parisian, now=NOW)
    assert (today.target, today.coded, today.left) == (40, 45, 0)
    assert today.is_met and not today.owes_code and today.keeps_streak


def test_last_weeks_watching_owes_nothing_this_week(parisian):
    """Only this week's watching sets the target: a video of last week owes nothing today."""
    watched(parisian, 60, at=NOW - timedelta(days=7))
    today = today_for(parisian, now=NOW)
    assert (today.target, today.week_owed) == (0, 0)
    assert today.has_watched and not today.is_first_day


def test_a_huge_week_asks_at_most_four_hours_a_day(parisian):
    """A 12 h course watched on Sunday owes 36 h: the day asks for four, the week says 36."""
    sunday = datetime(2026, 11, 22, 20, 0, tzinfo=PARIS)
    watched(parisian, 12 * 60, at=sunday - timedelta(hours=1))
    today = today_for(parisian, now=sunday)
    assert (today.days_left, today.week_owed, today.target) == (1, 36 * 60, MOST_IN_A_DAY)


def test_the_streak_counts_through_yesterday_until_today_is_coded(parisian):
    """Three days up to yesterday: a streak of 3, at risk; coding today makes it 4 and keeps it."""
    for days_ago in (1, 2, 3):
        coded(parisian, WEDNESDAY - timedelta(days=days_ago), 30)
    before = today_for(parisian, now=NOW)
    coded(parisian, WEDNESDAY, 30)
    after = today_for(parisian, now=NOW)
    assert (before.streak, before.streak_at_risk, before.keeps_streak) == (3, True, False)
    assert (after.streak, after.streak_at_risk, after.keeps_streak) == (4, False, True)


def test_a_gap_breaks_the_streak(parisian):
    """Coded two days ago but not yesterday: no streak."""
    coded(parisian, WEDNESDAY - timedelta(days=2), 30)
    today = today_for(parisian, now=NOW)
    assert (today.streak, today.streak_at_risk, today.has_coded) == (0, False, True)


def test_the_day_is_the_learners_own(learner):
    """At 23:30 on Wednesday in Paris it is already Thursday in Tokyo: a Tokyo learner's today is
    Thursday, four days are left, and what they coded on Thursday is today's."""
    ProfileFactory(user=learner, time_zone="Asia/Tokyo")
    late = datetime(2026, 11, 18, 23, 30, tzinfo=PARIS)
    coded(learner, date(2026, 11, 19), 30)
    today = today_for(learner, now=late)
    assert (today.day, today.days_left, today.coded, today.streak) == (date(2026, 11, 19), 4, 30, 1)


def test_monday_starts_a_new_week_in_the_learners_zone(learner):
    """Watched at Monday 00:30 in Tokyo (Sunday in Paris): it is this week's for the Tokyo learner."""
    ProfileFactory(user=learner, time_zone="Asia/Tokyo")
    monday = datetime(2026, 11, 23, 0, 30, tzinfo=TOKYO)
    watched(learner, 70, at=monday)
    today = today_for(learner, now=monday + timedelta(hours=1))
    assert (today.days_left, today.week_owed, today.target) == (7, 210, 30)


def test_unmarking_everything_is_like_never_watching(parisian):
    """Marked watched then not watched: the events sum to nothing, so no target and day-one advice."""
    resource = ResourceFactory()
    WatchEventFactory(user=parisian, resource=resource, kind="finished", minutes=60, at=NOW)
    WatchEventFactory(user=parisian, resource=resource, kind="unfinished", minutes=-60, at=NOW)
    today = today_for(parisian, now=NOW)
    assert (today.target, today.has_watched, today.is_first_day) == (0, False, True)


def test_future_days_are_not_counted(parisian):
    """A session dated tomorrow (a Tokyo day seen from Paris) is not today's nor the streak's."""
    coded(parisian, WEDNESDAY + timedelta(days=1), 30)
    today = today_for(parisian, now=NOW)
    assert (today.coded, today.streak) == (0, 0)


def test_a_learner_without_a_profile_is_counted_in_the_sites_zone(learner, settings):
    """No profile row (createsuperuser): the site's zone, and no profile is created."""
    settings.TIME_ZONE = "Europe/Paris"
    coded(learner, WEDNESDAY, 30)
    today = today_for(learner, now=NOW)
    assert (today.day, today.coded) == (WEDNESDAY, 30)
    assert not Profile.objects.filter(user=learner).exists()


@pytest.mark.parametrize("days", [1, 40])
def test_the_day_takes_three_queries_whatever_the_history(
    parisian, days, django_assert_num_queries
):
    """The profile's zone, the watched minutes, the coded days: three queries for any history."""
    for days_ago in range(days):
        coded(parisian, WEDNESDAY - timedelta(days=days_ago), 30)
        watched(parisian, 20, at=NOW - timedelta(days=days_ago))
    with django_assert_num_queries(3):
        today = today_for(parisian, now=NOW)
    assert today.streak == days


def test_another_learners_rows_do_not_count(parisian, other_learner):
    """Someone else's watching and coding change nothing in the learner's day."""
    watched(other_learner, 60)
    coded(other_learner, WEDNESDAY, 60)
    today = today_for(parisian, now=NOW)
    assert (today.target, today.coded, today.streak) == (0, 0, 0)
