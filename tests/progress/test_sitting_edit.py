"""Correcting a sitting: /sittings/<pk>/edit/, without JavaScript and with htmx."""

import json

import pytest
from django.contrib.messages import get_messages

from progress import actions
from progress.models import WatchEvent
from tests.factories import ResourceFactory
from tests.progress.sittings import sitting_of, totals

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
HTMX = {"HX-Request": "true", "accept-language": "en"}
# What htmx sends with the form in a row of the resource page's sittings list.
AS_HTMX_SENDS_IT = HTMX | {
    "HX-Target": "sittings-cuda",
    "HX-Current-URL": "http://testserver/resources/cuda/",
}


def url(sitting):
    return f"/sittings/{sitting.pk}/edit/"


def test_the_page_shows_a_form_with_the_minutes(learner, learner_client, course):
    """GET: the sitting's minutes in a labelled field, the page to go back to in the form."""
    sitting = sitting_of(learner, course, 90)
    response = learner_client.get(url(sitting) + "?next=/resources/cuda/", headers=EN)
    html = response.content.decode()
    assert response.status_code == 200
    assert f'<label for="sitting-{sitting.pk}-minutes">' in html
    assert 'name="minutes"' in html and 'value="90"' in html
    assert 'name="next" value="/resources/cuda/"' in html


def test_it_corrects_the_minutes_and_the_totals_follow(learner, learner_client, course):
    """90 + 60 minutes, the first corrected to 30: 90 logged, events sum to it."""
    first = sitting_of(learner, course, 90)
    sitting_of(learner, course, 60)
    response = learner_client.post(
        url(first), {"minutes": "30", "next": "/resources/cuda/"}, headers=EN
    )
    # Without JavaScript the page comes back at the corrected row.
    assert (response.status_code, response.url) == (302, f"/resources/cuda/#sitting-{first.pk}")
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Sitting corrected for “CUDA course”."
    ]
    first.refresh_from_db()
    assert (first.logged_minutes, first.minutes) == (30, 30)
    assert totals(learner, course) == (90, False, 90)


def test_correcting_up_to_the_duration_finishes_and_down_unfinishes(
    learner, learner_client, course
):
    """The course finishes when its sittings reach 12 h, and is no longer finished below."""
    first = sitting_of(learner, course, 600)
    sitting_of(learner, course, 60)
    learner_client.post(url(first), {"minutes": "660"})
    assert totals(learner, course) == (720, True, 720)
    learner_client.post(url(first), {"minutes": "100"})
    assert totals(learner, course) == (160, False, 160)


def test_after_marking_watched_a_correction_keeps_the_course_whole(learner, learner_client, course):
    """Sittings then one click: the course counts 12 h whatever a sitting is corrected to."""
    first = sitting_of(learner, course, 200)
    actions.mark_watched(user=learner, resource=course)
    learner_client.post(url(first), {"minutes": "50"})
    assert totals(learner, course) == (50, True, 720)
    finished = WatchEvent.objects.get(user=learner, kind="finished")
    assert finished.minutes == 670, "the one click now credits what the sittings no longer do"
    actions.mark_not_watched(user=learner, resource=course)
    assert totals(learner, course) == (50, False, 50)


