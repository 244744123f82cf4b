"""Arbitrary form data at every groups endpoint: never a 500, and another group left exactly as it was."""

import copy
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from groups import actions
from groups.models import Invitation, Membership, ShareLink, StudyGroup
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

FIELDS = [
    "name",
    "description",
    "display_name",
    "shares",
    "days",
    "max_uses",
    "username",
    "confirm",
]
NASTY = [
    "", "0", "-1", "51", "99999999999999999999", "NaN", "<script>alert(1)</script>", "\x00",
    "a\x00b", "Ünïcödé 漢字 🙂", "x" * 5_000, "coding", "progress", "owner", "grace", "7",
]  # fmt: skip
values = st.one_of(st.sampled_from(NASTY), st.text(max_size=40), st.integers().map(str))
form_data = st.dictionaries(
    st.one_of(st.sampled_from(FIELDS), st.text(max_size=8)), values, max_size=6
)

ENDPOINTS = [
    "groups:create",
    "groups:update_membership",
    "groups:create_link",
    "groups:invite",
    "groups:join",
    "groups:share_settings",
    "groups:delete",
]


def state_of(group):
    return {
        "group": list(StudyGroup.objects.filter(pk=group.pk).values()),
        "members": list(Membership.objects.filter(group=group).order_by("pk").values()),
        "invitations": list(Invitation.objects.filter(group=group).order_by("pk").values()),
    }


@pytest.fixture
def world(client, name):
    """Ada's group with a share link, Grace's group: made once per endpoint, restored after each
    example (in_a_savepoint), so that every example meets the same database."""
    ada, grace = UserFactory(username="ada"), UserFactory(username="grace")
    own = actions.create_group(owner=ada, name="Ada's", display_name="Ada")
    theirs = actions.create_group(owner=grace, name="Grace's", display_name="Grace")
    _invitation, token = actions.create_link(group=own, days=7, max_uses=2)
    client.force_login(ada if name != "groups:join" else UserFactory(username="bob"))
    args = {"groups:create": [], "groups:share_settings": [], "groups:join": [token]}.get(
        name, [own.slug]
    )
    return SimpleNamespace(
        grace=grace,
        theirs=theirs,
        args=args,
        before=state_of(theirs),
        cookies=copy.deepcopy(client.cookies),
    )


@contextmanager
def in_a_savepoint():
    """What the example writes is rolled back when it ends."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.mark.parametrize("name", ENDPOINTS)
@given(data=form_data)
def test_arbitrary_form_data_never_breaks_a_groups_endpoint(client, world, name, data):
    # The session as signed in, whatever an earlier example did to it.
    client.cookies = copy.deepcopy(world.cookies)

    with in_a_savepoint():
        response = client.post(reverse(name, args=world.args), data)

        assert response.status_code < 500
        assert state_of(world.theirs) == world.before
        assert not ShareLink.objects.filter(user=world.grace).exists()
