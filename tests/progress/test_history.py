"""The dashboard's one statement (progress/history.py) reads what the separate queries read: the
revision token, the profile, the watch rows, the minutes per resource and per day, on the database
the suite runs on (SQLite, or PostgreSQL in CI)."""

import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone

from curriculum.models import Revision
from progress import actions
from progress.balance import learner_minutes, minutes_of
from progress.history import history_of
from progress.models import Profile, Watch, WatchEvent
from progress.today import coded_by_day, day_of
from tests.factories import (
    ArchitectureFactory,
    ChapterFactory,
    CodingSessionFactory,
    ResourceFactory,
)

pytestmark = pytest.mark.django_db

# Wednesday 18 November 2026, 15:00 in Paris: the week started on Monday the 16th.
NOW = datetime.datetime(2026, 11, 18, 15, 0, tzinfo=ZoneInfo("Europe/Paris"))
TODAY = datetime.date(2026, 11, 18)


def today_from(days):
    return day_of(TODAY, watched_this_week=60, watched_ever=150, coded_by_day=days)


def fields(instance):
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.fields}


@pytest.fixture
@time_machine.travel(NOW, tick=False)
def histories(learner, other_learner):
    """Two learners with watching and coding this week, last week, on resources and a chapter."""
    talk = ResourceFactory(slug="talk", duration_minutes=60)
    course = ResourceFactory(slug="course", kind="course", duration_minutes=720)
    chapter = ChapterFactory()
    for user in (learner, other_learner):
        actions.mark_watched(user=user, resource=talk)
        actions.log_sitting(user=user, resource=course, minutes=90)
        CodingSessionFactory(user=user, resource=talk, minutes=45, day=TODAY)
        CodingSessionFactory(user=user, resource=talk, minutes=30, day=TODAY)
        CodingSessionFactory(user=user, resource=None, chapter=chapter, minutes=20, day=TODAY)
        CodingSessionFactory(user=user, resource=course, minutes=60, day=TODAY.replace(day=10))
        CodingSessionFactory(user=user, resource=course, minutes=15, day=TODAY.replace(day=19))
    WatchEvent.objects.filter(user=learner, resource=course).update(at=NOW.replace(day=12))
    Watch.objects.filter(user=learner, resource=course).update(resume_seconds=125)
    Profile.objects.for_learner(learner)
    Profile.objects.filter(user=learner).update(
        architecture=ArchitectureFactory(slug="hopper"),
        started_on=TODAY.replace(day=2),
        time_zone="Europe/Paris",
        records_viewing=False,
    )
    return [talk, course]


@time_machine.travel(NOW, tick=False)
def test_the_statement_reads_what_the_separate_queries_read(learner, histories):
    """Same token, profile, watch rows, balances, coding per resource and coding days."""
    with timezone.override(ZoneInfo("Europe/Paris")):
        history = history_of(learner, TODAY)
        expected_minutes = learner_minutes(learner, histories, TODAY)
        expected_days = coded_by_day(learner, TODAY)
    assert history.token == Revision.objects.values_list("token", flat=True).first()
    assert history.profile is not None
    assert fields(history.profile) == fields(Profile.objects.get(user=learner))
    watches = sorted(history.watches, key=lambda watch: watch.pk)
    assert [fields(w) for w in watches] == [
        fields(w) for w in Watch.objects.filter(user=learner).order_by("pk")
    ]
    assert minutes_of(history.minutes, histories) == expected_minutes
    assert expected_minutes.week.watched == 60 and expected_minutes.overall.watched == 150
    assert expected_days == {TODAY: 95, TODAY.replace(day=10): 60}
    # Last week's Tuesday is neither this week, nor in a streak, nor the last day coded.
    assert history.coded_by_day == {TODAY: 95}
    assert today_from(history.coded_by_day) == today_from(expected_days)


def test_a_learner_with_no_history_reads_nothing_but_the_token(learner, django_assert_num_queries):
    """No profile row yet, nothing watched or coded: one statement, empty history."""
    with django_assert_num_queries(1):
        history = history_of(learner, TODAY)
    assert history.profile is None
    assert history.watches == [] and history.coded_by_day == {}
    assert history.minutes == {"watched": {}, "coded": {}}
    assert not Profile.objects.filter(user=learner).exists()


def day_read(learner, coded_days):
    """The days history_of reads after the learner coded 30 minutes on each of coded_days, and
    the Today made from them and from every day of their history."""
    for day in coded_days:
        CodingSessionFactory(user=learner, minutes=30, day=day)
    with timezone.override(ZoneInfo("Europe/Paris")):
        read = history_of(learner, TODAY).coded_by_day
        every_day = coded_by_day(learner, TODAY)
    assert today_from(read) == today_from(every_day)
    return read, today_from(read)


@time_machine.travel(NOW, tick=False)
def test_a_streak_into_last_week_is_read_to_its_first_day_and_no_further(learner):
    """Every day from Thursday the 12th to today (Wednesday the 18th), and one day long before."""
    streak = [TODAY - datetime.timedelta(days=n) for n in range(7)]
    read, today = day_read(learner, [*streak, datetime.date(2026, 10, 1)])
    assert set(read) == set(streak)
    assert today.streak == 7 and today.coded == 30


@time_machine.travel(NOW, tick=False)
def test_a_streak_that_ends_yesterday_is_read_and_still_counts(learner):
    days = [TODAY - datetime.timedelta(days=n) for n in (1, 2, 3, 9)]
    read, today = day_read(learner, days)
    assert set(read) == set(days[:3])
    assert today.streak == 3 and today.coded == 0


@time_machine.travel(NOW, tick=False)
def test_a_learner_who_coded_long_ago_only_is_read_one_day_and_has_coded(learner):
    """No streak and nothing this week: the last day coded says that they have coded."""
    read, today = day_read(learner, [datetime.date(2026, 9, 1), datetime.date(2026, 10, 20)])
    assert read == {datetime.date(2026, 10, 20): 30}
    assert today.has_coded and today.streak == 0 and today.week_owed == 180


@time_machine.travel(NOW, tick=False)
def test_a_long_history_is_not_read_day_by_day(learner):
    """A hundred days coded in a row months ago, then yesterday and today: two days are read."""
    long_ago = [datetime.date(2026, 5, 1) + datetime.timedelta(days=n) for n in range(100)]
    yesterday = TODAY - datetime.timedelta(days=1)
    read, today = day_read(learner, [*long_ago, yesterday, TODAY])
    assert set(read) == {yesterday, TODAY}
    assert today.streak == 2
