"""The catalogue's search ignores case and accents, in French and in English, on SQLite and
PostgreSQL alike: it folds both the words typed and the resources' text the same way."""

import re

import pytest
from django.urls import reverse

from tests.factories import ResourceFactory

URL = reverse("progress:catalogue")


def slugs(response):
    """The resources whose cards the page shows."""
    return set(
        re.findall(r'<li class="resource-card" id="resource-([\w-]+)"', response.content.decode())
    )


@pytest.mark.parametrize(
    "query", ["réduction", "reduction", "RÉDUCTION", "Réductions", "rEdUcTiOn"]
)
@pytest.mark.parametrize("language", ["fr", "en"])
def test_reduction_finds_gpu_mode_9_with_or_without_accents(client, seed, query, language):
    """GPU MODE #9 (Reductions) whatever the accents, the case and the page's language."""
    response = client.get(URL, {"q": query}, headers={"accept-language": language})
    assert response.status_code == 200
    assert "gpu-mode-9" in slugs(response)
    assert 'id="resource-gpu-mode-9"' in response.content.decode()


def test_accents_in_the_resource_are_found_without_them(client, db):
    """A French title with accents is found by a learner typing without them, and the reverse."""
    shared = ResourceFactory(slug="shared", title="Mémoire partagée et bancs")
    ResourceFactory(slug="other", title="Memory coalescing")
    assert slugs(client.get(URL, {"q": "memoire PARTAGEE"})) == {"shared"}
    assert slugs(client.get(URL, {"q": "mémoire"})) == {"shared"}
    assert slugs(client.get(URL, {"q": "MÉMOIRE partagée"})) == {shared.slug}


def test_every_word_must_match_somewhere(client, db):
    """Words narrow: "mémoire cutlass" finds nothing when no resource holds both."""
    ResourceFactory(slug="shared", title="Mémoire partagée")
    ResourceFactory(slug="cutlass", title="CUTLASS", speaker="Eric Auld")
    assert slugs(client.get(URL, {"q": "memoire cutlass"})) == set()
    assert slugs(client.get(URL, {"q": "auld"})) == {"cutlass"}
