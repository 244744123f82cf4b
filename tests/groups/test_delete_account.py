"""Deleting an account takes the learner out of every group and hands on what they owned."""

import pytest
from django.urls import reverse

from groups import actions
from groups.models import Membership, ShareLink, StudyGroup
from tests.factories import PASSWORD, UserFactory
from tests.groups.conftest import membership

pytestmark = pytest.mark.django_db


def delete_account(client, user):
    client.force_login(user)
    response = client.post(reverse("accounts:delete_account"), {"password": PASSWORD})
    assert response.status_code == 302


def test_an_owner_hands_the_group_to_the_member_who_joined_first(
    client, learner, other_learner, stranger, group
):
    """Grace joined before Mallory: Grace owns the group once Ada's account is gone."""
    link, _token = actions.create_link(group=group, days=7, max_uses=1)
    actions.join(user=stranger, invitation=link, display_name="Mallory", shares="progress")
    delete_account(client, learner)
    assert membership(group, other_learner).role == "owner"
    assert membership(group, stranger).role == "member"
    assert not Membership.objects.filter(user_id=learner.pk).exists()


def test_a_group_whose_only_member_deletes_their_account_is_deleted(client, learner):
    actions.create_group(owner=learner, name="Alone", display_name="Ada")
    delete_account(client, learner)
    assert not StudyGroup.objects.exists()


def test_a_member_who_deletes_their_account_leaves_the_board(client, learner, other_learner, group):
    delete_account(client, other_learner)
    assert list(group.memberships.values_list("user", flat=True)) == [learner.pk]
    client.force_login(learner)
    page = client.get(reverse("groups:board", args=[group.slug])).context["page"]
    assert [member.name for member in page.members] == ["Ada L."]


def test_the_share_link_goes_with_the_account(client, learner):
    _link, token = actions.share(user=learner, display_name="Ada")
    delete_account(client, learner)
    assert not ShareLink.objects.exists()
    assert client.get(reverse("groups:shared", args=[token])).status_code == 404


def test_other_groups_are_left_alone(client, learner, other_learner):
    theirs = actions.create_group(owner=other_learner, name="Grace's", display_name="G")
    UserFactory()
    delete_account(client, learner)
    assert membership(theirs, other_learner).role == "owner"
