from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import translation

from progress.stats import learner_stats
from tests.factories import (
    CodingSessionFactory,
    FollowedResourceFactory,
    ResourceFactory,
    WatchEventFactory,
    WatchFactory,
)

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")
# Wednesday 18 November 2026, in the afternoon in Paris: its week starts on Monday 16.
TODAY = date(2026, 11, 18)
NOW = datetime(2026, 11, 18, 15, 0, tzinfo=PARIS)


def paris(*args):
    return datetime(*args, tzinfo=PARIS)


def week_of(stats, monday):
    return next(week for week in stats.weeks if week.monday == monday)


def practise(user, day, minutes=60):
    return CodingSessionFactory(user=user, day=day, minutes=minutes)


@time_machine.travel(NOW, tick=False)
def test_twelve_weeks_run_monday_to_sunday_ending_with_this_one(learner):
    """The chart covers the last 12 weeks, this one last, each starting on a Monday."""
    stats = learner_stats(learner)
    assert len(stats.weeks) == 12
    assert stats.weeks[-1].monday == date(2026, 11, 16)
    assert stats.weeks[0].monday == date(2026, 8, 31)
    assert all(week.monday.weekday() == 0 for week in stats.weeks)
    assert all((week.watched, week.coded) == (0, 0) for week in stats.weeks)


@time_machine.travel(NOW, tick=False)
def test_sunday_night_and_monday_night_fall_in_different_weeks_in_paris(learner):
    """Sunday 23:30 and Monday 00:30 in Paris are both Sunday in UTC, yet two weeks apart."""
    resource = ResourceFactory()
    WatchEventFactory(user=learner, resource=resource, minutes=60, at=paris(2026, 11, 15, 23, 30))
    WatchEventFactory(user=learner, resource=resource, minutes=30, at=paris(2026, 11, 16, 0, 30))
    practise(learner, date(2026, 11, 15), 90)
    practise(learner, date(2026, 11, 16), 45)
    practise(learner, date(2026, 11, 16), 15)
    stats = learner_stats(learner)
    assert (week_of(stats, date(2026, 11, 9)).watched, week_of(stats, date(2026, 11, 9)).coded) == (
        60,
        90,
    )
    assert (
        week_of(stats, date(2026, 11, 16)).watched,
        week_of(stats, date(2026, 11, 16)).coded,
    ) == (
        30,
        60,
    )
    assert week_of(stats, date(2026, 11, 16)).coded_hours == 1.0


@time_machine.travel(NOW, tick=False)
def test_weeks_stay_right_across_the_end_of_summer_time(learner):
    """Summer time ended on 25 October 2026: 23:30 that Sunday is still in its week."""
    resource = ResourceFactory()
    WatchEventFactory(user=learner, resource=resource, minutes=20, at=paris(2026, 10, 25, 23, 30))
    WatchEventFactory(user=learner, resource=resource, minutes=40, at=paris(2026, 10, 26, 0, 15))
    WatchEventFactory(user=learner, resource=resource, minutes=10, at=paris(2026, 10, 19, 0, 5))
    stats = learner_stats(learner)
    assert week_of(stats, date(2026, 10, 19)).watched == 30
    assert week_of(stats, date(2026, 10, 26)).watched == 40


@time_machine.travel(NOW, tick=False)
def test_unmarking_subtracts_and_older_weeks_and_other_learners_are_left_out(
    learner, other_learner
):
    """A week's watched minutes are the sum of its signed events; nothing else counts."""
    resource = ResourceFactory()
    WatchEventFactory(user=learner, resource=resource, minutes=90, at=paris(2026, 11, 2, 10, 0))
    WatchEventFactory(user=learner, resource=resource, minutes=-60, at=paris(2026, 11, 3, 10, 0))
    WatchEventFactory(user=learner, resource=resource, minutes=-50, at=paris(2026, 11, 10, 9, 0))
    WatchEventFactory(user=learner, resource=resource, minutes=500, at=paris(2026, 8, 30, 12, 0))
    WatchEventFactory(user=other_learner, resource=resource, minutes=45, at=paris(2026, 11, 2))
    practise(other_learner, date(2026, 11, 2), 200)
    stats = learner_stats(learner)
    assert week_of(stats, date(2026, 11, 2)).watched == 30
    assert week_of(stats, date(2026, 11, 9)).watched == 0  # never below nothing
    assert week_of(stats, date(2026, 11, 2)).coded == 0
    assert sum(week.watched for week in stats.weeks) == 30
    assert stats.total_watched == 90 - 60 - 50 + 500


