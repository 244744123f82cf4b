import pytest
from django.contrib.messages import get_messages

from progress.models import Watch, WatchEvent
from tests.factories import FollowedResourceFactory, ResourceFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
HTMX = {"HX-Request": "true", "accept-language": "en"}


def url(resource):
    return f"/resources/{resource.slug}/sittings/"


@pytest.fixture
def course(db):
    return ResourceFactory(kind="course", title="CUDA course", duration_minutes=720)


def test_sittings_add_up_and_finish_the_course_at_its_duration(learner, learner_client, course):
    """90 minutes at a time, eight times: 720 minutes, finished."""
    for _ in range(7):
        learner_client.post(url(course), {"minutes": "90"})
    watch = Watch.objects.get(user=learner, resource=course)
    assert (watch.logged_minutes, watch.is_finished) == (630, False)
    response = learner_client.post(url(course), {"minutes": "90"}, headers=EN)
    messages = [str(m) for m in get_messages(response.wsgi_request)]
    assert messages[-1] == "Sitting logged for “CUDA course”."
    watch.refresh_from_db()
    assert (watch.logged_minutes, watch.is_finished) == (720, True)


@pytest.mark.parametrize("minutes", ["0", "-30", "1441", "ninety", "", "1.5"])
def test_bad_minutes_redirect_with_a_message_and_change_nothing(learner_client, course, minutes):
    """Without JavaScript: back to the page with the error as a message."""
    response = learner_client.post(url(course), {"minutes": minutes, "next": "/"}, headers=EN)
    assert response.status_code == 302
    message = next(str(m) for m in get_messages(response.wsgi_request))
    assert "minutes" in message
    assert not Watch.objects.exists()


@pytest.mark.parametrize(
    ("minutes", "error"),
    [
        ("0", "A sitting lasts from 1 to 1440 minutes (24 hours)."),
        ("1441", "A sitting lasts from 1 to 1440 minutes (24 hours)."),
        ("abc", "Enter the minutes you watched as a whole number."),
    ],
)
def test_with_htmx_bad_minutes_come_back_in_the_form_with_the_error(
    learner_client, seed_path, minutes, error
):
    """The form fragment again, status 422, the error readable and tied to the field."""
    step = seed_path.steps[3]
    response = learner_client.post(
        url(seed_path.course),
        {"minutes": minutes},
        headers=HTMX | {"HX-Target": f"step-{step.pk}-watch"},
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert html.lstrip().startswith(
        f'<div class="watch watch--not_started" id="step-{step.pk}-watch">'
    )
    assert error in html
    assert f'aria-describedby="step-{step.pk}-error"' in html
    assert f'value="{minutes}"' in html
    assert not Watch.objects.exists()


def test_a_sitting_on_a_followed_kind_is_refused(learner_client):
    """Channels have no minutes: htmx gets 422 with the reason, nothing written."""
    channel = FollowedResourceFactory()
    response = learner_client.post(url(channel), {"minutes": "30"}, headers=HTMX)
    assert response.status_code == 422
    assert "followed, not watched" in response.content.decode()
    assert not WatchEvent.objects.exists()


def test_with_htmx_a_sitting_updates_the_step_bar(learner_client, seed_path):
    """The step's controls show its minutes, its bar and its sitting form (the 12 h course is known
    to be long, its form is shown on the path); in the path's refresh the course's stage tally
    and the balance follow."""
    step = seed_path.steps[3]
    response = learner_client.post(
        url(seed_path.course),
        {"minutes": "180"},
        headers=HTMX | {"HX-Target": f"step-{step.pk}-watch"},
    )
    html = response.content.decode()
    assert "In progress: 3\u00a0h of 12\u00a0h" in html
    assert f'id="step-{step.pk}-minutes"' in html
    assert f'id="step-{step.pk}-log"' in html
    assert "watch__sitting--unmapped" not in html
    html = learner_client.get("/", {"changed": seed_path.course.slug}, headers=HTMX)
    html = html.content.decode()
    assert f'id="stage-{seed_path.stages[1].pk}-bar" hx-swap-oob="true"' in html
    balance = html.split('id="balance"')[1].split("</details>")[0]
    assert "You watched 3\u00a0h and coded 0\u00a0min in all: 9\u00a0h more code" in balance


def test_an_unknown_slug_is_404(learner_client):
    """No such course: 404."""
    response = learner_client.post("/resources/nope/sittings/", {"minutes": "30"})
    assert response.status_code == 404
