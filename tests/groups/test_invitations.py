"""Invitation links (expiring, revocable, capped, stored hashed) and invitations by username."""

import re
from datetime import UTC, datetime, timedelta
from urllib.parse import quote

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from groups import actions
from groups.models import MAX_MEMBERS, Invitation, Membership
from lib.tokens import digest
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada_group(learner):
    return actions.create_group(owner=learner, name="Kernel club", display_name="Ada L.")


def make_link(client, group, days=7, max_uses=2):
    response = client.post(
        reverse("groups:create_link", args=[group.slug]), {"days": days, "max_uses": max_uses}
    )
    assert response.status_code == 200
    return re.search(r'value="(http[^"]+/groups/join/[^"]+/)"', response.content.decode()).group(1)


def test_the_owner_makes_a_link_shown_once_and_stored_as_a_digest(client_of, learner, ada_group):
    client = client_of(learner)
    response = client.post(
        reverse("groups:create_link", args=[ada_group.slug]), {"days": 7, "max_uses": 3}
    )
    url = re.search(r'value="(http[^"]+)"', response.content.decode()).group(1)
    token = url.rstrip("/").rsplit("/", 1)[-1]
    assert response["Cache-Control"] == "no-store"
    assert len(token) >= 40
    invitation = Invitation.objects.get()
    assert invitation.token_hash == digest(token) != token
    assert (invitation.max_uses, invitation.uses) == (3, 0)
    assert token not in client.get(reverse("groups:manage", args=[ada_group.slug])).content.decode()


def test_another_learner_joins_with_the_link(client_of, learner, other_learner, ada_group):
    url = make_link(client_of(learner), ada_group)
    client = client_of(other_learner)
    page = client.get(url)
    assert page.status_code == 200
    assert "Kernel club" in page.content.decode()
    response = client.post(url, {"display_name": "Grace H.", "shares": "progress"})
    assert response.status_code == 302
    assert response["Location"] == reverse("groups:board", args=[ada_group.slug])
    member = Membership.objects.get(user=other_learner)
    assert (member.group, member.display_name, member.role) == (ada_group, "Grace H.", "member")
    assert Invitation.objects.get().uses == 1


def test_joining_twice_keeps_one_membership(client_of, learner, other_learner, ada_group):
    url = make_link(client_of(learner), ada_group)
    client = client_of(other_learner)
    client.post(url, {"display_name": "Grace", "shares": "progress"})
    response = client.post(url, {"display_name": "Grace", "shares": "progress"})
    assert response.status_code == 302
    assert Membership.objects.filter(user=other_learner).count() == 1
    assert Invitation.objects.get().uses == 1


def test_an_expired_link_says_so(client_of, learner, other_learner, ada_group):
    url = make_link(client_of(learner), ada_group, days=1)
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1)):
        client = client_of(other_learner)
        page = client.get(url)
        response = client.post(url, {"display_name": "Grace", "shares": "progress"})
    assert page.status_code == response.status_code == 410
    assert "expir" in page.content.decode()
    assert not Membership.objects.filter(user=other_learner).exists()


def test_a_revoked_link_says_so(client_of, learner, other_learner, ada_group):
    owner = client_of(learner)
    url = make_link(owner, ada_group)
    invitation = Invitation.objects.get()
    owner.post(reverse("groups:revoke", args=[ada_group.slug, invitation.pk]))
    response = client_of(other_learner).post(url, {"display_name": "Grace", "shares": "progress"})
    assert response.status_code == 410
    assert "révoquée" in response.content.decode() or "revoked" in response.content.decode()
    assert not Membership.objects.filter(user=other_learner).exists()


def test_a_link_lets_in_no_more_learners_than_its_cap(client_of, learner, ada_group):
    url = make_link(client_of(learner), ada_group, max_uses=1)
    first, second = UserFactory(), UserFactory()
    client_of(first).post(url, {"display_name": "First", "shares": "progress"})
    response = client_of(second).post(url, {"display_name": "Second", "shares": "progress"})
    assert response.status_code == 410
    assert list(ada_group.memberships.values_list("display_name", flat=True).order_by("pk")) == [
        "Ada L.",
        "First",
    ]


def test_a_group_never_grows_beyond_the_board(learner, ada_group):
    """With MAX_MEMBERS members, even an open link lets nobody else in."""
    invitation, _token = actions.create_link(group=ada_group, days=7, max_uses=MAX_MEMBERS)
    for _ in range(MAX_MEMBERS - 1):
        actions.join(user=UserFactory(), invitation=invitation, display_name="x", shares="progress")
    late = actions.create_link(group=ada_group, days=7, max_uses=1)[0]
    with pytest.raises(actions.GroupError):
        actions.join(user=UserFactory(), invitation=late, display_name="y", shares="progress")
    assert ada_group.memberships.count() == MAX_MEMBERS


def test_an_unknown_or_altered_token_is_a_404(client_of, learner, other_learner, ada_group):
    url = make_link(client_of(learner), ada_group)
    client = client_of(other_learner)
    assert client.get(url[:-2] + "x/").status_code == 404
    assert client.get(reverse("groups:join", args=["nothing-here"])).status_code == 404