@time_machine.travel(NOW, tick=False)
def test_the_longest_streak_and_a_broken_current_one(learner):
    """3 days, a gap, 5 days ending the day before yesterday: longest 5, current 0."""
    for back in (10, 9, 8, 6, 5, 4, 3, 2):
        practise(learner, TODAY - timedelta(days=back))
    practise(learner, TODAY - timedelta(days=2), 30)  # two sessions on one day are one day
    stats = learner_stats(learner)
    assert (stats.current_streak, stats.longest_streak) == (0, 5)


@time_machine.travel(NOW - timedelta(days=1), tick=False)
def test_the_current_streak_still_counts_before_today_is_logged(learner):
    """Yesterday ended a 5-day run: it still stands today."""
    for back in (10, 9, 8, 6, 5, 4, 3, 2):
        practise(learner, TODAY - timedelta(days=back))
    stats = learner_stats(learner)
    assert (stats.current_streak, stats.longest_streak) == (5, 5)


@time_machine.travel(NOW, tick=False)
def test_coding_today_extends_the_current_streak(learner):
    """Yesterday and today make a current streak of 2, the older run of 3 stays longest."""
    for back in (7, 6, 5, 1, 0):
        practise(learner, TODAY - timedelta(days=back))
    stats = learner_stats(learner)
    assert (stats.current_streak, stats.longest_streak) == (2, 3)


@time_machine.travel(NOW, tick=False)
def test_no_coding_session_means_no_streak_and_nothing_coded(learner):
    """A new learner has zero streaks and no ratio."""
    stats = learner_stats(learner)
    assert (stats.current_streak, stats.longest_streak, stats.total_coded) == (0, 0, 0)
    assert stats.balance.ratio is None


@time_machine.travel(NOW, tick=False)
def test_the_heatmap_holds_26_weeks_up_to_today_with_levels(learner):
    """26 columns of Monday-first days, the last one stopping today; minutes set the level."""
    for back, minutes in ((0, 30), (1, 31), (2, 60), (3, 61), (4, 120), (5, 121)):
        practise(learner, TODAY - timedelta(days=back), minutes)
    practise(learner, TODAY - timedelta(weeks=30), 100)
    columns = learner_stats(learner).heatmap
    assert len(columns) == 26
    assert all(len(column) == 7 for column in columns[:-1])
    assert [day.day for day in columns[-1]] == [date(2026, 11, 16), date(2026, 11, 17), TODAY]
    assert columns[0][0].day == date(2026, 5, 25)
    days = {day.day: day for column in columns for day in column}
    assert [days[TODAY - timedelta(days=back)].level for back in range(7)] == [1, 2, 2, 3, 3, 4, 0]
    assert days[TODAY].minutes == 30


@time_machine.travel(NOW, tick=False)
def test_totals_and_the_ratio(learner):
    """Totals sum all events and sessions; the ratio is coded over watched."""
    resource = ResourceFactory()
    WatchEventFactory(user=learner, resource=resource, minutes=60, at=paris(2025, 1, 6, 9, 0))
    WatchEventFactory(user=learner, resource=resource, minutes=60, at=paris(2026, 11, 17, 9, 0))
    practise(learner, date(2025, 1, 7), 200)
    practise(learner, TODAY, 100)
    stats = learner_stats(learner)
    assert (stats.total_watched, stats.total_coded) == (120, 300)
    assert stats.balance.ratio == 2.5
    assert stats.balance.meter_value == "2.50"


@time_machine.travel(NOW, tick=False)
def test_resources_finished_are_counted_per_kind(learner, other_learner):
    """Two lectures and one channel finished; an unfinished sitting and others' rows do not count."""
    WatchFactory.create_batch(2, user=learner, resource__kind="lecture", finished_at=NOW)
    WatchFactory(user=learner, resource=FollowedResourceFactory(), finished_at=NOW)
    WatchFactory(user=learner, resource__kind="course", logged_minutes=40)
    WatchFactory(user=other_learner, resource__kind="talk", finished_at=NOW)
    kinds = learner_stats(learner).finished_by_kind
    with translation.override("en"):
        assert [(str(label), count) for label, count in kinds] == [("lecture", 2), ("channel", 1)]
