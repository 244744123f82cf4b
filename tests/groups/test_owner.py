"""What the owner does: remove members, hand over the group, delete it; and owners who leave."""

import pytest
from django.urls import reverse

from groups import actions
from groups.models import Membership, StudyGroup
from tests.groups.conftest import membership

pytestmark = pytest.mark.django_db


def test_a_learner_creates_a_group_and_owns_it(client_of, learner):
    response = client_of(learner).post(
        reverse("groups:create"),
        {"name": "Warp specialists", "description": "Hopper kernels", "display_name": "Ada L."},
    )
    group = StudyGroup.objects.get()
    assert response.status_code == 302
    assert group.slug.startswith("warp-specialists-")
    mine = membership(group, learner)
    assert (mine.role, mine.display_name) == ("owner", "Ada L.")


def test_a_group_needs_a_name(client_of, learner):
    response = client_of(learner).post(reverse("groups:create"), {"name": "", "description": ""})
    assert response.status_code == 400
    assert not StudyGroup.objects.exists()


def test_the_owner_removes_a_member(client_of, learner, other_learner, group):
    grace = membership(group, other_learner)
    response = client_of(learner).post(reverse("groups:remove", args=[group.slug, grace.pk]))
    assert response.status_code == 302
    assert list(group.memberships.values_list("user", flat=True)) == [learner.pk]


def test_the_owner_cannot_remove_themselves(client_of, learner, group):
    ada = membership(group, learner)
    client_of(learner).post(reverse("groups:remove", args=[group.slug, ada.pk]))
    assert membership(group, learner).role == "owner"


def test_the_owner_hands_the_group_over(client_of, learner, other_learner, group):
    grace = membership(group, other_learner)
    response = client_of(learner).post(reverse("groups:make_owner", args=[group.slug, grace.pk]))
    assert response.status_code == 302
    assert membership(group, other_learner).role == "owner"
    assert membership(group, learner).role == "member"
    assert client_of(learner).get(reverse("groups:manage", args=[group.slug])).status_code == 404


def test_deleting_the_group_needs_the_confirmation(client_of, learner, group):
    client = client_of(learner)
    client.post(reverse("groups:delete", args=[group.slug]))
    assert StudyGroup.objects.filter(pk=group.pk).exists()
    response = client.post(reverse("groups:delete", args=[group.slug]), {"confirm": "1"})
    assert response.status_code == 302
    assert not StudyGroup.objects.exists()
    assert not Membership.objects.exists()


def test_an_owner_who_leaves_hands_the_group_to_the_longest_member(
    learner, other_learner, stranger, group
):
    invitation, _token = actions.create_link(group=group, days=1, max_uses=1)
    actions.join(user=stranger, invitation=invitation, display_name="M", shares="progress")
    heir = actions.leave(membership=membership(group, learner))
    assert heir.user == other_learner
    assert membership(group, other_learner).role == "owner"
    assert membership(group, stranger).role == "member"


def test_the_last_member_who_leaves_deletes_the_group(learner):
    group = actions.create_group(owner=learner, name="Alone", display_name="Ada")
    actions.leave(membership=membership(group, learner))
    assert not StudyGroup.objects.exists()


def test_a_learner_belongs_to_several_groups(client_of, learner, other_learner, group):
    actions.create_group(owner=other_learner, name="Second", display_name="G")
    page = client_of(other_learner).get(reverse("groups:list")).content.decode()
    assert "Kernel club" in page and "Second" in page
    assert Membership.objects.filter(user=other_learner).count() == 2
