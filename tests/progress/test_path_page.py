import re

import pytest
from django.urls import NoReverseMatch, URLResolver, get_resolver, reverse

from progress import actions
from progress.views import path as path_views
from tests.factories import CodingSessionFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def test_a_learner_sees_their_state_on_the_path_page(learner, learner_client, seed_path):
    """/path/ shows the same steps, bars and buttons as the dashboard, with the nav marked."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    html = learner_client.get("/path/", headers=EN).content.decode()
    assert f'<li class="step step--done" id="step-{seed_path.steps[0].pk}">' in html
    assert "1 of 7 steps done" in html
    assert 'href="/path/" aria-current="page"' in html


def test_the_path_page_shows_what_was_coded_of_each_step(learner, learner_client, seed_path):
    """Signed in, /path/ gives each step's coded state beside its watched state."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    CodingSessionFactory(user=learner, resource=seed_path.start, minutes=180)
    html = learner_client.get("/path/", headers=EN).content.decode()
    assert '<span aria-hidden="true">✓</span> Coded</span> 3\u00a0h of 3\u00a0h' in html


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


def routes(patterns, prefix=""):
    """Every route of the URLconf, with its full pattern text and its view."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern.callback


def test_path_has_one_route_and_one_name(client):
    """/path/ is routed once, to progress; its name is "progress:path"."""
    assert [view for route, view in routes(get_resolver().url_patterns) if route == "path/"] == [
        path_views.path_page
    ]
    assert reverse("progress:path") == "/path/"
    with pytest.raises(NoReverseMatch):
        reverse("curriculum:path")


def test_home_and_path_show_a_learner_the_same_page(learner, learner_client, seed_path):
    """Signed in, / and /path/ are one page; only the navigation's current link differs."""
    actions.mark_watched(user=learner, resource=seed_path.start)
    home = learner_client.get("/", headers=EN).content.decode()
    path = learner_client.get("/path/", headers=EN).content.decode()

    def main(html):
        html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html.split("<main")[1])
        return re.sub(r'name="idempotency_key" value="[^"]+"', "", html)

    home_as_path = re.sub(r'(value|data-follow-blocks)="/(#[\w-]+)?"', r'\1="/path/\2"', main(home))
    assert home_as_path == main(path)
    assert 'href="/" aria-current="page"' in home
    assert 'href="/path/" aria-current="page"' in path


def test_a_curators_step_links_to_the_path_step(seed_path):
    """The curriculum's own links (admin "view on site") still reach the path's step."""
    step = seed_path.steps[1]
    assert step.get_absolute_url() == f"/path/#step-{step.pk}"
