import pytest

from progress import actions
from progress.models import Watch
from tests.factories import ResourceFactory

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "accept-language": "en"}


def url(resource):
    return f"/resources/{resource.slug}/not-watched/"


def test_unmarking_restores_the_minutes_logged_before(learner, learner_client):
    """Watched, then not watched: back to the sittings, no phantom minutes."""
    course = ResourceFactory(kind="course", duration_minutes=720)
    actions.log_sitting(user=learner, resource=course, minutes=45)
    actions.mark_watched(user=learner, resource=course)
    response = learner_client.post(url(course))
    assert response.status_code == 302
    watch = Watch.objects.get(user=learner, resource=course)
    assert not watch.is_finished
    assert watch.watched_minutes == 45


def test_one_learner_cannot_unmark_another_learners_resource(learner_client, other_learner):
    """Ada's click changes Ada's row only: Grace's stays watched."""
    lecture = ResourceFactory()
    actions.mark_watched(user=other_learner, resource=lecture)
    learner_client.post(url(lecture))
    assert Watch.objects.get(user=other_learner, resource=lecture).is_finished
    assert not Watch.objects.filter(user__username="ada").exists()


def test_with_htmx_the_step_returns_to_its_state_before(learner, learner_client, seed_path):
    """The step's controls say not started again; in the path's refresh the step and the path
    bar drop back, and the start-here card comes back."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    step = seed_path.steps[0]
    response = learner_client.post(
        url(seed_path.start), headers=HTMX | {"HX-Target": f"step-{step.pk}-watch"}
    )
    assert f'<div class="watch watch--not_started" id="step-{step.pk}-watch">' in (
        response.content.decode()
    )
    changed = {"changed": seed_path.start.slug}
    html = learner_client.get("/", changed, headers=HTMX).content.decode()
    assert f'<li class="step step--not_started" id="step-{step.pk}"' in html
    assert "0 of 7 steps done" in html
    assert 'id="start-here-title"' in html
