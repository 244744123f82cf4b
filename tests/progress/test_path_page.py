import pytest

from progress import actions

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def test_a_learner_sees_their_state_on_the_path_page(learner, learner_client, seed_path):
    """/path/ shows the same steps, bars and buttons as the dashboard, with the nav marked."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    html = learner_client.get("/path/", headers=EN).content.decode()
    assert f'<li class="step step--done" id="step-{seed_path.steps[0].pk}">' in html
    assert "1 of 7 steps done" in html
    assert 'href="/path/" aria-current="page"' in html


def test_visitors_get_the_curriculums_path_page(client, seed_path):
    """Signed out: the bare path, every GPU's session offered, no buttons."""
    html = client.get("/path/", headers=EN).content.decode()
    assert "step--architecture" in html
    assert "/resources/gtc-hopper/" in html
    assert "Mark watched" not in html
    assert 'href="/path/" aria-current="page"' in html


def test_the_path_page_keeps_another_learners_state_out(learner_client, other_learner, seed_path):
    """Grace's watching does not show on Ada's path."""
    actions.mark_watched(user=other_learner, resource=seed_path.start)
    html = learner_client.get("/path/", headers=EN).content.decode()
    assert "step--done" not in html
