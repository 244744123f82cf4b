"""Caps per learner and per group (groups/models.py): past each, the form says why in the
learner's language and nothing is made."""

import pytest
from django.urls import reverse

from groups import actions
from groups.models import (
    MAX_GROUPS_PER_LEARNER,
    MAX_OPEN_LINKS_PER_GROUP,
    MAX_PENDING_INVITATIONS_PER_GROUP,
    Invitation,
    Membership,
    StudyGroup,
)
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
NEW_GROUP = {"name": "One more", "description": "", "display_name": "Ada"}


def groups_of(user, count):
    return [
        actions.create_group(owner=user, name=f"Group {n}", display_name="Ada")
        for n in range(count)
    ]


def test_a_learner_creates_groups_up_to_the_cap(client_of, learner):
    groups_of(learner, MAX_GROUPS_PER_LEARNER - 1)
    response = client_of(learner).post(reverse("groups:create"), NEW_GROUP)
    assert response.status_code == 302
    assert Membership.objects.filter(user=learner).count() == MAX_GROUPS_PER_LEARNER


def test_past_the_cap_a_learner_creates_no_group_and_reads_why(client_of, learner):
    groups_of(learner, MAX_GROUPS_PER_LEARNER)
    response = client_of(learner).post(reverse("groups:create"), NEW_GROUP, headers=EN)
    assert response.status_code == 400
    assert f"You are in {MAX_GROUPS_PER_LEARNER} groups already" in response.content.decode()
    assert StudyGroup.objects.count() == MAX_GROUPS_PER_LEARNER


def test_the_refusal_is_in_french_too(client_of, learner):
    groups_of(learner, MAX_GROUPS_PER_LEARNER)
    response = client_of(learner).post(
        reverse("groups:create"), NEW_GROUP, headers={"accept-language": "fr"}
    )
    assert f"Vous êtes déjà dans {MAX_GROUPS_PER_LEARNER} groupes" in response.content.decode()


def test_past_the_cap_a_learner_joins_no_group_with_a_link(client_of, learner, other_learner):
    """Joined groups count as owned ones do."""
    groups_of(other_learner, MAX_GROUPS_PER_LEARNER)
    club = actions.create_group(owner=learner, name="Club", display_name="Ada")
    _link, token = actions.create_link(group=club, days=7, max_uses=5)
    response = client_of(other_learner).post(
        reverse("groups:join", args=[token]),
        {"display_name": "Grace", "shares": "coding"},
        headers=EN,
    )
    assert response.status_code == 410
    assert f"You are in {MAX_GROUPS_PER_LEARNER} groups already" in response.content.decode()
    assert not club.memberships.filter(user=other_learner).exists()


def test_past_the_cap_an_owner_makes_no_more_open_links(client_of, learner):
    club = actions.create_group(owner=learner, name="Club", display_name="Ada")
    for _n in range(MAX_OPEN_LINKS_PER_GROUP):
        actions.create_link(group=club, days=7, max_uses=2)
    url = reverse("groups:create_link", args=[club.slug])
    response = client_of(learner).post(url, {"days": 7, "max_uses": 2}, headers=EN)
    assert response.status_code == 400
    assert f"{MAX_OPEN_LINKS_PER_GROUP} open links already" in response.content.decode()
    assert club.invitations.count() == MAX_OPEN_LINKS_PER_GROUP


def test_a_revoked_link_no_longer_counts(client_of, learner):
    club = actions.create_group(owner=learner, name="Club", display_name="Ada")
    links = [actions.create_link(group=club, days=7, max_uses=2)[0] for _n in range(20)]
    links[0].revoke()
    url = reverse("groups:create_link", args=[club.slug])
    response = client_of(learner).post(url, {"days": 7, "max_uses": 2})
    assert response.status_code == 200
    assert club.invitations.open_links().count() == MAX_OPEN_LINKS_PER_GROUP


def test_past_the_cap_an_owner_invites_nobody_more_by_username(client_of, learner):
    club = actions.create_group(owner=learner, name="Club", display_name="Ada")
    for n in range(MAX_PENDING_INVITATIONS_PER_GROUP):
        actions.invite_by_username(group=club, invitee=UserFactory(username=f"learner-{n}"))
    UserFactory(username="one-more")
    url = reverse("groups:invite", args=[club.slug])
    response = client_of(learner).post(url, {"username": "one-more"}, headers=EN)
    assert response.status_code == 400
    assert "invitations of this group wait for an answer already" in response.content.decode()
    assert not Invitation.objects.filter(invitee__username="one-more").exists()
