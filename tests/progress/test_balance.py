from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from django.utils import translation

from progress.balance import Balance, ResourceCoding, balances, learner_minutes, week_bounds
from tests.factories import ChapterFactory, CodingSessionFactory, ResourceFactory, WatchEventFactory

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")
MONDAY_MORNING = datetime(2025, 3, 10, 10, 0, tzinfo=PARIS)


def english(balance):
    """The balance in words, as pages, the digest and the API say it."""
    with translation.override("en"):
        return balance.in_words()


def test_nothing_watched_says_so_instead_of_dividing_by_zero(learner):
    """With nothing watched the balance has no ratio and says there is nothing to balance."""
    week, overall = balances(learner)
    assert week.ratio is None and overall.ratio is None
    assert not week.is_met
    assert english(week) == "You have not watched anything this week yet: nothing to balance."
    assert english(overall) == "You have not watched anything yet: nothing to balance."


def test_coding_without_watching_is_counted_but_not_divided(learner):
    """Sessions without any video are reported, still without a ratio."""
    CodingSessionFactory(user=learner, minutes=120)
    week, _overall = balances(learner)
    assert week.ratio is None
    assert english(week) == (
        "You have not watched anything this week yet and coded 2\u00a0h: nothing to balance."
    )


def test_one_hour_watched_and_three_coded_meets_the_rule(learner):
    """1 h of video and 3 h of code is exactly the guide's rule."""
    WatchEventFactory(user=learner, minutes=60)
    CodingSessionFactory(user=learner, minutes=180)
    week, overall = balances(learner)
    assert week.ratio == 3.0 and week.is_met and week.code_needed == 0
    assert (
        english(week) == "You watched 1\u00a0h and coded 3\u00a0h this week: the 1:3 rule is met."
    )
    assert (
        english(overall) == "You watched 1\u00a0h and coded 3\u00a0h in all: the 1:3 rule is met."
    )
    assert week.meter_value == "3.00"


def test_too_little_code_says_how_much_more_is_needed(learner):
    """4 h watched and 6 h coded leaves 6 h of code before the next video."""
    WatchEventFactory(user=learner, minutes=240)
    CodingSessionFactory(user=learner, minutes=360)
    week, overall = balances(learner)
    assert week.code_needed == 360 and not week.is_met
    assert english(week) == (
        "You watched 4\u00a0h and coded 6\u00a0h this week: 6\u00a0h more code before the next video."
    )
    assert english(overall) == (
        "You watched 4\u00a0h and coded 6\u00a0h in all: 6\u00a0h more code to meet the 1:3 rule."
    )


def test_unmarking_removes_the_minutes_from_the_balance(learner):
    """A negative watch event (marked not watched) cancels what it undoes."""
    resource = ResourceFactory()
    WatchEventFactory(user=learner, resource=resource, kind="finished", minutes=60)
    WatchEventFactory(user=learner, resource=resource, kind="unfinished", minutes=-60)
    _week, overall = balances(learner)
    assert overall.watched == 0 and overall.ratio is None


def test_another_learner_counts_for_nothing(learner, other_learner):
    """Only the learner's own minutes make their balance."""
    WatchEventFactory(user=other_learner, minutes=600)
    CodingSessionFactory(user=other_learner, minutes=60)
    _week, overall = balances(learner)
    assert (overall.watched, overall.coded) == (0, 0)


def test_weeks_start_on_monday_midnight_in_the_site_time_zone():
    """Week bounds are aware instants at Monday 00:00 in Europe/Paris, across a DST change."""
    start, end = week_bounds(date(2025, 3, 30))  # the Sunday clocks go forward
    assert start == datetime(2025, 3, 24, 0, 0, tzinfo=PARIS)
    assert end == datetime(2025, 3, 31, 0, 0, tzinfo=PARIS)
    elapsed = end.astimezone(UTC) - start.astimezone(UTC)
    assert elapsed.total_seconds() == 7 * 24 * 3600 - 3600


@time_machine.travel(MONDAY_MORNING, tick=False)
def test_sunday_night_counts_for_last_week_and_monday_morning_for_this_one(learner):
    """Sunday 23:30 and Monday 00:30 in Paris fall in different weeks, for videos and code."""
    WatchEventFactory(user=learner, minutes=60, at=datetime(2025, 3, 9, 23, 30, tzinfo=PARIS))
    WatchEventFactory(user=learner, minutes=30, at=datetime(2025, 3, 10, 0, 30, tzinfo=PARIS))
    CodingSessionFactory(user=learner, minutes=100, day=date(2025, 3, 9))
    CodingSessionFactory(user=learner, minutes=45, day=date(2025, 3, 10))
    week, overall = balances(learner)
    assert (week.watched, week.coded) == (30, 45)
    assert (overall.watched, overall.coded) == (90, 145)