def test_with_htmx_the_answer_is_the_list_alone_and_names_the_change(
    learner, learner_client, course
):
    """The sittings list, the form's block, and nothing else: the page follows the event
    watch-changed for its controls, coded state and balance."""
    sitting = sitting_of(learner, course, 90)
    response = learner_client.post(
        url(sitting), {"minutes": "45", "next": "/resources/cuda/"}, headers=AS_HTMX_SENDS_IT
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.strip().startswith('<div class="sittings__list" id="sittings-cuda">')
    assert html.strip().endswith("</div>") and html.count('class="sittings__list"') == 1
    assert "hx-swap-oob" not in html and "watch-cuda-watch" not in html and "balance" not in html
    # The corrected row takes focus (htmx focuses what it swaps in with autofocus).
    assert f'id="sitting-{sitting.pk}" tabindex="-1" autofocus>' in html
    assert json.loads(response.headers["HX-Trigger"]) == {
        "watch-changed": {
            "resource": "cuda",
            "status": "in_progress",
            "announcement": "Sitting corrected for “CUDA course”.",
        }
    }
    assert totals(learner, course) == (45, False, 45)


def test_with_htmx_a_refusal_answers_the_form_over_itself(learner, learner_client, course):
    """Bad minutes: the form again with its error, swapped over the form (HX-Retarget), no
    event: nothing changed."""
    sitting = sitting_of(learner, course, 90)
    response = learner_client.post(url(sitting), {"minutes": "0"}, headers=AS_HTMX_SENDS_IT)
    html = response.content.decode()
    assert (response.status_code, response.headers["HX-Retarget"]) == (422, "this")
    assert html.strip().startswith(f'<form method="post" action="{url(sitting)}"')
    assert "hx-swap-oob" not in html and "HX-Trigger" not in response.headers


def test_the_form_posts_with_htmx_only_in_the_row(learner, learner_client, course):
    """In the row it answers the list it is in; on a page of its own it is a plain form."""
    sitting = sitting_of(learner, course, 90)
    inline = learner_client.get(url(sitting), headers=HTMX).content.decode()
    assert f'hx-post="{url(sitting)}" hx-target="closest .sittings__list"' in inline
    page = learner_client.get(url(sitting), headers=EN).content.decode()
    assert "hx-post" not in page.split("<main")[1]


def test_with_htmx_get_answers_the_form_alone(learner, learner_client, course):
    """The edit link swaps the inline form into the row: no page around it."""
    sitting = sitting_of(learner, course, 90)
    html = learner_client.get(url(sitting), headers=HTMX).content.decode()
    assert html.lstrip().startswith(f'<form method="post" action="/sittings/{sitting.pk}/edit/"')
    assert "<html" not in html


@pytest.mark.parametrize(
    ("minutes", "error"),
    [
        ("-30", "A sitting lasts from 1 to 1440 minutes (24 hours)."),
        ("0", "A sitting lasts from 1 to 1440 minutes (24 hours)."),
        ("1441", "A sitting lasts from 1 to 1440 minutes (24 hours)."),
        ("ninety", "Enter the minutes you watched as a whole number."),
        ("", "Enter the minutes you watched as a whole number."),
    ],
)
@pytest.mark.parametrize("headers", [EN, HTMX], ids=["plain", "htmx"])
def test_bad_minutes_answer_the_form_with_the_error_and_change_nothing(
    learner, learner_client, course, minutes, error, headers
):
    """422 with the error tied to the field; the sitting and the totals unchanged."""
    sitting = sitting_of(learner, course, 90)
    response = learner_client.post(url(sitting), {"minutes": minutes}, headers=headers)
    html = response.content.decode()
    assert response.status_code == 422
    assert error in html
    assert f'aria-describedby="sitting-{sitting.pk}-error"' in html
    sitting.refresh_from_db()
    assert sitting.logged_minutes == 90
    assert totals(learner, course) == (90, False, 90)


def test_another_learners_sitting_is_404_and_unchanged(learner, other_learner, client, course):
    """Grace cannot read or correct Ada's sitting."""
    sitting = sitting_of(learner, course, 90)
    client.force_login(other_learner)
    assert client.get(url(sitting)).status_code == 404
    assert client.post(url(sitting), {"minutes": "5"}).status_code == 404
    assert client.post(url(sitting), {"minutes": "5"}, headers=HTMX).status_code == 404
    assert totals(learner, course) == (90, False, 90)


@pytest.mark.parametrize(
    "address", ["/sittings/999999/edit/", "/sittings/abc/edit/", "/sittings/-1/edit/"]
)
def test_a_tampered_pk_is_404(learner, learner_client, course, address):
    """An unknown or malformed id is not found, nothing changes."""
    sitting_of(learner, course, 90)
    assert learner_client.post(address, {"minutes": "5"}).status_code == 404
    assert totals(learner, course) == (90, False, 90)


def test_an_event_that_is_not_a_sitting_cannot_be_edited(learner, learner_client):
    """A "finished" event's id is refused: only sittings are corrected."""
    lecture = ResourceFactory()
    actions.mark_watched(user=learner, resource=lecture)
    event = WatchEvent.objects.get(user=learner)
    assert learner_client.post(f"/sittings/{event.pk}/edit/", {"minutes": "5"}).status_code == 404
    event.refresh_from_db()
    assert (event.kind, event.minutes) == ("finished", 60)
