"""The catalogue's state filter: a signed-in learner keeps what they have not started, are
watching, watched or followed; visitors have no state and no such filter."""

import re

import pytest
from django.urls import reverse

from progress import actions
from tests.factories import FollowedResourceFactory, ResourceFactory, SeriesFactory

URL = reverse("progress:catalogue")
EN = {"accept-language": "en"}
FR = {"accept-language": "fr"}


def card_slugs(response):
    """The slugs of the resource cards on the page, in order."""
    return re.findall(r'<li class="resource-card" id="resource-([\w-]+)">', response.text)


@pytest.fixture
def shelf(learner, other_learner):
    """One resource in each state for the learner, in one series; the other learner's progress
    on the untouched ones must not count."""
    series = SeriesFactory(name="Shelf")
    resources = {
        name: ResourceFactory(slug=name, series=series, duration_minutes=180)
        for name in ["untouched", "unmarked", "sitting", "finished-by-sittings", "one-click"]
    }
    resources["channel"] = FollowedResourceFactory(slug="channel", series=series)
    resources["followed"] = FollowedResourceFactory(slug="followed", series=series)
    actions.mark_watched(user=learner, resource=resources["unmarked"])
    actions.mark_not_watched(user=learner, resource=resources["unmarked"])
    actions.log_sitting(user=learner, resource=resources["sitting"], minutes=40)
    actions.log_sitting(user=learner, resource=resources["finished-by-sittings"], minutes=180)
    actions.mark_watched(user=learner, resource=resources["one-click"])
    actions.mark_followed(user=learner, resource=resources["followed"])
    actions.mark_watched(user=other_learner, resource=resources["untouched"])
    actions.mark_followed(user=other_learner, resource=resources["channel"])
    return resources


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        ("not_started", ["untouched", "unmarked", "channel"]),
        ("in_progress", ["sitting"]),
        ("watched", ["finished-by-sittings", "one-click"]),
        ("followed", ["followed"]),
        ("", ["untouched", "unmarked", "sitting", "finished-by-sittings", "one-click", "channel", "followed"]),
    ],
)  # fmt: skip
def test_each_state_keeps_only_the_learners_resources_in_that_state(
    learner_client, shelf, state, expected
):
    """Unmarked counts as not started, a sitting as in progress, sittings that reach the
    duration as watched; another learner's progress changes nothing."""
    response = learner_client.get(URL, {"state": state}, headers=EN)
    assert response.status_code == 200
    assert sorted(card_slugs(response)) == sorted(expected)
    count = len(expected)
    assert f'<p class="resource-results__count">{count} resource{"s" * (count != 1)}</p>' in (
        response.text
    )


def test_the_state_combines_with_the_other_filters(learner_client, shelf):
    """Kind channel and not started: the channel nobody of theirs followed, not the lectures."""
    response = learner_client.get(URL, {"state": "not_started", "kind": "channel"})
    assert card_slugs(response) == ["channel"]


def test_an_invalid_state_is_ignored_and_named_while_the_other_filters_apply(learner_client, shelf):
    """state=abandoned: the page says the filter was left out and still narrows by kind."""
    response = learner_client.get(URL, {"state": "abandoned", "kind": "channel"}, headers=EN)
    assert sorted(card_slugs(response)) == ["channel", "followed"]
    assert (
        "This filter was ignored, as its value is not one of its choices: My progress. "
        "The other filters apply."
    ) in response.text


def test_an_invalid_state_is_named_in_french(learner_client, shelf):
    """The same message in French, with the French label of the filter."""
    response = learner_client.get(URL, {"state": "abandoned"}, headers=FR)
    assert len(card_slugs(response)) == 7
    assert (
        "Mon avancement"
        in re.search(
            r'<p class="filters__ignored" id="filters-ignored">(.*?)</p>', response.text, re.S
        )[1]
    )


def test_the_learner_chooses_among_four_states_in_english_and_french(learner_client, shelf):
    """The select lists every state but "any", labelled in the learner's language."""
    english = learner_client.get(URL, headers=EN).text
    french = learner_client.get(URL, headers=FR).text
    for html, labels in [
        (english, ["Everything", "Not started", "In progress", "Watched", "Followed"]),
        (french, ["Tout", "Pas commencé", "En cours", "Regardé", "Suivi"]),
    ]:
        select = re.search(r'<select name="state" id="id_state">(.*?)</select>', html, re.S)[1]
        assert re.findall(r"<option [^>]*>([^<]*)</option>", select) == labels


def test_the_chosen_state_stays_selected(learner_client, shelf):
    """A shared or pushed URL shows which state the results are narrowed to."""
    html = learner_client.get(URL, {"state": "in_progress"}).text
    assert '<option value="in_progress" selected>' in html


def test_visitors_get_no_state_filter_and_a_state_in_the_address_changes_nothing(client, shelf):
    """Signed out there is no state: no select, every resource, no warning."""
    response = client.get(URL, {"state": "watched"}, headers=EN)
    assert 'name="state"' not in response.text
    assert len(card_slugs(response)) == 7
    assert "ignored" not in response.text
    assert "watch__badge" not in response.text


def test_an_htmx_request_gets_the_results_and_the_count_out_of_band(learner_client, shelf):
    """The filtered results replace #results; the status region keeps its element."""
    response = learner_client.get(URL, {"state": "watched"}, headers={"HX-Request": "true", **EN})
    html = response.text
    assert "<html" not in html
    assert "<form" not in html.split('<div id="results">')[0]
    assert html.lstrip().startswith(
        '<div id="results-status" class="resource-results__status" role="status" '
        'hx-swap-oob="innerHTML">'
    )
    assert '<div id="results">' in html
    assert sorted(card_slugs(response)) == ["finished-by-sittings", "one-click"]


def test_a_request_without_htmx_gets_the_whole_page_with_the_filters(learner_client, shelf):
    """Without JavaScript the form is a plain GET and the answer a whole page."""
    response = learner_client.get(URL, {"state": "followed"}, headers=EN)
    html = response.text
    assert html.lstrip().startswith("<!doctype html>")
    assert '<form method="get" action="/resources/"' in html
    assert '<div id="results-status" class="resource-results__status" role="status">' in html
    assert "hx-swap-oob" not in html.split('<div id="results">')[0]
    assert card_slugs(response) == ["followed"]


def test_a_history_restore_gets_the_whole_page(learner_client, shelf):
    """htmx asks for the whole page when its history cache misses: it gets it."""
    response = learner_client.get(
        URL,
        {"state": "followed"},
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert "<html" in response.text
    assert "hx-swap-oob" not in response.text.split('<div id="results">')[0]
