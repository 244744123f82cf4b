"""Two learners in different states served by one process: every figure of / and /path/ is each
learner's own, whatever the process built or cached for the other (issue 38)."""

import datetime
import re

import pytest
from django.test import Client
from django.utils import timezone

from progress import actions
from tests.factories import CodingSessionFactory, UserFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}

# Each figure the dashboard prints of a learner, by what it says.
FIGURES = {
    "states": r'<li class="step step--([a-z_]+)" id="step-\d+"',
    "bars": r'(?:id="stage-\d+-bar"|for="bar-path-steps")>([^<]+)<',
    "meters": r'<progress [^>]*max="(\d+)" value="(\d+)">([^<]*)</progress>',
    "in progress": r"(In progress: [^<]+?)\s*<",
    "badges": r'<span class="watch__badge[^"]*">([^<]+)<',
    "balances": r'<p class="balance__sentence">(?:<span[^>]*>✓</span> )?([^<]+)<',
    "ratios": r'<meter id="(balance-\w+)"[^>]*value="([^"]+)">',
    "today": r'<p class="today__(?:goal|coded|week|streak)">(.+?)</p>',
    "coded": r'<(?:p|label) class="coded__line">(.+?)(?:</p>|<progress)',
    "one tap": r"<legend>([^<]+)</legend>",
    "next up": r'<p class="next-up__title">(.+?)</p>',
}


def figures(html):
    return {name: re.findall(pattern, html, re.S) for name, pattern in FIGURES.items()}


def page(client, url):
    response = client.get(url, headers=EN)
    assert response.status_code == 200
    return figures(response.content.decode())


@pytest.fixture
def two_learners(seed_path):
    """Ada part-way with a streak kept today and a step skipped; Grace further on, her streak
    ending yesterday."""
    today = timezone.localdate()
    ada, grace = UserFactory(username="ada-apart"), UserFactory(username="grace-apart")
    actions.mark_watched(user=ada, resource=seed_path.start)
    actions.log_sitting(user=ada, resource=seed_path.course, minutes=90)
    actions.skip(user=ada, resource=seed_path.lectures[1])
    for back in range(3):
        day = today - datetime.timedelta(days=back)
        CodingSessionFactory(user=ada, resource=seed_path.start, minutes=40, day=day)
    actions.mark_watched(user=grace, resource=seed_path.start)
    actions.mark_watched(user=grace, resource=seed_path.lectures[0])
    actions.log_sitting(user=grace, resource=seed_path.course, minutes=30)
    for back in (1, 2):
        day = today - datetime.timedelta(days=back)
        CodingSessionFactory(user=grace, resource=seed_path.lectures[0], minutes=75, day=day)
    clients = {}
    for user in (ada, grace):
        clients[user.username] = Client()
        clients[user.username].force_login(user)
    return clients["ada-apart"], clients["grace-apart"]


@pytest.mark.parametrize("url", ["/", "/path/"])
def test_each_learner_sees_only_their_own_figures(two_learners, url):
    """Ada, Grace, then Ada and Grace again: each time their own figures, never the other's."""
    ada, grace = two_learners
    ada_first, grace_first = page(ada, url), page(grace, url)
    ada_again, grace_again = page(ada, url), page(grace, url)

    assert ada_first == ada_again
    assert grace_first == grace_again
    assert ada_first["states"] == [
        "done", "not_started", "skipped", "in_progress", "not_started", "not_started",
        "not_started",
    ]  # fmt: skip
    assert grace_first["states"] == [
        "done", "done", "not_started", "in_progress", "not_started", "not_started", "not_started",
    ]  # fmt: skip
    assert "In progress: 1\xa0h\xa030 of 12\xa0h" in ada_first["in progress"]
    assert "In progress: 30\xa0min of 12\xa0h" in grace_first["in progress"]
    assert (
        ada_first["bars"][0]
        == "1 watched, 1 skipped of 7 steps · 2\xa0h\xa030 watched of 16\xa0h\xa030"
    )
    assert grace_first["bars"][0] == "2 of 7 steps done · 2\xa0h\xa030 watched of 16\xa0h\xa030"
    assert "3-day coding streak, today included." in ada_first["today"]
    assert "2-day coding streak: code today to keep it." in grace_first["today"]
    assert ada_first["balances"] != grace_first["balances"]
    assert ada_first["meters"] != grace_first["meters"]
