"""Group actions racing each other end in one consistent state, every request answered cleanly.

PostgreSQL only (SQLite serialises writes). Each thread is a learner's own test Client; a 500
raises in the client, so run_at_once's error check is the "no 500" assertion.
"""

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from groups import actions
from groups.models import Invitation, Membership, StudyGroup
from tests.factories import UserFactory
from tests.progress.test_concurrency import run_at_once

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="races need PostgreSQL (set DATABASE_URL)"
    ),
    pytest.mark.django_db(transaction=True),
]

JOIN = {"display_name": "Zoé", "shares": "progress"}


def client_of(user):
    client = Client()
    client.force_login(user)
    return client


def a_group(owner_name="ada"):
    owner = UserFactory(username=owner_name)
    return owner, actions.create_group(owner=owner, name="Kernels", display_name="Ada")


def test_eight_accepts_of_one_invitation_make_one_membership():
    """A double-click on "accept", eight times over: one membership, every answer a redirect."""
    _owner, group = a_group()
    zoe = UserFactory(username="zoe")
    invitation = actions.invite_by_username(group=group, invitee=zoe)
    clients = [client_of(zoe) for _ in range(8)]
    url = reverse("groups:invitation", args=[invitation.pk])

    responses = run_at_once(lambda index: clients[index].post(url, JOIN), count=8)

    assert {response.status_code for response in responses} <= {302, 404}
    assert Membership.objects.filter(group=group, user=zoe).count() == 1
    assert not Invitation.objects.filter(pk=invitation.pk).exists()


def test_accepts_racing_declines_leave_one_answer():
    """Three accepts and three declines at once: joined or not, the invitation gone, no 500."""
    _owner, group = a_group()
    zoe = UserFactory(username="zoe")
    invitation = actions.invite_by_username(group=group, invitee=zoe)
    clients = [client_of(zoe) for _ in range(6)]
    accept = reverse("groups:invitation", args=[invitation.pk])
    decline = reverse("groups:decline", args=[invitation.pk])

    def work(index):
        if index % 2:
            return clients[index].post(decline)
        return clients[index].post(accept, JOIN)

    responses = run_at_once(work, count=6)

    assert {response.status_code for response in responses} <= {302, 404, 410}
    assert Membership.objects.filter(group=group, user=zoe).count() <= 1
    assert not Invitation.objects.filter(pk=invitation.pk).exists()


def test_four_hand_overs_at_once_leave_one_owner():
    """The owner hands the group to four members at once: one wins, the others are refused.

    A hand-over that meets the group while another holds its lock is refused on the owner's page
    (302); one that starts after another has landed finds a former owner, to whom owner pages are a
    404 as to any member. Which of the two each loser gets depends on the threads' timing."""
    owner, group = a_group()
    heirs = []
    for number in range(4):
        member = UserFactory(username=f"member{number}")
        heirs.append(Membership.objects.create(group=group, user=member, display_name=f"M{number}"))
    clients = [client_of(owner) for _ in range(4)]
    urls = [reverse("groups:make_owner", args=[group.slug, heir.pk]) for heir in heirs]

    responses = run_at_once(lambda index: clients[index].post(urls[index]), count=4)

    statuses = [response.status_code for response in responses]
    assert set(statuses) <= {302, 404}
    assert 302 in statuses
    owners = Membership.objects.filter(group=group, role=Membership.Role.OWNER)
    assert owners.count() == 1
    assert owners.get().user != owner


def test_deleting_a_group_while_learners_join_ends_with_no_group():
    """The owner deletes while ten learners join through a link: the group and all its rows go."""
    owner, group = a_group()
    _link, token = actions.create_link(group=group, days=7, max_uses=50)
    joiners = [client_of(UserFactory(username=f"joiner{number}")) for number in range(10)]
    owner_client = client_of(owner)
    join_url = reverse("groups:join", args=[token])
    delete_url = reverse("groups:delete", args=[group.slug])

    def work(index):
        if index == 10:
            return owner_client.post(delete_url, {"confirm": "on"})
        return joiners[index].post(join_url, JOIN)

    responses = run_at_once(work, count=11)

    assert responses[10].status_code == 302
    assert {response.status_code for response in responses[:10]} <= {302, 404, 410}
    assert not StudyGroup.objects.filter(pk=group.pk).exists()
    assert not Membership.objects.filter(group_id=group.pk).exists()
