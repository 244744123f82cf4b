"""The catalogue's series fold: each is a <details> naming how many resources it holds (and, for
a learner, how many are done), closed until the filters choose it."""

import re

import pytest
from django.urls import reverse

from curriculum.models import Resource
from progress import actions
from tests.factories import FollowedResourceFactory, ResourceFactory, SeriesFactory

URL = reverse("progress:catalogue")
EN = {"accept-language": "en"}
FR = {"accept-language": "fr"}


def groups(response):
    """(id, open, summary text) of each series' <details>, in order."""
    found = re.findall(
        r'<details class="series-group" id="([\w-]+)"( open)?>\s*<summary[^>]*>(.*?)</summary>',
        response.text,
        re.S,
    )
    return [(slug, bool(opened), " ".join(re.sub(r"<[^>]+>", " ", text).split())) for slug, opened, text in found]  # fmt: skip


def test_unfiltered_only_the_start_here_series_is_open_and_each_says_how_many_it_holds(
    client, seed
):
    """The seed's eight series with their counts, folded but for the one holding the "start
    here" talk, so that the first view shows titles; a visitor reads no "done"."""
    found = groups(client.get(URL, headers=EN))
    assert [slug for slug, _open, _text in found][:3] == [
        "series-gpu-mode", "series-stephen-jones-gtc", "series-nvidia-gtc",
    ]  # fmt: skip
    assert len(found) == 8
    assert [slug for slug, opened, _text in found if opened] == ["series-stephen-jones-gtc"]
    assert found[0][2] == "GPU MODE 31 resources"
    assert "done" not in " ".join(text for _slug, _open, text in found)


def test_a_learner_reads_how_many_of_each_series_are_done(learner, learner_client, seed):
    """Watched and followed count as done; a sitting does not."""
    for slug in ["gpu-mode-1", "gpu-mode-3"]:
        actions.mark_watched(user=learner, resource=Resource.objects.get(slug=slug))
    actions.log_sitting(
        user=learner, resource=Resource.objects.get(slug="freecodecamp-cuda-course"), minutes=30
    )
    actions.mark_followed(user=learner, resource=Resource.objects.get(slug="modal"))
    summaries = {slug: text for slug, _open, text in groups(learner_client.get(URL, headers=EN))}
    assert summaries["series-gpu-mode"] == "GPU MODE 31 resources, 2 done"
    assert summaries["series-freecodecamp"] == "freeCodeCamp 1 resource, 0 done"
    assert summaries["series-channels"].endswith("5 resources, 1 done")


def test_the_counts_read_in_french(learner, learner_client, seed):
    """French plurals for the resources and the ones done."""
    actions.mark_watched(user=learner, resource=Resource.objects.get(slug="gpu-mode-1"))
    summaries = {slug: text for slug, _open, text in groups(learner_client.get(URL, headers=FR))}
    assert summaries["series-gpu-mode"] == "GPU MODE 31 ressources, dont 1 terminée"
    assert summaries["series-freecodecamp"] == "freeCodeCamp 1 ressource, dont 0 terminée"


@pytest.mark.parametrize(
    "params", [{"q": "CUTLASS"}, {"kind": "channel"}, {"guide": "9"}, {"state": "not_started"}]
)
def test_a_filter_opens_every_series_holding_a_match_and_hides_the_others(
    learner_client, seed, params
):
    """Each series shown holds a match, so each is open; series with none are not listed."""
    found = groups(learner_client.get(URL, params))
    assert found
    assert all(opened for _slug, opened, _text in found)
    unfiltered = groups(learner_client.get(URL))
    if params != {"state": "not_started"}:
        assert len(found) < len(unfiltered)


def test_an_invalid_filter_alone_leaves_the_catalogue_as_unfiltered(client, seed):
    """A filter that was ignored narrows nothing: only the "start here" series is open."""
    found = groups(client.get(URL, {"kind": "podcast"}))
    assert len(found) == 8
    assert [slug for slug, opened, _text in found if opened] == ["series-stephen-jones-gtc"]


def test_a_catalogue_of_one_series_opens_it_unfiltered(client, db):
    """Nothing to choose between: the only series is open."""
    series = SeriesFactory(slug="solo", name="Solo")
    ResourceFactory(series=series)
    FollowedResourceFactory(series=series)
    assert groups(client.get(URL, headers=EN)) == [("series-solo", True, "Solo 2 resources")]


def test_resources_without_a_series_are_grouped_last_as_other_sources(client, db):
    """A resource a curator left without a series still has a fold of its own, named."""
    ResourceFactory(series=SeriesFactory(slug="first", name="First"))
    ResourceFactory(slug="loose", series=None)
    found = groups(client.get(URL, headers=EN))
    assert found == [
        ("series-first", False, "First 1 resource"),
        ("series-none", False, "Other sources 1 resource"),
    ]
    assert 'id="resource-loose"' in client.get(URL, headers=EN).text.split('id="series-none"')[1]


def test_without_javascript_marking_watched_returns_to_the_card(learner, learner_client, seed):
    """The card's form sends the learner back to its anchor, which opens its closed series."""
    html = learner_client.get(URL, {"kind": "lecture"}).text
    card = html.split('id="resource-gpu-mode-3"')[1].split("</li>")[0]
    action, back = re.search(r'<form method="post" action="([^"]+)".*?name="next" value="([^"]+)"', card, re.S).groups()  # fmt: skip
    assert back == "/resources/?kind=lecture#resource-gpu-mode-3"
    response = learner_client.post(action, {"next": back})
    assert response.status_code == 302
    assert response.url == "/resources/?kind=lecture#resource-gpu-mode-3"
    assert learner.watches.get(resource__slug="gpu-mode-3").is_finished
