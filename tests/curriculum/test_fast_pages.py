"""The catalogue, a search, a resource page and the guide cost the same queries at 1x and 10x data.

The curriculum comes from structure.py (built once per process); the learner's state is one query
in the view of the page (progress/views/catalogue.py), no context processor.
"""

from django.conf import settings

from progress import actions
from tests.factories import CodingSessionFactory, PairingFactory, ResourceFactory

PAGES = ["/resources/", "/resources/?q=CUTLASS", "/resources/gpu-mode-15/", "/guide/"]
# Signed in: session, user, revision token, the learner's watch rows (the catalogue reads the
# last two in one statement); the resource page adds its balance, coding log and note (5 more),
# and its video player the learner's recording setting (1 more).
EXPECTED = {
    "/resources/": 3,
    "/resources/?q=CUTLASS": 3,
    "/resources/gpu-mode-15/": 10,
    "/guide/": 3,
}


def grow(learner, times):
    """Ten times the seed's resources, each watched and coded by the learner."""
    for _ in range(times):
        resource = ResourceFactory(keywords="CUTLASS")
        PairingFactory(resource=resource)
        actions.mark_watched(user=learner, resource=resource)
        CodingSessionFactory(user=learner, resource=resource)


def test_the_catalogue_shows_the_learners_state_without_a_context_processor(
    learner, learner_client, seed
):
    """Watched resources read “Watched”; no processor keyed on views."""
    processors = [
        name
        for engine in settings.TEMPLATES
        for name in engine["OPTIONS"].get("context_processors", ())
    ]
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
