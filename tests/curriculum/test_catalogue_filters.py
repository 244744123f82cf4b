"""One invalid catalogue filter is left out and named; the valid ones still apply."""

import re

from django.urls import reverse

URL = reverse("progress:catalogue")
EN = {"accept-language": "en"}
FR = {"accept-language": "fr"}


def slugs(response):
    """The resources whose cards the page shows."""
    return set(
        re.findall(r'<li class="resource-card" id="resource-([\w-]+)"', response.content.decode())
    )


def test_an_unknown_kind_keeps_the_series_filter_and_says_so(client, seed):
    """kind=podcast is ignored, series=gpu-mode still narrows, and the page names Kind."""
    response = client.get(URL, {"kind": "podcast", "series": "gpu-mode"}, headers=EN)
    found = slugs(response)
    assert len(found) == 31
    assert all(slug.startswith("gpu-mode-") for slug in found)
    html = response.content.decode()
    assert "This filter was ignored, as its value is not one of its choices: Kind." in html


def test_two_bad_filters_are_both_named_in_french(client, seed):
    """A tampered series and architecture: both named, the search still applies."""
    response = client.get(
        URL, {"series": "nope", "architecture": "volta", "q": "CUTLASS"}, headers=FR
    )
    assert "gpu-mode-15" in slugs(response)
    assert "gpu-mode-9" not in slugs(response)
    html = response.content.decode()
    assert "Ces filtres ont été ignorés" in html
    assert "Série, Architecture GPU" in html


def test_valid_filters_say_nothing_was_ignored(client, seed):
    """No warning when every filter is one of its choices."""
    html = client.get(URL, {"kind": "lecture", "guide": "5.3"}, headers=EN).content.decode()
    assert "ignored" not in html


def test_the_htmx_fragment_carries_the_warning(client, seed):
    """The swapped status region, which keeps its element, says which filter was ignored."""
    response = client.get(
        URL, {"guide": "42.1", "kind": "channel"}, headers={"HX-Request": "true", **EN}
    )
    html = response.content.decode()
    status = html.split('<div id="results">')[0]
    assert status.lstrip().startswith('<div id="results-status"')
    assert 'role="status" hx-swap-oob="innerHTML"' in status
    assert '<p class="filters__ignored" id="filters-ignored">' in status
    assert "Part or chapter of the guide" in html
    assert slugs(response) == {
        "chips-and-cheese", "semianalysis", "modal", "pytorch-conference", "amd-rocm",
    }  # fmt: skip


def test_an_ignored_select_is_described_by_the_note_that_names_it(client, seed):
    """A screen reader on the invalid select hears why it was ignored: the note it points at."""
    html = client.get(URL, {"series": "nope", "kind": "lecture"}, headers=EN).content.decode()
    invalid = re.findall(
        r'<select name="(\w+)" aria-invalid="true" aria-describedby="([\w-]+)"', html
    )
    assert invalid == [("series", "filters-ignored")]
    note = re.search(r'<p class="filters__ignored" id="filters-ignored">(.*?)</p>', html, re.S)
    assert note is not None
    assert "choices: Series." in note.group(1)
