"""Every one-click change's answer names it in an htmx event, `watch-changed`, with the resource,
its new state and the sentence the page says, whether the click came with htmx or not: the page's
other blocks follow it (static/js/blocks_follow.js). A refusal or a question changes nothing and
names nothing."""

import json

import pytest

from progress import actions
from progress.models import Watch
from tests.factories import FollowedResourceFactory, ResourceFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
HTMX = {"HX-Request": "true"} | EN


def event(response):
    return json.loads(response.headers["HX-Trigger"])


def lecture():
    return ResourceFactory(slug="scan", duration_minutes=60)


def course():
    return ResourceFactory(slug="cuda", kind="course", duration_minutes=720)


def channel():
    return FollowedResourceFactory(slug="gpu-mode")


def watched(learner, resource):
    actions.mark_watched(user=learner, resource=resource)


def followed(learner, resource):
    actions.mark_followed(user=learner, resource=resource)


# (click, resource, what was done before it, posted, the state the event names, its sentence)
CLICKS = [
    ("watched", lecture, None, {}, "done", "“%s” marked watched."),
    ("not-watched", lecture, watched, {}, "not_started", "“%s” marked not watched."),
    ("sittings", course, None, {"minutes": "45"}, "in_progress", "Sitting logged for “%s”."),
    ("followed", channel, None, {}, "done", "“%s” marked followed."),
    ("not-followed", channel, followed, {}, "not_started", "“%s” marked not followed."),
]


def named(resource, status, sentence):
    changed = {"resource": resource.slug, "status": status, "announcement": sentence}
    return {"watch-changed": changed}


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize(("click", "make", "before", "posted", "status", "sentence"), CLICKS)
def test_the_answer_names_the_change(
    learner, learner_client, htmx, click, make, before, posted, status, sentence
):
    """The event carries the resource's slug, its state after the click and what the page says."""
    resource = make()
    if before:
        before(learner, resource)
    response = learner_client.post(
        f"/resources/{resource.slug}/{click}/", posted, headers=HTMX if htmx else EN
    )
    assert response.status_code == (200 if htmx else 302)
    assert event(response) == named(resource, status, sentence % resource.title)


def test_a_double_click_names_the_state_again(learner, learner_client):
    """The second click changes nothing, but its answer still says where the resource stands."""
    resource = lecture()
    learner_client.post("/resources/scan/watched/", headers=HTMX)
    response = learner_client.post("/resources/scan/watched/", headers=HTMX)
    assert event(response) == named(resource, "done", f"“{resource.title}” marked watched.")
    assert Watch.objects.get(user=learner, resource=resource).is_finished


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_refusal_names_nothing(learner_client, htmx):
    """A channel cannot be watched: nothing changed, no event."""
    channel()
    response = learner_client.post("/resources/gpu-mode/watched/", headers=HTMX if htmx else {})
    assert "HX-Trigger" not in response.headers
    assert not Watch.objects.exists()


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_the_long_course_question_names_nothing(learner_client, htmx):
    """Twelve hours to credit: the learner is asked first, and nothing changed yet."""
    course()
    response = learner_client.post("/resources/cuda/watched/", headers=HTMX if htmx else {})
    assert response.status_code == 200
    assert "HX-Trigger" not in response.headers
    assert not Watch.objects.exists()


def test_the_confirmed_long_course_names_it_done(learner, learner_client):
    """Confirmed, the course is watched and the event says so."""
    resource = course()
    response = learner_client.post("/resources/cuda/watched/", {"confirm": "yes"}, headers=HTMX)
    assert event(response) == named(resource, "done", f"“{resource.title}” marked watched.")
    assert Watch.objects.get(user=learner, resource=resource).watched_minutes == 720
