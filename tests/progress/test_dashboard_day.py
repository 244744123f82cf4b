"""The dashboard's day from the learner's minutes coded per day (progress/today.py's coded_by_day,
the streak from progress/stats.py's streaks): the same figures as the stats page, however long or
old the history."""

import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine

from progress import actions
from progress.models import Profile
from tests.factories import CodingSessionFactory

pytestmark = pytest.mark.django_db

# Wednesday 18 November 2026, 15:00 in Paris: the week started on Monday the 16th.
NOW = datetime.datetime(2026, 11, 18, 15, 0, tzinfo=ZoneInfo("Europe/Paris"))
TODAY = datetime.date(2026, 11, 18)
EN = {"accept-language": "en"}


def coded_on(learner, days, minutes=30):
    for day in days:
        CodingSessionFactory(user=learner, minutes=minutes, day=day)


def today_card(client):
    html = client.get("/", headers=EN).content.decode()
    return html[html.index('<section id="today"') :].split("</section>")[0]


def stats(client):
    return client.get("/stats/", headers=EN).content.decode()


@time_machine.travel(NOW, tick=False)
def test_a_streak_into_last_week_counts_every_day_of_it(learner, learner_client, seed_path):
    """Every day from Thursday the 12th to today, and one day long before: seven days."""
    coded_on(learner, [TODAY - datetime.timedelta(days=n) for n in range(7)])
    coded_on(learner, [datetime.date(2026, 10, 1)])
    card = today_card(learner_client)
    assert "7-day coding streak, today included." in card
    assert "Current streak</dt><dd>7 days</dd>" in stats(learner_client)
    assert Profile.objects.filter(user=learner).exists()


@time_machine.travel(NOW, tick=False)
def test_a_streak_that_ends_yesterday_still_counts(learner, learner_client, seed_path):
    coded_on(learner, [TODAY - datetime.timedelta(days=n) for n in (1, 2, 3, 9)])
    card = today_card(learner_client)
    assert "3-day coding streak: code today to keep it." in card


@time_machine.travel(NOW, tick=False)
def test_a_learner_who_coded_long_ago_only_is_asked_to_start_a_streak(
    learner, learner_client, seed_path
):
    """No streak, but they have coded: not day one."""
    coded_on(learner, [datetime.date(2026, 9, 1), datetime.date(2026, 10, 20)])
    card = today_card(learner_client)
    assert "Code today to start a streak." in card
    assert "coding streak" not in card


@time_machine.travel(NOW, tick=False)
def test_a_long_run_long_ago_is_not_the_current_streak(learner, learner_client, seed_path):
    """A hundred days in a row months ago, then yesterday and today (45 minutes): two days."""
    coded_on(learner, [datetime.date(2026, 5, 1) + datetime.timedelta(days=n) for n in range(100)])
    coded_on(learner, [TODAY - datetime.timedelta(days=1)])
    coded_on(learner, [TODAY], minutes=45)
    card = today_card(learner_client)
    assert "2-day coding streak, today included." in card
    assert "coded 45\xa0min" not in card  # nothing watched: the card asks to watch first
    assert "Current streak</dt><dd>2 days</dd>" in stats(learner_client)


@time_machine.travel(NOW, tick=False)
def test_today_counts_every_session_of_the_day(learner, learner_client, seed_path):
    """An hour watched this week owes three of code; Tuesday's hour leaves two over five days:
    25 minutes today, met by today's two sessions."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    coded_on(learner, [TODAY], minutes=20)
    coded_on(learner, [TODAY], minutes=25)
    coded_on(learner, [TODAY - datetime.timedelta(days=1)], minutes=60)
    card = today_card(learner_client)
    assert "Today’s 25\xa0min of code are done (45\xa0min coded)." in card
    assert "2-day coding streak, today included." in card


@time_machine.travel(NOW, tick=False)
def test_sessions_on_later_days_do_not_count_today(learner, learner_client, seed_path):
    """A session dated tomorrow (logged ahead) is neither today's code nor part of the streak."""
    coded_on(learner, [TODAY + datetime.timedelta(days=1)])
    card = today_card(learner_client)
    assert "coding streak" not in card


def test_an_account_without_a_profile_gets_its_dashboard(learner, learner_client, seed_path):
    """Accounts made by createsuperuser have no profile row until a page needs one."""
    Profile.objects.filter(user=learner).delete()
    response = learner_client.get("/", headers=EN)
    assert response.status_code == 200
    assert 'id="today"' in response.content.decode()
    assert Profile.objects.filter(user=learner).count() == 1
