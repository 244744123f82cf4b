"""Skipping a step ("I already know this") and undoing it, through the resource page, the path and
the API; what next-up, the path's bar, the balance and the export make of it."""

import json
import re

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from api.models import AccessToken
from progress import actions
from progress.models import Watch, WatchEvent
from tests.factories import CodingSessionFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
HTMX = {"HX-Request": "true", "accept-language": "en"}


def skip(client, resource, **headers):
    return client.post(
        f"/resources/{resource.slug}/skipped/",
        {"next": f"/resources/{resource.slug}/"},
        headers=headers or EN,
    )


def next_up(html):
    match = re.search(r'<section class="card next-up".*?</section>', html, re.S)
    assert match, "no next-up card"
    return match.group(0)


def test_skipping_without_javascript_redirects_back_and_says_so(learner, learner_client, seed_path):
    """A plain POST: the resource is skipped, one event logged, a message on the page it comes back to."""
    lecture = seed_path.lectures[0]
    response = skip(learner_client, lecture)
    assert response.status_code == 302
    assert response["Location"] == f"/resources/{lecture.slug}/"
    page = learner_client.get(response["Location"], headers=EN).content.decode()
    assert "“Lecture 3” skipped: you already know it." in page
    assert "Skipped: already known" in page
    assert "Undo skip" in page
    watch = Watch.objects.get(user=learner, resource=lecture)
    assert watch.is_skipped and not watch.is_finished
    assert list(WatchEvent.objects.for_learner(learner).values_list("kind", "minutes")) == [
        ("skipped", 0)
    ]


