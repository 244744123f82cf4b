"""Every group address is a 404 to anyone outside the group; owner pages to anyone but the owner."""

import pytest
from django.test import Client
from django.urls import reverse

from groups.models import Invitation, Membership, StudyGroup
from tests.groups.conftest import membership

pytestmark = pytest.mark.django_db

MEMBER_PAGES = [("board", "get"), ("update_membership", "post"), ("leave", "post")]
OWNER_PAGES = [
    ("manage", "get"),
    ("create_link", "post"),
    ("invite", "post"),
    ("delete", "post"),
]


def urls_of(group, owner_membership, other_membership, invitation):
    slug = group.slug
    yield from ((reverse(f"groups:{name}", args=[slug]), method) for name, method in MEMBER_PAGES)
    yield from ((reverse(f"groups:{name}", args=[slug]), method) for name, method in OWNER_PAGES)
    yield reverse("groups:revoke", args=[slug, invitation.pk]), "post"
    yield reverse("groups:remove", args=[slug, other_membership.pk]), "post"
    yield reverse("groups:make_owner", args=[slug, other_membership.pk]), "post"


@pytest.fixture
def every_url(group, learner, other_learner):
    invitation = group.invitations.first()
    return list(
        urls_of(group, membership(group, learner), membership(group, other_learner), invitation)
    )


def test_a_stranger_gets_404_on_every_group_address(client_of, stranger, group, every_url):
    """Mallory, in no group, learns nothing: not even that the group exists."""
    client = client_of(stranger)
    for url, method in every_url:
        data = {"confirm": "1", "display_name": "x", "shares": "progress", "username": "ada"}
        response = getattr(client, method)(url, data)
        assert response.status_code == 404, url
    assert StudyGroup.objects.filter(pk=group.pk).exists()
    assert group.memberships.count() == 2
    assert not Membership.objects.filter(user=stranger).exists()


def test_a_member_who_is_not_the_owner_gets_404_on_owner_pages(
    client_of, other_learner, group, every_url
):
    client = client_of(other_learner)
    owner_urls = every_url[len(MEMBER_PAGES) :]
    for url, method in owner_urls:
        assert getattr(client, method)(url, {"confirm": "1"}).status_code == 404, url
    assert membership(group, other_learner).role == "member"
    assert group.invitations.get().revoked_at is None


def test_an_invitation_of_another_group_cannot_be_revoked_through_ones_own(
    client_of, learner, stranger, group
):
    """Mallory owns a group too: her group's address does not reach Ada's invitations."""
    from groups import actions

    own = actions.create_group(owner=stranger, name="Mallory's", display_name="M")
    theirs = group.invitations.get()
    response = client_of(stranger).post(reverse("groups:revoke", args=[own.slug, theirs.pk]))
    assert response.status_code == 404
    assert Invitation.objects.get(pk=theirs.pk).revoked_at is None


def test_state_changes_need_the_csrf_token(learner, group):
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    response = client.post(reverse("groups:delete", args=[group.slug]), {"confirm": "1"})
    assert response.status_code == 403
    assert StudyGroup.objects.filter(pk=group.pk).exists()
