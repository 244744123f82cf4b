"""Learners racing through one invitation link never push a group past its caps (PostgreSQL only)."""

import pytest
from django.db import connection
from django.urls import reverse

from groups import actions
from groups.models import Invitation, Membership
from tests.factories import UserFactory
from tests.progress.test_concurrency import run_at_once, signed_in_clients

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite serialises every write with one database lock: needs PostgreSQL.",
    ),
    pytest.mark.django_db(transaction=True),
]

RACERS = 20


def test_twenty_learners_racing_through_a_link_for_five_leave_five_members_in(db):
    owner = UserFactory(username="ada")
    group = actions.create_group(owner=owner, name="Club", display_name="Ada")
    _invitation, token = actions.create_link(group=group, days=7, max_uses=5)
    url = reverse("groups:join", args=[token])
    clients = [signed_in_clients(UserFactory(), count=1)[0] for _ in range(RACERS)]

    responses = run_at_once(
        lambda index: clients[index].post(url, {"display_name": f"L{index}", "shares": "progress"}),
        count=RACERS,
    )

    assert sorted(response.status_code for response in responses).count(302) == 5
    assert all(response.status_code in (302, 410) for response in responses)
    assert Membership.objects.filter(group=group).count() == 6
    assert Invitation.objects.get().uses == 5


def test_one_learner_double_clicking_join_gets_one_membership(db):
    owner, learner = UserFactory(username="ada"), UserFactory(username="grace")
    group = actions.create_group(owner=owner, name="Club", display_name="Ada")
    _invitation, token = actions.create_link(group=group, days=7, max_uses=5)
    url = reverse("groups:join", args=[token])
    clients = signed_in_clients(learner, count=10)

    responses = run_at_once(
        lambda index: clients[index].post(url, {"display_name": "Grace", "shares": "progress"}),
        count=10,
    )

    assert all(response.status_code == 302 for response in responses)
    assert Membership.objects.filter(group=group, user=learner).count() == 1
    assert Invitation.objects.get().uses == 1
