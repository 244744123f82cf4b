"""Arbitrary form data at every POST endpoint, as a signed-in learner: never a 500, and nothing
written for, or changed of, another learner."""

import copy
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from curriculum.models import Resource
from progress.models import CodingSession, Note, Profile, Watch, WatchEvent
from tests.factories import (
    CodingSessionFactory,
    FollowedResourceFactory,
    NoteFactory,
    ResourceFactory,
    UserFactory,
    WatchEventFactory,
)

pytestmark = pytest.mark.django_db

FIELDS = [
    "minutes", "day", "built", "code_url", "resource", "chapter", "idempotency_key", "text",
    "architecture", "started_on", "language", "password", "next", "place", "page",
]  # fmt: skip
NASTY = [
    "", "0", "-1", "1441", "99999999999999999999", "1e3", "NaN", "½", "١٢", " 10 ", "2999-12-31",
    "0001-01-01", "javascript:alert(1)", "//evil.example/", "<script>alert(1)</script>",
    "\x00", "a\x00b", "Ünïcödé 漢字 🙂", "x" * 20_000, "9" * 5_000, "00000000-0000-0000-0000-000000000000",
]  # fmt: skip
values = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=60),
    st.integers().map(str),
    st.lists(st.text(max_size=5), max_size=3),
)
form_data = st.dictionaries(
    st.one_of(st.sampled_from(FIELDS), st.text(max_size=10)), values, max_size=8
)

ENDPOINTS = [
    ("progress:mark_watched", "lecture"),
    ("progress:mark_not_watched", "lecture"),
    ("progress:log_sitting", "course"),
    ("progress:mark_followed", "channel"),
    ("progress:mark_not_followed", "channel"),
    ("progress:coding_session_add", "lecture"),
    ("progress:log_code_today", "lecture"),
    ("progress:note", "lecture"),
    ("progress:coding_log", None),
    ("progress:coding_session_edit", "own session"),
    ("progress:coding_session_delete", "own session"),
    ("progress:sitting_edit", "own sitting"),
    ("progress:sitting_delete", "own sitting"),
    ("accounts:settings", None),
    ("accounts:delete_account", None),
]


def rows_of(user):
    models = [Profile, Watch, WatchEvent, CodingSession, Note]
    rows = {
        model.__name__: list(model.objects.filter(user=user).order_by("pk").values())
        for model in models
    }
    rows["User"] = list(get_user_model().objects.filter(pk=user.pk).values())
    return rows


@pytest.fixture
def world(client, target):
    """Two learners, the resources the endpoints act on, the other's note and, for an endpoint on
    one of the learner's own rows, that row: made once per endpoint, restored after each example
    (in_a_savepoint), so that every example meets the same database."""
    learner = UserFactory(username="ada")
    other = UserFactory(username="grace")
    for slug, factory in [
        ("lecture", ResourceFactory),
        ("course", ResourceFactory),
        ("channel", FollowedResourceFactory),
    ]:
        resource = factory(slug=slug)
    NoteFactory.create(user=other, resource=resource)
    client.force_login(learner)
    if target == "own session":
        args = [CodingSessionFactory(user=learner).pk]
    elif target == "own sitting":
        course = Resource.objects.get(slug="course")
        args = [WatchEventFactory(user=learner, resource=course, minutes=30).pk]
    else:
        args = [target] if target else []
    return SimpleNamespace(
        other=other, args=args, before=rows_of(other), cookies=copy.deepcopy(client.cookies)
    )


@contextmanager
def in_a_savepoint():
    """What the example writes is rolled back when it ends."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.mark.parametrize(("name", "target"), ENDPOINTS)
@given(data=form_data, htmx=st.booleans())
def test_arbitrary_form_data_never_breaks_an_endpoint(client, world, name, target, data, htmx):
    """Whatever is posted: an answer below 500, and the other learner's rows exactly as they were."""
    headers = {"HX-Request": "true"} if htmx else {}
    # The session as signed in, whatever an earlier example did to it (sign-out, new password).
    client.cookies = copy.deepcopy(world.cookies)

    with in_a_savepoint():
        response = client.post(reverse(name, args=world.args), data, headers=headers)

        assert response.status_code < 500
        assert rows_of(world.other) == world.before
