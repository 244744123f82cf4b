"""Deleting a sitting: /sittings/<pk>/delete/, without JavaScript and with htmx."""

import json
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages

from progress.models import WatchEvent
from tests.progress.sittings import sitting_of, totals

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
HTMX = {"HX-Request": "true", "accept-language": "en"}
# What htmx sends with the question in a row of the resource page's sittings list.
AS_HTMX_SENDS_IT = HTMX | {
    "HX-Target": "sittings-cuda",
    "HX-Current-URL": "http://testserver/resources/cuda/",
}


def url(sitting):
    return f"/sittings/{sitting.pk}/delete/"


def test_get_asks_to_confirm_and_deletes_nothing(learner, learner_client, course):
    """The page names the sitting and offers a delete button and a way back."""
    sitting = sitting_of(learner, course, 90)
    response = learner_client.get(url(sitting) + "?next=/resources/cuda/", headers=EN)
    html = response.content.decode()
    assert response.status_code == 200
    assert "(1\u00a0h\u00a030) on “CUDA course”?" in html
    assert f'href="/resources/cuda/#sitting-{sitting.pk}">Keep it</a>' in html
    assert WatchEvent.objects.filter(pk=sitting.pk).exists()


def test_with_htmx_the_question_replaces_the_row(learner, learner_client, course):
    """The confirmation alone, its delete button focused, posting with htmx; nothing deleted."""
    sitting = sitting_of(learner, course, 90)
    response = learner_client.get(url(sitting) + "?next=/resources/cuda/", headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert f'hx-post="/sittings/{sitting.pk}/delete/"' in html
    assert "Delete the sitting</button>" in html and "autofocus" in html
    assert WatchEvent.objects.filter(pk=sitting.pk).exists()


def test_it_deletes_the_sitting_and_the_totals_follow(learner, learner_client, course):
    """Two sittings, one deleted: its minutes leave the watch and the events."""
    first = sitting_of(learner, course, 90)
    sitting_of(learner, course, 60)
    response = learner_client.post(url(first), {"next": "/resources/cuda/"}, headers=EN)
    # Without JavaScript the page comes back at the sittings' heading.
    assert (response.status_code, response.url) == (302, "/resources/cuda/#sittings-cuda-title")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Sitting of 1\u00a0h\u00a030 deleted from “CUDA course”."
    ]
    assert not WatchEvent.objects.filter(pk=first.pk).exists()
    assert totals(learner, course) == (60, False, 60)


def test_deleting_the_sitting_that_finished_the_course_unfinishes_it(
    learner, learner_client, course
):
    """Sittings that reached 12 h finished it; without the last one it is in progress again."""
    sitting_of(learner, course, 700)
    last = sitting_of(learner, course, 20)
    assert totals(learner, course) == (720, True, 720)
    learner_client.post(url(last))
    assert totals(learner, course) == (700, False, 700)


def test_with_htmx_the_answer_is_the_list_alone_and_names_the_change(
    learner, learner_client, course
):
    """The sittings list without the row, focus on the row now in its place; the page follows
    the event watch-changed for its controls, coded state and balance."""
    newer = sitting_of(learner, course, 90)
    older = sitting_of(learner, course, 60)
    WatchEvent.objects.filter(pk=older.pk).update(at=newer.at - timedelta(days=1))
    response = learner_client.post(
        url(newer), {"next": "/resources/cuda/"}, headers=AS_HTMX_SENDS_IT
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.strip().startswith('<div class="sittings__list" id="sittings-cuda">')
    assert "hx-swap-oob" not in html and "watch-cuda-watch" not in html and "balance" not in html
    assert f'id="sitting-{newer.pk}"' not in html
    assert f'id="sitting-{older.pk}" tabindex="-1" autofocus>' in html
    assert json.loads(response.headers["HX-Trigger"]) == {
        "watch-changed": {
            "resource": "cuda",
            "status": "in_progress",
            "announcement": "Sitting of 1\u00a0h\u00a030 deleted from “CUDA course”.",
        }
    }
    assert totals(learner, course) == (60, False, 60)


def test_deleting_the_oldest_focuses_the_one_before_it(learner, learner_client, course):
    """The last row of the list gone, the row above it takes focus."""
    newer = sitting_of(learner, course, 90)
    older = sitting_of(learner, course, 60)
    WatchEvent.objects.filter(pk=older.pk).update(at=newer.at - timedelta(days=1))
    html = learner_client.post(url(older), headers=AS_HTMX_SENDS_IT).content.decode()
    assert f'id="sitting-{newer.pk}" tabindex="-1" autofocus>' in html


def test_deleting_the_only_sitting_focuses_the_empty_list(learner, learner_client, course):
    """No row left: the list's line says so and takes focus."""
    sitting = sitting_of(learner, course, 90)
    response = learner_client.post(url(sitting), headers=AS_HTMX_SENDS_IT)
    html = response.content.decode()
    assert '<p class="muted" tabindex="-1" autofocus>No sitting logged yet.</p>' in html
    changed = json.loads(response.headers["HX-Trigger"])["watch-changed"]
    assert changed["status"] == "not_started"
    assert totals(learner, course) == (0, False, 0)


def test_the_question_posts_with_htmx_only_in_the_row(learner, learner_client, course):
    """In the row it answers the list it is in; on a page of its own it is a plain form."""
    sitting = sitting_of(learner, course, 90)
    inline = learner_client.get(url(sitting), headers=HTMX).content.decode()
    assert f'hx-post="{url(sitting)}" hx-target="closest .sittings__list"' in inline
    page = learner_client.get(url(sitting), headers=EN).content.decode()
    assert "hx-post" not in page.split("<main")[1]


def test_deleting_twice_is_404_the_second_time(learner, learner_client, course):
    """A double click deletes once; the second request finds nothing."""
    sitting = sitting_of(learner, course, 90)
    sitting_of(learner, course, 30)
    assert learner_client.post(url(sitting)).status_code == 302
    assert learner_client.post(url(sitting)).status_code == 404
    assert totals(learner, course) == (30, False, 30)


def test_another_learners_sitting_is_404_and_kept(learner, other_learner, client, course):
    """Grace cannot delete Ada's sitting, with or without htmx."""
    sitting = sitting_of(learner, course, 90)
    client.force_login(other_learner)
    assert client.get(url(sitting)).status_code == 404
    assert client.post(url(sitting)).status_code == 404
    assert client.post(url(sitting), headers=HTMX).status_code == 404
    assert totals(learner, course) == (90, False, 90)


@pytest.mark.parametrize("address", ["/sittings/999999/delete/", "/sittings/x1/delete/"])
def test_a_tampered_pk_is_404(learner, learner_client, course, address):
    """An unknown or malformed id deletes nothing."""
    sitting_of(learner, course, 90)
    assert learner_client.post(address).status_code == 404
    assert totals(learner, course) == (90, False, 90)


def test_the_resource_page_lists_the_sittings_with_their_links(learner, learner_client, course):
    """Each sitting has a correct link and a delete form, named for screen readers."""
    sitting = sitting_of(learner, course, 90)
    html = learner_client.get("/resources/cuda/", headers=EN).content.decode()
    assert '<h2 id="sittings-cuda-title" tabindex="-1">My sittings</h2>' in html
    assert f'href="/sittings/{sitting.pk}/edit/?next=/resources/cuda/"' in html
    assert f'href="/sittings/{sitting.pk}/delete/?next=/resources/cuda/"' in html
    assert f'action="/sittings/{sitting.pk}/delete/"' not in html  # one click never deletes
    assert "the sitting of" in html