@time_machine.travel(datetime(2025, 3, 9, 23, 45, tzinfo=PARIS), tick=False)
def test_on_sunday_night_the_week_still_holds_sunday(learner):
    """Late on Sunday (already Monday in some zones) the current week is still last week."""
    WatchEventFactory(user=learner, minutes=60, at=datetime(2025, 3, 9, 23, 30, tzinfo=PARIS))
    CodingSessionFactory(user=learner, minutes=100, day=date(2025, 3, 9))
    week, _overall = balances(learner)
    assert (week.watched, week.coded) == (60, 100)


def test_the_meter_is_capped_at_the_goal_and_written_with_a_dot():
    """<meter> takes a dot decimal whatever the language, capped at 3."""
    assert Balance(watched=60, coded=600, this_week=True).meter_value == "3.00"
    assert Balance(watched=60, coded=90, this_week=True).meter_value == "1.50"
    assert Balance(watched=0, coded=90, this_week=True).meter_value == "0.00"


def test_the_coding_log_shows_the_balance_in_words_and_a_meter(learner_client, learner):
    """The balance partial says the sentence and carries a labelled <meter>."""
    WatchEventFactory(user=learner, minutes=240)
    CodingSessionFactory(user=learner, minutes=360)
    response = learner_client.get(reverse("progress:coding_log"), headers={"accept-language": "en"})
    html = response.content.decode()
    assert (
        "You watched 4\u00a0h and coded 6\u00a0h this week: 6\u00a0h more code before the next video."
        in html
    )
    assert '<meter id="balance-week"' in html and 'value="1.50"' in html
    assert '<label for="balance-week">1.5 h of code per hour watched (goal: 3)</label>' in html


@time_machine.travel(MONDAY_MORNING, tick=False)
def test_the_path_pages_minutes_agree_with_the_balance(learner):
    """learner_minutes (two grouped queries) gives the same balances as balances(), unmarking
    and code tied to no resource included, and each resource's own minutes."""
    talk, course = ResourceFactory(duration_minutes=60), ResourceFactory(duration_minutes=720)
    WatchEventFactory(
        user=learner, resource=talk, minutes=60, at=datetime(2025, 3, 3, 9, 0, tzinfo=PARIS)
    )
    WatchEventFactory(user=learner, resource=talk, minutes=-60)
    WatchEventFactory(user=learner, resource=course, minutes=90)
    CodingSessionFactory(user=learner, resource=course, minutes=100, day=date(2025, 3, 9))
    CodingSessionFactory(
        user=learner, resource=None, chapter=ChapterFactory(), minutes=45, day=date(2025, 3, 10)
    )
    minutes = learner_minutes(learner, [talk, course])
    assert (minutes.week, minutes.overall) == balances(learner)
    assert (minutes.week.watched, minutes.week.coded) == (30, 45)
    assert (minutes.overall.watched, minutes.overall.coded) == (90, 145)
    assert minutes.coding[course.pk] == ResourceCoding(watched=90, coded=100, duration=720)
    assert minutes.coding[talk.pk] == ResourceCoding(watched=0, coded=0, duration=60)


@pytest.mark.parametrize(
    ("watched", "coded", "duration", "is_coded", "is_partly_coded"),
    [
        (60, 0, 60, False, False),
        (60, 179, 60, False, True),
        (60, 180, 60, True, False),
        (30, 90, 60, False, True),  # the target is three times the whole talk, not what was seen
        (40, 120, None, True, False),  # no known length: three times what was watched
        (40, 119, None, False, True),
        (0, 30, None, True, False),  # nothing to balance: any code counts
        (0, 0, None, False, False),
    ],
)
def test_a_resource_is_coded_at_three_times_its_length(
    watched, coded, duration, is_coded, is_partly_coded
):
    """ "Coded" waits for the 1 : 3 target; below it, the resource is partly coded."""
    coding = ResourceCoding(watched=watched, coded=coded, duration=duration)
    assert (coding.is_coded, coding.is_partly_coded) == (is_coded, is_partly_coded)
