from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from curriculum.models import Resource
from progress import actions
from tests.factories import CodingSessionFactory, NoteFactory, ResourceFactory, WatchEventFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


@pytest.fixture
def resource():
    return ResourceFactory(slug="softmax", title="Softmax", duration_minutes=60)


def page(client, resource):
    return client.get(reverse("progress:resource_detail", args=[resource.slug]), headers=EN)


def test_a_learner_sees_coded_state_balance_inline_form_and_note(learner_client, learner, resource):
    """The resource page carries the coding block, the balance and the learner's own note."""
    WatchEventFactory(user=learner, resource=resource, minutes=60)
    CodingSessionFactory(user=learner, resource=resource, minutes=90)
    NoteFactory(user=learner, resource=resource, text="Stopped at the online softmax")
    html = page(learner_client, resource).content.decode()
    assert "1\u00a0h\u00a030 / 3\u00a0h coded" in html
    assert 'id="balance"' in html
    assert f'hx-post="{reverse("progress:coding_session_add", args=["softmax"])}"' in html
    assert 'name="next" value="/resources/softmax/"' in html
    assert "Stopped at the online softmax" in html
    assert '<div id="coded-softmax">' in html
    assert 'name="page"' not in html and 'name="place"' not in html
    assert 'data-follow-blocks="/resources/softmax/"' in html  # its refresh after a watch change


def test_another_learner_sees_neither_the_note_nor_the_sessions(
    client, learner, other_learner, resource
):
    """Grace's view of the same page holds none of Ada's data."""
    CodingSessionFactory(user=learner, resource=resource, built="Ada's kernel")
    NoteFactory(user=learner, resource=resource, text="Ada's note")
    client.force_login(other_learner)
    text = unescape(page(client, resource).content.decode())
    assert "Ada's kernel" not in text and "Ada's note" not in text
    assert "Not coded yet" in text


def test_anonymous_visitors_see_the_page_without_progress(client, resource):
    """No balance, form or note without an account."""
    html = page(client, resource).content.decode()
    assert 'id="balance"' not in html and "idempotency_key" not in html


def test_a_plain_post_from_the_page_comes_back_to_it(learner_client, learner, resource):
    """Without JavaScript, the inline form lands back on the resource page with a message."""
    html = page(learner_client, resource).content.decode()
    key = html.split('name="idempotency_key" value="')[1].split('"')[0]
    response = learner_client.post(
        reverse("progress:coding_session_add", args=["softmax"]),
        {
            "day": "2025-01-08",
            "minutes": "30",
            "built": "x",
            "idempotency_key": key,
            "next": "/resources/softmax/",
        },
        headers=EN,
        follow=True,
    )
    assert response.redirect_chain == [("/resources/softmax/", 302)]
    assert "Coding session saved." in response.content.decode()


def test_the_resource_page_shows_the_state_with_the_same_buttons(learner, learner_client):
    """A sitting logged shows on the resource's own page, with the sitting form."""
    course = ResourceFactory(slug="course", kind="course", duration_minutes=720)
    actions.log_sitting(user=learner, resource=course, minutes=90)
    html = learner_client.get("/resources/course/", headers=EN).content.decode()
    assert "In progress: 1\u00a0h\u00a030 of 12\u00a0h" in html
    assert 'id="watch-course-minutes"' in html
    assert 'name="next" value="/resources/course/"' in html


def test_the_resource_page_query_count_does_not_grow(learner, learner_client):
    """The page costs the same whether the learner watched one resource or fifty."""
    resource = ResourceFactory(slug="lecture")
    with CaptureQueriesContext(connection) as first:
        learner_client.get("/resources/lecture/")
    actions.mark_watched(user=learner, resource=resource)
    for other in ResourceFactory.create_batch(50):
        actions.mark_watched(user=learner, resource=other)
    with CaptureQueriesContext(connection) as second:
        learner_client.get("/resources/lecture/")
    assert len(second) == len(first)


def test_a_learners_resource_page_follows_a_curators_edit_at_once(learner_client):
    """The page finds its resource in the curriculum the process holds and reads the revision
    token with the learner's rows: an edit, a new resource, a removed one show at the next GET."""
    resource = ResourceFactory(slug="lecture", title="Lecture one", duration_minutes=60)
    assert "Lecture one" in learner_client.get("/resources/lecture/", headers=EN).content.decode()
    Resource.objects.filter(pk=resource.pk).update(title="Lecture 1", duration_minutes=90)
    html = learner_client.get("/resources/lecture/", headers=EN).content.decode()
    assert "Lecture 1" in html and "Lecture one" not in html
    ResourceFactory(slug="newer", title="A newer lecture")
    assert learner_client.get("/resources/newer/").status_code == 200
    Resource.objects.filter(pk=resource.pk).delete()
    assert learner_client.get("/resources/lecture/").status_code == 404
