"""One click on "watched" for a long course asks before it counts hours not logged in sittings."""

import pytest
from django.contrib.messages import get_messages

from progress import actions
from progress.models import Watch, WatchEvent
from tests.factories import ResourceFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
HTMX = {"HX-Request": "true", "accept-language": "en"}


@pytest.fixture
def course(db):
    return ResourceFactory(slug="cuda", kind="course", title="CUDA course", duration_minutes=720)


def url(resource):
    return f"/resources/{resource.slug}/watched/"


def test_a_twelve_hour_course_asks_first_and_changes_nothing(learner, learner_client, course):
    """Without JavaScript: a page with the question, a confirm button and a way back."""
    response = learner_client.post(url(course), {"next": "/path/"}, headers=EN)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Mark “CUDA course” watched? This counts 12\u00a0h more as watched" in html
    assert '<input type="hidden" name="confirm" value="yes">' in html
    assert 'href="/path/"' in html
    assert not Watch.objects.exists() and not WatchEvent.objects.exists()


def test_without_javascript_the_question_keeps_the_place_it_came_from(learner_client, course):
    """The question's page is a page of its own: its forms and its way back keep the step's
    anchor, so that confirming or cancelling lands back on the step."""
    response = learner_client.post(url(course), {"next": "/path/#step-4"}, headers=EN)
    html = response.content.decode()
    assert "<h1>Mark “CUDA course” watched?</h1>" in html
    assert '<input type="hidden" name="next" value="/path/#step-4">' in html
    assert '<a href="/path/#step-4" class="watch__cancel">' in html


def test_confirming_marks_it_watched(learner, learner_client, course):
    """The confirmed POST finishes the course and redirects back with a message."""
    response = learner_client.post(url(course), {"next": "/path/", "confirm": "yes"}, headers=EN)
    assert (response.status_code, response.url) == (302, "/path/")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "“CUDA course” marked watched."
    ]
    watch = Watch.objects.get(user=learner, resource=course)
    assert watch.is_finished and watch.watched_minutes == 720
    assert WatchEvent.objects.for_learner(learner).total_minutes() == 720


def test_the_question_counts_only_what_the_sittings_left(learner, learner_client, course):
    """After 9 h of sittings, finishing credits the last 3 h: it says so."""
    actions.log_sitting(user=learner, resource=course, minutes=540)
    html = learner_client.post(url(course), headers=EN).content.decode()
    assert "This counts 3\u00a0h more as watched than your sittings logged." in html
    assert not Watch.objects.get(user=learner).is_finished


def test_less_than_two_hours_left_needs_no_confirmation(learner, learner_client, course):
    """11 h logged: the click finishes at once."""
    actions.log_sitting(user=learner, resource=course, minutes=660)
    response = learner_client.post(url(course))
    assert response.status_code == 302
    assert Watch.objects.get(user=learner).is_finished


def test_a_short_lecture_is_marked_in_one_click(learner, learner_client):
    """An hour-long lecture is marked watched without a question."""
    lecture = ResourceFactory(duration_minutes=60)
    assert learner_client.post(url(lecture)).status_code == 302
    assert Watch.objects.get(user=learner).is_finished


def test_with_htmx_the_question_replaces_the_button_in_place(learner, learner_client, course):
    """The controls come back with the question, over the block the form is in; the confirm
    button keeps the id."""
    data = {"next": "/resources/cuda/"}
    response = learner_client.post(
        url(course), data, headers=HTMX | {"HX-Target": "watch-cuda-watch"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div class="watch watch--not_started" id="watch-cuda-watch">')
    assert 'id="watch-cuda-confirm" role="alert"' in html
    assert 'id="watch-cuda-toggle"' in html and 'name="confirm" value="yes"' in html
    assert "<html" not in html
    assert not Watch.objects.exists()


def test_with_htmx_confirming_marks_it_watched(learner, learner_client, course):
    """The confirm button's POST finishes the course and answers its controls; the page's
    refresh brings its balance."""
    data = {"confirm": "yes"}
    response = learner_client.post(
        url(course), data, headers=HTMX | {"HX-Target": "watch-cuda-watch"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Mark not watched" in html
    assert 'id="balance"' not in html
    refresh = learner_client.get("/resources/cuda/", {"changed": "cuda"}, headers=HTMX)
    assert 'id="balance"' in refresh.content.decode()
    assert Watch.objects.get(user=learner).is_finished


@pytest.mark.parametrize("confirm", ["", "no", "1", "YES"])
def test_anything_but_yes_is_not_a_confirmation(learner, learner_client, course, confirm):
    """Only confirm=yes counts; any other value asks again."""
    response = learner_client.post(url(course), {"confirm": confirm})
    assert response.status_code == 200
    assert not Watch.objects.exists()
