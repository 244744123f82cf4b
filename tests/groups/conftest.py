from types import SimpleNamespace

import pytest

from groups import actions
from tests.factories import ResourceFactory, StageFactory, StepFactory, UserFactory


@pytest.fixture
def small_path(db):
    """A path of two stages and three lectures."""
    first = StageFactory(title="Week 1", first_week=1, last_week=1, order=1)
    then = StageFactory(path=first.path, title="Then", order=2)
    lectures = [ResourceFactory(slug=f"lecture-{n}", title=f"Lecture {n}") for n in (1, 2, 3)]
    StepFactory(stage=first, order=1, resource=lectures[0])
    StepFactory(stage=first, order=2, resource=lectures[1])
    StepFactory(stage=then, order=1, resource=lectures[2])
    return SimpleNamespace(path=first.path, lectures=lectures)


@pytest.fixture
def stranger(db):
    """A learner in no group of the others."""
    return UserFactory(username="mallory")


@pytest.fixture
def group(learner, other_learner):
    """Ada's group, which Grace joined later."""
    group = actions.create_group(owner=learner, name="Kernel club", display_name="Ada L.")
    invitation, _token = actions.create_link(group=group, days=7, max_uses=5)
    actions.join(
        user=other_learner, invitation=invitation, display_name="Grace H.", shares="coding"
    )
    return group


@pytest.fixture
def client_of(client):
    """A test client signed in as the given user."""

    def signed_in(user):
        client.force_login(user)
        return client

    return signed_in


def membership(group, user):
    return group.memberships.get(user=user)
