"""The board counts each member's streak and "coded today" in that member's own day, and writes
dates in the viewer's language without a numeric order that readers elsewhere would misread."""

import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse

from tests.factories import CodingSessionFactory, ProfileFactory

pytestmark = pytest.mark.django_db

# 19:30 on Thursday 3 December in Toronto is 09:30 on Friday 4 December in Tokyo.
EVENING_IN_TORONTO = datetime(2026, 12, 4, 0, 30, tzinfo=ZoneInfo("UTC"))


def board_of(client, group, language="fr"):
    return client.get(
        reverse("groups:board", args=[group.slug]), headers={"accept-language": language}
    )


def member_row(response, name):
    return next(member for member in response.context["page"].members if member.name == name)


def member_html(response, name):
    html = response.content.decode()
    return re.search(rf"<h2 class=\"board__name\">{re.escape(name)}.*?</li>", html, re.S).group(0)


@pytest.fixture
def toronto_and_tokyo(learner, other_learner):
    """Ada lives in Toronto, Grace in Tokyo."""
    ProfileFactory(user=learner, time_zone="America/Toronto")
    ProfileFactory(user=other_learner, time_zone="Asia/Tokyo")


@time_machine.travel(EVENING_IN_TORONTO, tick=False)
def test_a_tokyo_member_who_coded_on_her_friday_has_coded_today_on_a_toronto_board(
    client_of, learner, other_learner, group, toronto_and_tokyo
):
    """Grace logged code on her Friday 4; Ada, still on Thursday 3, reads a 1-day streak."""
    CodingSessionFactory(user=other_learner, day=date(2026, 12, 4), minutes=120)
    response = board_of(client_of(learner), group)
    grace = member_row(response, "Grace H.")
    assert (grace.streak, grace.coded_today) == (1, True)
    html = member_html(response, "Grace H.")
    assert "1 jour" in html
    assert "codé aujourd’hui" in html or "codé aujourd'hui" in html


@time_machine.travel(EVENING_IN_TORONTO, tick=False)
def test_a_toronto_member_who_coded_on_her_thursday_keeps_it_on_a_tokyo_board(
    client_of, learner, other_learner, group, toronto_and_tokyo
):
    """Ada, who shows her week, coded on her Thursday 3, which is still today for her, though
    Friday in Tokyo."""
    group.memberships.filter(user=learner).update(shares="coding")
    CodingSessionFactory(user=learner, day=date(2026, 12, 2))
    CodingSessionFactory(user=learner, day=date(2026, 12, 3))
    response = board_of(client_of(other_learner), group, "en")
    ada = member_row(response, "Ada L.")
    assert (ada.streak, ada.coded_today) == (2, True)
    assert "coded today" in member_html(response, "Ada L.")


@time_machine.travel(EVENING_IN_TORONTO, tick=False)
def test_yesterday_keeps_the_streak_alive_but_is_not_coded_today(
    client_of, learner, other_learner, group, toronto_and_tokyo
):
    """Grace's Thursday is her yesterday: her streak holds, today is not coded yet."""
    CodingSessionFactory(user=other_learner, day=date(2026, 12, 3))
    response = board_of(client_of(learner), group)
    grace = member_row(response, "Grace H.")
    assert (grace.streak, grace.coded_today) == (1, False)
    assert "aujourd" not in member_html(response, "Grace H.")


@time_machine.travel(EVENING_IN_TORONTO, tick=False)
def test_a_member_without_a_profile_lives_in_the_site_time_zone(
    client_of, learner, other_learner, group
):
    """No profile, no zone: Paris, where it is already Friday 4 at 01:30."""
    CodingSessionFactory(user=other_learner, day=date(2026, 12, 4))
    grace = member_row(board_of(client_of(learner), group), "Grace H.")
    assert (grace.streak, grace.coded_today) == (1, True)


@time_machine.travel(EVENING_IN_TORONTO, tick=False)
def test_english_dates_name_the_month_day_first(
    client_of, learner, other_learner, group, toronto_and_tokyo
):
    """Ada's last activity is Thursday 3 December in Toronto, Friday 4 in Tokyo: Grace reads
    "4 December 2026", never 12/04/2026; Ada in French reads "3 décembre 2026", the long date
    of every sentence, never 03/12/2026 nor "Déc"."""
    CodingSessionFactory(user=learner, day=date(2026, 12, 3))
    english = member_html(board_of(client_of(other_learner), group, "en"), "Ada L.")
    assert "4 December 2026" in english
    assert "12/04/2026" not in english
    french = member_html(board_of(client_of(learner), group, "fr"), "Ada L.")
    assert "3 décembre 2026" in french
    assert "03/12/2026" not in french and "Déc" not in french
