import re

import pytest
from django.urls import reverse

URL = reverse("progress:catalogue")


def slugs(response):
    """The resources whose cards the page shows."""
    return set(
        re.findall(r'<li class="resource-card" id="resource-([\w-]+)"', response.content.decode())
    )


def test_the_catalogue_lists_every_resource_without_signing_in(client, seed):
    """Anonymous visitors browse the whole catalogue."""
    response = client.get(URL, headers={"accept-language": "en"})
    assert response.status_code == 200
    assert len(slugs(response)) == 58
    assert "58 resources" in response.content.decode()


@pytest.mark.parametrize(
    ("query", "expected", "absent"),
    [
        ("CUTLASS", {"gpu-mode-15", "gtc-cutlass-sessions", "gpu-mode-36"}, {"gpu-mode-9"}),
        (
            "Hopper",
            {"gtc-architecture-hopper", "advanced-strategies-gpu-programming"},
            {"gpu-mode-3"},
        ),
        ("TMA", {"gtc-architecture-hopper", "gtc-cutlass-sessions"}, {"gpu-mode-1"}),
        ("warp specialization", {"gtc-cutlass-sessions", "gpu-mode-36"}, {"gpu-mode-12"}),
        ("Saroufim", {"gpu-mode-1", "gpu-mode-8", "gpu-mode-9"}, {"gpu-mode-15"}),
        ("bande passante", {"how-gpu-computing-works"}, set()),
    ],
)
def test_search_finds_the_seeds_keywords(client, seed, query, expected, absent):
    """Title, speaker, keywords and summary are searched."""
    found = slugs(client.get(URL, {"q": query}))
    assert expected <= found
    assert not absent & found


@pytest.mark.parametrize(
    ("params", "expected_count", "example"),
    [
        ({"kind": "conference"}, 7, "isca-micro"),
        ({"kind": "channel"}, 5, "amd-rocm"),
        ({"series": "stephen-jones-gtc"}, 4, "how-gpu-computing-works"),
        ({"architecture": "amd-cdna"}, 2, "amd-rocm"),
        ({"guide": "5.3"}, 1, "gpu-mode-15"),
        ({"guide": "1"}, 2, "gpu-mode-4"),
        ({"guide": "2"}, 2, "gpu-mode-9"),
        ({"kind": "lecture", "series": "gpu-mode", "q": "CuTe"}, 4, "gpu-mode-57"),
    ],
)
def test_filters_narrow_the_catalogue(client, seed, params, expected_count, example):
    """Each filter, alone or combined, keeps only what matches."""
    found = slugs(client.get(URL, params))
    assert len(found) == expected_count
    assert example in found


def test_unknown_filter_values_are_ignored_not_an_error(client, seed):
    """A stale shared link still shows the catalogue."""
    response = client.get(URL, {"kind": "podcast", "series": "nope", "guide": "42.1"})
    assert response.status_code == 200
    assert len(slugs(response)) == 58


def test_htmx_requests_get_only_the_results(client, seed):
    """The filters form swaps the results list, not the whole page."""
    response = client.get(URL, {"kind": "channel"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="results-status"')
    assert "<html" not in html
    assert "Chips and Cheese" in html


def test_the_form_works_without_javascript_and_pushes_its_url(client, seed):
    """A plain GET form with htmx attributes for in-place updates."""
    html = client.get(URL).content.decode()
    assert 'method="get"' in html
    assert 'hx-get="/resources/"' in html
    assert 'hx-push-url="true"' in html
    assert 'type="submit"' in html


def test_no_match_says_so(client, seed):
    """An empty result tells the learner."""
    response = client.get(URL, {"q": "zzzz-nothing"}, headers={"accept-language": "en"})
    assert "No resource matches these filters." in response.content.decode()
