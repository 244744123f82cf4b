"""The coding log, the stats page and the mark-watched click cost the same queries at 1x and 10x
a learner's history (issue #16): the learner's state comes in a fixed handful of queries."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from progress import actions
from progress.models import CodingSession, Watch
from tests.factories import ChapterFactory, ResourceFactory, UserFactory

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def history(user, scale, resources, chapter):
    """scale x (60 coding sessions over a year, 6 sittings of the course, 3 lectures finished)."""
    today = timezone.localdate()
    CodingSession.objects.bulk_create(
        CodingSession(
            user=user,
            day=today - timedelta(days=(n * 7) % 365),
            minutes=20 + n % 100,
            built=f"kernel {n}",
            code_url="https://example.com/code" if n % 3 else "",
            resource=resources[n % len(resources)] if n % 2 else None,
            chapter=None if n % 2 else chapter,
            idempotency_key=uuid.uuid4(),
        )
        for n in range(60 * scale)
    )
    course, *lectures = resources
    for _ in range(6 * scale):
        actions.log_sitting(user=user, resource=course, minutes=5)
    for lecture in lectures[: 3 * scale]:
        actions.mark_watched(user=user, resource=lecture)


@pytest.fixture(params=[1, 10], ids=["1x", "10x"])
def scaled(request, learner, other_learner):
    """The learner and another with a history of the given scale, on a catalogue as large."""
    scale = request.param
    course = ResourceFactory(slug="cuda", kind="course", duration_minutes=6000)
    resources = [course, *ResourceFactory.create_batch(3 * scale, duration_minutes=60)]
    chapter = ChapterFactory()
    for user in (learner, other_learner):
        history(user, scale, resources, chapter)
    for other in UserFactory.create_batch(scale):
        history(other, 1, resources, chapter)
    return course, ResourceFactory(slug="not-watched-yet", duration_minutes=60)


def test_the_coding_log_costs_the_same_queries_at_1x_and_10x(
    learner_client, scaled, django_assert_num_queries
):
    """Session, learner, curriculum token, the learner's totals, one page of sessions."""
    learner_client.get("/coding/")  # builds this process's curriculum, the selects' choices
    with django_assert_num_queries(5):
        response = learner_client.get("/coding/", {"page": 2})
    assert response.status_code == 200
    assert len(response.context["sessions"]) == 20


def test_the_stats_page_costs_the_same_queries_at_1x_and_10x(
    learner_client, scaled, django_assert_num_queries
):
    """Session, learner, minutes coded by day, minutes watched by day, finished per kind."""
    with django_assert_num_queries(5):
        assert learner_client.get("/stats/").status_code == 200


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_mark_watched_click_costs_the_same_queries_at_1x_and_10x(
    learner, learner_client, scaled, django_assert_num_queries, headers
):
    """Session, learner, resource, the locked row (inserted first), its update and event; with
    htmx, the learner's totals and sittings for the resource page's blocks."""
    _course, lecture = scaled
    data = {"page": "resource", "place": f"watch-{lecture.slug}", "next": "/coding/"}
    with django_assert_num_queries(12 if headers else 10):
        response = learner_client.post(f"/resources/{lecture.slug}/watched/", data, headers=headers)
    assert response.status_code == (200 if headers else 302)
    assert Watch.objects.get(user=learner, resource=lecture).is_finished
