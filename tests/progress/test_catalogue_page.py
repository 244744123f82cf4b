"""The catalogue's cards are built once per curriculum revision and language (progress/catalogue.py):
a curator's edit is on the next page, and nothing of a learner is kept for another."""

import re

from django.test import Client
from django.urls import reverse

from curriculum.models import Resource
from progress import actions

URL = reverse("progress:catalogue")
EN = {"accept-language": "en"}
FR = {"accept-language": "fr"}


def card(html, slug):
    return html[html.index(f'id="resource-{slug}"') :].split("</li>")[0]


def test_a_curators_edit_is_on_the_next_catalogue_in_each_language(client, seed):
    """The cards built for the old revision are dropped with it."""
    client.get(URL, headers=EN)
    client.get(URL, headers=FR)
    Resource.objects.filter(slug="gpu-mode-15").update(
        title_en="CUTLASS, edited", title_fr="CUTLASS, modifié", speaker="Someone Else"
    )
    english = card(client.get(URL, headers=EN).text, "gpu-mode-15")
    french = card(client.get(URL, headers=FR).text, "gpu-mode-15")
    assert "CUTLASS, edited" in english and "Someone Else" in english
    assert "CUTLASS, modifié" in french and "Someone Else" in french


def test_the_cards_speak_the_language_of_each_request(client, seed):
    """One process serves English then French then English: each page has its own words."""
    assert "Not started" not in client.get(URL, headers=EN).text  # a visitor has no state
    assert "Watch<span" in card(client.get(URL, headers=EN).text, "gpu-mode-15")
    assert "Regarder<span" in card(client.get(URL, headers=FR).text, "gpu-mode-15")
    assert "Watch<span" in card(client.get(URL, headers=EN).text, "gpu-mode-15")


def test_two_learners_each_see_only_their_own_state(client, seed, learner, other_learner):
    """The first learner's watched card does not follow the second, served just after."""
    actions.mark_watched(user=learner, resource=Resource.objects.get(slug="gpu-mode-15"))
    client.force_login(learner)
    first = card(client.get(URL, headers=EN).text, "gpu-mode-15")
    client.force_login(other_learner)
    second = card(client.get(URL, headers=EN).text, "gpu-mode-15")
    client.logout()
    visitor = card(client.get(URL, headers=EN).text, "gpu-mode-15")
    assert "watch--done" in first and "Mark not watched" in first
    assert "watch--not_started" in second and "Mark watched" in second
    assert "watch-gpu-mode-15-watch" not in visitor


def test_a_search_answers_htmx_with_the_results_alone(client, seed):
    """The fragment is the page's results, its status swapped out of band; no layout, no form."""
    page = client.get(URL, {"q": "CUTLASS"}, headers=EN).text
    fragment = client.get(URL, {"q": "CUTLASS"}, headers={**EN, "HX-Request": "true"}).text
    assert "<html" not in fragment and 'role="search"' not in fragment
    assert (
        'id="results-status" class="resource-results__status" role="status" hx-swap-oob' in fragment
    )
    results = page[page.index('<div id="results">') : page.index("</section>")]
    assert " ".join(results.split()) in " ".join(fragment.split())


def test_every_form_of_the_page_carries_the_pages_one_token_and_is_accepted(seed, learner):
    """The cards are built once per process with a slot for the token: each request fills in its
    own, the same as the page's header and menu forms, and a card's form posts with it."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    html = client.get(URL, headers=EN).text
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))
    header = re.search(r'"X-CSRFToken": "([^"]+)"', html).group(1)
    assert tokens == {header}
    form = card(html, "gpu-mode-15").split('<form method="post" action="')[1]
    action = form.split('"')[0]
    back = re.search(r'name="next" value="([^"]+)"', form).group(1)
    posted = {"csrfmiddlewaretoken": header, "next": back, "place": "watch-gpu-mode-15"}
    assert client.post(action, posted).status_code == 302
    assert "watch--done" in card(client.get(URL, headers=EN).text, "gpu-mode-15")


def test_a_cards_forms_come_back_to_the_address_of_this_request(learner_client, seed):
    """Without JavaScript, a card's forms return to the filtered page at the card: the address
    is this request's, escaped in the attribute."""
    html = learner_client.get(URL, {"q": "CUTLASS", "kind": "lecture"}, headers=EN).text
    assert (
        'name="next" value="/resources/?q=CUTLASS&amp;kind=lecture#resource-gpu-mode-15"'
        in card(html, "gpu-mode-15")
    )
    other = learner_client.get(URL, {"q": "cutlass"}, headers=EN).text
    assert 'value="/resources/?q=cutlass#resource-gpu-mode-15"' in card(other, "gpu-mode-15")


def test_a_curators_edit_is_in_a_learners_controls_in_every_state(client, seed, learner):
    """A learner's cards, built once per revision in their not-started and done states (and
    printed per request in progress), name the resource as the curator just wrote it."""
    slugs = ("gpu-mode-15", "gpu-mode-12", "gpu-mode-8")
    resources = {r.slug: r for r in Resource.objects.filter(slug__in=slugs)}
    actions.mark_watched(user=learner, resource=resources["gpu-mode-12"])
    actions.log_sitting(user=learner, resource=resources["gpu-mode-8"], minutes=10)
    client.force_login(learner)
    client.get(URL, headers=EN)
    for slug in slugs:
        Resource.objects.filter(slug=slug).update(title_en=f"{slug}, edited")
    html = client.get(URL, headers=EN).text
    assert "\x00" not in html
    for slug, status in zip(slugs, ("not_started", "done", "in_progress"), strict=True):
        controls = card(html, slug).split(f'id="watch-{slug}-watch"')[1]
        assert f"watch--{status}" in card(html, slug)
        assert f'<span class="visually-hidden">: {slug}, edited</span>' in controls