def test_a_signed_out_visitor_reads_who_invites_them_to_which_group(client_of, learner, ada_group):
    """The link names the group and its owner, and offers sign up and sign in that come back."""
    url = make_link(client_of(learner), ada_group)
    path = url.split("testserver", 1)[1]
    response = Client().get(path, headers={"accept-language": "en"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ada L. invites you to the study group “Kernel club” on Parcours." in html
    assert f'href="{reverse("signup")}?next={quote(path)}"' in html
    assert f'href="{reverse("login")}?next={quote(path)}"' in html
    assert Invitation.objects.get().uses == 0


def test_signing_up_from_the_invitation_comes_back_to_the_join_page(client_of, learner, ada_group):
    url = make_link(client_of(learner), ada_group)
    path = url.split("testserver", 1)[1]
    visitor = Client()
    response = visitor.post(
        reverse("signup") + "?next=" + quote(path),
        {
            "username": "noah",
            "email": "noah@example.com",
            "password1": "a long pass phrase 42",
            "password2": "a long pass phrase 42",
            "next": path,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == path
    page = visitor.get(path, headers={"accept-language": "en"})
    assert "Join the group" in page.content.decode()
    assert not Membership.objects.filter(user__username="noah").exists()


def test_a_signed_out_visitor_with_a_revoked_link_learns_it_cannot_be_used(
    client_of, learner, ada_group
):
    url = make_link(client_of(learner), ada_group)
    Invitation.objects.get().revoke()
    response = Client().get(url.split("testserver", 1)[1])
    assert response.status_code == 410
    assert "Kernel club" not in response.content.decode()


def test_a_signed_out_post_to_the_link_is_sent_to_sign_in(client_of, learner, ada_group):
    url = make_link(client_of(learner), ada_group)
    path = url.split("testserver", 1)[1]
    response = Client().post(path, {"display_name": "Anon", "shares": "progress"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert Membership.objects.count() == 1


def test_inviting_by_username_then_accepting(client_of, learner, other_learner, ada_group):
    response = client_of(learner).post(
        reverse("groups:invite", args=[ada_group.slug]), {"username": "GRACE"}
    )
    assert response.status_code == 302
    invitation = Invitation.objects.get(invitee=other_learner)
    client = client_of(other_learner)
    listing = client.get(reverse("groups:list")).content.decode()
    assert reverse("groups:invitation", args=[invitation.pk]) in listing
    response = client.post(
        reverse("groups:invitation", args=[invitation.pk]),
        {"display_name": "Grace", "shares": "coding"},
    )
    assert response.status_code == 302
    assert Membership.objects.get(user=other_learner).shares == "coding"
    assert not Invitation.objects.filter(invitee=other_learner).exists()


def test_an_invitation_by_username_is_for_that_learner_only(
    client_of, learner, other_learner, stranger, ada_group
):
    invitation = actions.invite_by_username(group=ada_group, invitee=other_learner)
    client = client_of(stranger)
    url = reverse("groups:invitation", args=[invitation.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, {"display_name": "M", "shares": "progress"}).status_code == 404
    assert client.post(reverse("groups:decline", args=[invitation.pk])).status_code == 404
    assert not Membership.objects.filter(user=stranger).exists()
    assert Invitation.objects.filter(pk=invitation.pk).exists()


def test_declining_an_invitation_deletes_it(client_of, learner, other_learner, ada_group):
    invitation = actions.invite_by_username(group=ada_group, invitee=other_learner)
    response = client_of(other_learner).post(reverse("groups:decline", args=[invitation.pk]))
    assert response.status_code == 302
    assert not Invitation.objects.exists()
    assert not Membership.objects.filter(user=other_learner).exists()


def test_an_unknown_username_or_a_member_is_refused(client_of, learner, ada_group):
    client = client_of(learner)
    url = reverse("groups:invite", args=[ada_group.slug])
    assert client.post(url, {"username": "nobody"}).status_code == 400
    assert client.post(url, {"username": "ada"}).status_code == 400
    assert not Invitation.objects.exists()


def test_bad_link_settings_are_refused(client_of, learner, ada_group):
    client = client_of(learner)
    url = reverse("groups:create_link", args=[ada_group.slug])
    for data in (
        {"days": 7, "max_uses": 0},
        {"days": 7, "max_uses": 51},
        {"days": 365, "max_uses": 2},
    ):
        assert client.post(url, data).status_code == 400
    assert not Invitation.objects.exists()


def test_an_expired_link_says_so_in_english_too(client_of, learner, other_learner, ada_group):
    url = make_link(client_of(learner), ada_group, days=1)
    with time_machine.travel(timezone.now() + timedelta(days=2)):
        response = client_of(other_learner).get(url, headers={"accept-language": "en"})
    assert response.status_code == 410
    assert "This invitation has expired." in response.content.decode()
    assert not Membership.objects.filter(user=other_learner).exists()


@time_machine.travel(datetime(2026, 12, 5, 12, 0, tzinfo=UTC), tick=False)
def test_the_new_link_says_who_may_join_with_it_and_until_when_in_words(
    client_of, learner, ada_group
):
    """French reads "avec ce lien jusqu’au 12 décembre 2026": no word missing, no 12/12/2026."""
    response = client_of(learner).post(
        reverse("groups:create_link", args=[ada_group.slug]),
        {"days": 7, "max_uses": 3},
        headers={"accept-language": "fr"},
    )
    html = response.content.decode()
    assert "3 personnes peuvent rejoindre le groupe avec ce lien jusqu’au 12 décembre 2026." in html
    assert "12/12/2026" not in html
    manage = client_of(learner).get(
        reverse("groups:manage", args=[ada_group.slug]), headers={"accept-language": "en"}
    )
    assert "works until 12 December 2026" in manage.content.decode()
