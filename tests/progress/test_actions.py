import itertools

import pytest
from django.contrib.auth import get_user_model
from hypothesis import given
from hypothesis import strategies as st

from progress import actions
from progress.actions import ProgressError
from progress.models import Watch, WatchEvent
from tests.factories import FollowedResourceFactory, ResourceFactory

pytestmark = pytest.mark.django_db


def watch_of(user, resource):
    return Watch.objects.get(user=user, resource=resource)


def event_minutes(user):
    return WatchEvent.objects.for_learner(user).total_minutes()


def test_marking_watched_finishes_the_resource_and_counts_its_duration(learner):
    """One click finishes a lecture and logs its whole duration as watched."""
    lecture = ResourceFactory(duration_minutes=60)
    actions.mark_watched(user=learner, resource=lecture)
    watch = watch_of(learner, lecture)
    assert watch.is_finished
    assert watch.logged_minutes == 0
    assert watch.watched_minutes == 60
    event = WatchEvent.objects.get(user=learner)
    assert (event.kind, event.minutes) == ("finished", 60)


def test_marking_twice_keeps_one_row(learner):
    """A double click keeps one row and logs one event."""
    lecture = ResourceFactory()
    first = actions.mark_watched(user=learner, resource=lecture)
    actions.mark_watched(user=learner, resource=lecture)
    assert Watch.objects.filter(user=learner).count() == 1
    assert watch_of(learner, lecture).finished_at == first.finished_at
    assert WatchEvent.objects.filter(user=learner).count() == 1


def test_unmarking_restores_the_minutes_logged_before(learner):
    """Watched then not watched goes back to the sittings: no phantom minutes."""
    course = ResourceFactory(kind="course", duration_minutes=720)
    actions.log_sitting(user=learner, resource=course, minutes=90)
    actions.mark_watched(user=learner, resource=course)
    assert watch_of(learner, course).watched_minutes == 720
    actions.mark_not_watched(user=learner, resource=course)
    watch = watch_of(learner, course)
    assert not watch.is_finished
    assert watch.watched_minutes == 90
    assert event_minutes(learner) == 90
    assert list(WatchEvent.objects.filter(user=learner).values_list("minutes", flat=True)) == [
        -630,
        630,
        90,
    ]


def test_unmarking_a_resource_never_marked_changes_nothing(learner):
    """Not watched on something never touched creates no row and no event."""
    lecture = ResourceFactory()
    assert actions.mark_not_watched(user=learner, resource=lecture) is None
    assert not Watch.objects.exists()
    assert not WatchEvent.objects.exists()


def test_sittings_add_up_and_finish_the_resource_at_its_duration(learner):
    """90 + 90 minutes leave a 3-hour course in progress; the last 60 finish it."""
    course = ResourceFactory(kind="course", duration_minutes=240)
    actions.log_sitting(user=learner, resource=course, minutes=90)
    actions.log_sitting(user=learner, resource=course, minutes="90")
    assert watch_of(learner, course).logged_minutes == 180
    assert not watch_of(learner, course).is_finished
    actions.log_sitting(user=learner, resource=course, minutes=60)
    watch = watch_of(learner, course)
    assert watch.is_finished
    assert watch.watched_minutes == 240
    assert WatchEvent.objects.filter(user=learner, kind="sitting").count() == 3
    assert event_minutes(learner) == 240


def test_a_sitting_without_known_duration_never_finishes(learner):
    """A resource of unknown length stays in progress however long the sittings."""
    talk = ResourceFactory(duration_minutes=None)
    actions.log_sitting(user=learner, resource=talk, minutes=1440)
    assert not watch_of(learner, talk).is_finished
    assert watch_of(learner, talk).watched_minutes == 1440


def test_a_sitting_on_a_followed_kind_is_refused(learner):
    """A channel has no minutes: a sitting on it changes nothing."""
    channel = FollowedResourceFactory()
    with pytest.raises(ProgressError):
        actions.log_sitting(user=learner, resource=channel, minutes=30)
    with pytest.raises(ProgressError):
        actions.mark_watched(user=learner, resource=channel)
    assert not Watch.objects.exists()


@pytest.mark.parametrize("minutes", [0, -5, 1441, "abc", "", "1.5", None])
def test_a_sitting_outside_one_to_1440_minutes_is_refused(learner, minutes):
    """Zero, negative, more than a day or not a number: refused, nothing written."""
    course = ResourceFactory(kind="course", duration_minutes=720)
    with pytest.raises(ProgressError):
        actions.log_sitting(user=learner, resource=course, minutes=minutes)
    assert not Watch.objects.exists()
    assert not WatchEvent.objects.exists()


def test_following_marks_a_channel_without_minutes_and_only_once(learner):
    """Followed kinds get followed / not followed with zero minutes."""
    channel = FollowedResourceFactory()
    actions.mark_followed(user=learner, resource=channel)
    actions.mark_followed(user=learner, resource=channel)
    assert watch_of(learner, channel).is_finished
    actions.mark_not_followed(user=learner, resource=channel)
    actions.mark_not_followed(user=learner, resource=channel)
    assert not watch_of(learner, channel).is_finished
    kinds = list(WatchEvent.objects.filter(user=learner).values_list("kind", "minutes"))
    assert kinds == [("unfollowed", 0), ("followed", 0)]


def test_following_a_watched_kind_is_refused(learner):
    """A lecture is watched, not followed."""
    lecture = ResourceFactory()
    with pytest.raises(ProgressError):
        actions.mark_followed(user=learner, resource=lecture)
    with pytest.raises(ProgressError):
        actions.mark_not_followed(user=learner, resource=lecture)
    assert not Watch.objects.exists()


def test_one_learners_clicks_never_touch_another_learners_rows(learner, other_learner):
    """Each learner has their own row for the same resource."""
    lecture = ResourceFactory()
    actions.mark_watched(user=learner, resource=lecture)
    actions.log_sitting(user=other_learner, resource=lecture, minutes=10)
    assert watch_of(learner, lecture).watched_minutes == 60
    assert watch_of(other_learner, lecture).watched_minutes == 10
    assert not watch_of(other_learner, lecture).is_finished


NUMBERS = itertools.count()
OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(["watched", "not_watched", "sitting", "followed", "not_followed"]),
        st.integers(min_value=0, max_value=2),
        st.integers(min_value=1, max_value=400),
    ),
    max_size=12,
)


@given(operations=OPERATIONS)
def test_the_event_minutes_always_sum_to_the_watched_minutes(db, operations):
    """Whatever the clicks, history and current state agree, in Python and in the database."""
    # Not UserFactory: hashing a password per example would dominate the run.
    user = get_user_model().objects.create(username=f"hypothesis-{next(NUMBERS)}")
    resources = [
        ResourceFactory(slug="short", duration_minutes=45),
        ResourceFactory(slug="course", kind="course", duration_minutes=720),
        FollowedResourceFactory(slug="channel"),
    ]
    for name, index, minutes in operations:
        resource = resources[index]
        try:
            if name == "sitting":
                actions.log_sitting(user=user, resource=resource, minutes=minutes)
            else:
                getattr(actions, f"mark_{name}")(user=user, resource=resource)
        except ProgressError:
            pass
    watches = Watch.objects.for_learner(user).select_related("resource")
    current = sum(watch.watched_minutes for watch in watches)
    assert event_minutes(user) == current
    assert watches.total_watched_minutes() == current
    assert watches.count() <= 3