def test_skipping_with_htmx_answers_the_controls_with_their_undo(
    learner, learner_client, seed_path
):
    """The htmx answer is the controls block, now offering to undo, with the watch-changed event."""
    lecture = seed_path.lectures[0]
    response = skip(
        learner_client, lecture, **HTMX, **{"HX-Target": f"step-{seed_path.steps[1].pk}-watch"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert f'id="step-{seed_path.steps[1].pk}-watch"' in html
    assert 'class="watch watch--skipped"' in html
    assert f'action="/resources/{lecture.slug}/not-skipped/"' in html
    event = json.loads(response["HX-Trigger"])["watch-changed"]
    assert event == {
        "resource": lecture.slug,
        "status": "skipped",
        "announcement": "“Lecture 3” skipped: you already know it.",
    }
    assert Watch.objects.get(user=learner, resource=lecture).is_skipped


def test_skipping_twice_logs_one_event(learner, learner_client, seed_path):
    """A double click: the second changes nothing."""
    lecture = seed_path.lectures[0]
    skip(learner_client, lecture)
    first = Watch.objects.get(user=learner, resource=lecture).skipped_at
    skip(learner_client, lecture)
    assert Watch.objects.get(user=learner, resource=lecture).skipped_at == first
    assert WatchEvent.objects.for_learner(learner).count() == 1


def test_undoing_a_skip_puts_the_step_back(learner, learner_client, seed_path):
    """not-skipped clears the skip and logs it; the controls offer the skip again."""
    lecture = seed_path.lectures[0]
    skip(learner_client, lecture)
    response = learner_client.post(f"/resources/{lecture.slug}/not-skipped/", headers=HTMX)
    assert response.status_code == 200
    assert "I already know this" in response.content.decode()
    assert not Watch.objects.get(user=learner, resource=lecture).is_skipped
    kinds = list(WatchEvent.objects.for_learner(learner).in_order().values_list("kind", flat=True))
    assert kinds == ["skipped", "unskipped"]


def test_undoing_a_skip_that_never_was_changes_nothing(learner, learner_client, seed_path):
    response = learner_client.post(f"/resources/{seed_path.later.slug}/not-skipped/")
    assert response.status_code == 302
    assert not Watch.objects.exists()
    assert not WatchEvent.objects.exists()


def test_a_watched_resource_cannot_be_skipped(learner, learner_client, seed_path):
    """Watched already: refused with a 422 and the reason, and the row stays watched."""
    lecture = seed_path.lectures[0]
    actions.mark_watched(user=learner, resource=lecture)
    response = skip(learner_client, lecture, **HTMX)
    assert response.status_code == 422
    assert (
        "You have watched this one already: there is nothing to skip." in response.content.decode()
    )
    watch = Watch.objects.get(user=learner, resource=lecture)
    assert watch.is_finished and not watch.is_skipped
    assert WatchEvent.objects.for_learner(learner).count() == 1


def test_a_watched_resource_offers_no_skip(learner, learner_client, seed_path):
    lecture = seed_path.lectures[0]
    actions.mark_watched(user=learner, resource=lecture)
    html = learner_client.get(f"/resources/{lecture.slug}/", headers=EN).content.decode()
    assert "I already know this" not in html
    assert "Mark not watched" in html


def test_marking_a_skipped_resource_watched_ends_the_skip(learner, learner_client, seed_path):
    """The learner watched it after all: watched, no longer skipped."""
    lecture = seed_path.lectures[0]
    skip(learner_client, lecture)
    learner_client.post(f"/resources/{lecture.slug}/watched/")
    watch = Watch.objects.get(user=learner, resource=lecture)
    assert watch.is_finished and not watch.is_skipped


def test_sittings_that_finish_a_skipped_course_end_the_skip(learner, seed_path):
    """Sittings reaching the course's length finish it, as ever, and the skip goes."""
    actions.skip(user=learner, resource=seed_path.course)
    actions.log_sitting(user=learner, resource=seed_path.course, minutes=720)
    watch = Watch.objects.get(user=learner, resource=seed_path.course)
    assert watch.is_finished and not watch.is_skipped


def test_the_database_refuses_a_row_both_watched_and_skipped(learner, seed_path):
    now = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        Watch.objects.create(
            user=learner, resource=seed_path.later, finished_at=now, skipped_at=now
        )


def test_skipping_needs_a_signed_in_learner_and_a_known_resource(learner_client, seed_path):
    response = Client().post(f"/resources/{seed_path.later.slug}/skipped/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert learner_client.post("/resources/no-such-thing/skipped/").status_code == 404
    assert learner_client.get(f"/resources/{seed_path.later.slug}/skipped/").status_code == 405
    assert not Watch.objects.exists()


def test_next_up_goes_past_a_skipped_step(learner, learner_client, seed_path):
    """Start here watched, the next lecture skipped: next up is the one after it."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=180)
    assert "Lecture 3" in next_up(learner_client.get("/", headers=EN).content.decode())
    skip(learner_client, seed_path.lectures[0])
    card = next_up(learner_client.get("/", headers=EN).content.decode())
    assert "Lecture 4" in card
    assert "Lecture 3" not in card


def test_the_path_counts_skipped_steps_apart_from_watched(learner, learner_client, seed_path):
    """ "1 watched, 1 skipped of 7 steps", and the path's bar counts both as behind the learner."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    skip(learner_client, seed_path.lectures[0])
    html = learner_client.get("/path/", headers=EN).content.decode()
    assert "1 watched, 1 skipped of 7 steps" in html
    assert '<progress id="bar-path-steps" max="7" value="2">' in html
    assert f'<li class="step step--skipped" id="step-{seed_path.steps[1].pk}">' in html


def test_the_path_counts_skipped_steps_apart_in_french(learner, learner_client, seed_path):
    actions.mark_watched(user=learner, resource=seed_path.start)
    skip(learner_client, seed_path.lectures[0])
    actions.skip(user=learner, resource=seed_path.lectures[1])
    html = learner_client.get("/path/", headers={"accept-language": "fr"}).content.decode()
    assert "7 étapes — regardées : 1, passées : 2" in html
    assert "Passée : déjà connue" in html
    assert "Ne plus la passer" in html


def test_a_skipped_video_owes_no_code(learner, learner_client, seed_path):
    """Skipped without watching: the balance counts nothing watched, and next up is no coding."""
    skip(learner_client, seed_path.start)
    html = learner_client.get("/", headers=EN).content.decode()
    assert "Next up: code" not in html
    assert "You have not watched anything yet: nothing to balance." in html


def test_a_skipped_video_is_never_the_one_to_code_next(learner, learner_client, seed_path):
    """Ten minutes watched of the course, then skipped: its minutes stay watched, but next up does
    not ask to code the course."""
    actions.log_sitting(user=learner, resource=seed_path.course, minutes=10)
    actions.skip(user=learner, resource=seed_path.course)
    html = learner_client.get("/", headers=EN).content.decode()
    assert "Next up: code" not in html
    assert "Video:code balance" in html


def test_the_export_and_the_api_name_a_skip(learner, learner_client, seed_path):
    lecture = seed_path.lectures[0]
    skip(learner_client, lecture)
    export = learner_client.get("/settings/export.json").json()
    (watch,) = export["watches"]
    assert watch["resource"] == lecture.slug
    assert watch["skipped_at"] is not None and watch["finished_at"] is None
    assert [event["kind"] for event in export["watch_events"]] == ["skipped"]
    _token, secret = AccessToken.objects.create_for(user=learner, name="cli", scope="read")
    response = learner_client.get(
        "/api/v1/resources", headers={"Authorization": f"Bearer {secret}"}
    )
    states = {row["slug"]: row["state"] for row in response.json()}
    assert states[lecture.slug]["status"] == "skipped"
    assert states[lecture.slug]["is_skipped"] is True
