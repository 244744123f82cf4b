"""The catalogue, a search, a resource page and the guide cost the same queries at 1x and 10x data.

The curriculum comes from structure.py (built once per process); the learner's state is one query
through progress's template tags, no context processor.
"""

import pytest
from django.conf import settings

from progress import actions
from tests.factories import CodingSessionFactory, PairingFactory, ResourceFactory

PAGES = ["/resources/", "/resources/?q=CUTLASS", "/resources/gpu-mode-15/", "/guide/"]
# Signed in: session, user, revision token, the learner's watch rows (catalogue, resource page);
# the resource page adds its balance, coding log and note (5 more).
EXPECTED = {
    "/resources/": 4,
    "/resources/?q=CUTLASS": 4,
    "/resources/gpu-mode-15/": 9,
    "/guide/": 3,
}


def grow(learner, times):
    """Ten times the seed's resources, each watched and coded by the learner."""
    for _ in range(times):
        resource = ResourceFactory(keywords="CUTLASS")
        PairingFactory(resource=resource)
        actions.mark_watched(user=learner, resource=resource)
        CodingSessionFactory(user=learner, resource=resource)


@pytest.mark.parametrize("url", PAGES)
def test_a_signed_in_page_costs_the_same_queries_at_ten_times_the_data(
    learner, learner_client, seed, django_assert_num_queries, url
):
    """58 then 580 more resources, pairings, watches and sessions: the same, fixed count."""
    grow(learner, 58)
    learner_client.get(url)  # builds this process's copy of the curriculum
    with django_assert_num_queries(EXPECTED[url]):
        assert learner_client.get(url).status_code == 200
    grow(learner, 9 * 58)
    learner_client.get(url)
    with django_assert_num_queries(EXPECTED[url]):
        assert learner_client.get(url).status_code == 200


def test_the_catalogue_shows_the_learners_state_without_a_context_processor(
    learner, learner_client, seed
):
    """Watched resources read “Watched” through the watching tags; no processor keyed on views."""
    processors = settings.TEMPLATES[0]["OPTIONS"]["context_processors"]
    assert not [name for name in processors if name.startswith("progress.")]
    from curriculum.models import Resource

    actions.mark_watched(user=learner, resource=Resource.objects.get(slug="gpu-mode-15"))
    html = learner_client.get("/resources/", headers={"accept-language": "en"}).content.decode()
    card = html[html.index('id="resource-gpu-mode-15"') :].split("</li>")[0]
    assert "watch__badge" in card and "Watched" in card
    assert 'id="watch-gpu-mode-15-toggle"' in card


def test_anonymous_visitors_see_no_watch_buttons(client, seed):
    """Signed out: the catalogue and resource page have no learner state, and no query for it."""
    html = client.get("/resources/").content.decode()
    assert "watch-gpu-mode-15-toggle" not in html
    assert "resource-aside" not in client.get("/resources/gpu-mode-15/").content.decode()
