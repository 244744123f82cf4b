"""Resources with no known video address link to a search of their series' own site, as a search."""

import re

import pytest
from django.urls import reverse

from curriculum import structure
from curriculum.models import Resource, Series
from tests.factories import ResourceFactory, SeriesFactory

EN = {"accept-language": "en"}
FR = {"accept-language": "fr"}
CATALOGUE = reverse("progress:catalogue")
GPU_MODE_SEARCH = "https://www.youtube.com/@GPUMODE/search?query="
ON_DEMAND_SEARCH = (
    "https://www.nvidia.com/en-us/on-demand/search/?facet.mimetype%5B%5D=event%20session"
    "&amp;layout=list&amp;page=1&amp;q="
)


def card(html, slug):
    """The catalogue card of one resource."""
    match = re.search(rf'<li class="resource-card" id="resource-{slug}">(.*?)</li>', html, re.S)
    assert match, slug
    return match.group(1)


def test_an_advanced_lecture_links_to_a_search_of_the_gpu_mode_channel(client, seed):
    """GPU MODE #36 has no known video: its card searches the channel for its title."""
    html = client.get(CATALOGUE, headers=EN).content.decode()
    lecture = card(html, "gpu-mode-36")
    assert f'href="{GPU_MODE_SEARCH}CUTLASS+and+Flash+ATtention+3"' in lecture
    assert "Search the GPU MODE channel" in lecture
    assert "this is a search, not the video" in lecture


def test_the_search_link_is_labelled_in_french(client, seed):
    """The same card in French says it searches the channel."""
    html = client.get(CATALOGUE, headers=FR).content.decode()
    lecture = card(html, "gpu-mode-36")
    assert "Chercher sur la chaîne GPU MODE" in lecture
    assert "c’est une recherche, pas la vidéo" in lecture


def test_a_lecture_with_a_known_video_links_to_it_and_not_to_a_search(client, seed):
    """GPU MODE #15 has a checked video address: Watch, no search."""
    lecture = card(client.get(CATALOGUE, headers=EN).content.decode(), "gpu-mode-15")
    assert 'href="https://www.youtube.com/watch?v=G6q719ck7ww"' in lecture
    assert "Search the" not in lecture


def test_the_gtc_architecture_session_searches_the_archive_for_its_architecture(client, seed):
    """The GTC home page is not a talk's address: the page searches On-Demand for Hopper."""
    url = reverse("progress:resource_detail", args=["gtc-architecture-hopper"])
    html = client.get(url, headers=EN).content.decode()
    assert f'href="{ON_DEMAND_SEARCH}Hopper+architecture&amp;sort=relevance"' in html
    assert "Search the NVIDIA On-Demand archive" in html
    assert "it is not the video" in html
    links = html[html.index('id="links-heading"') :]
    assert 'href="https://www.nvidia.com/gtc/"' not in links.split("</section>")[0]


def test_a_talk_with_no_link_searches_the_archive_for_its_title(client, seed):
    """“Advanced Strategies…” has no confirmed address: a search of On-Demand for its title."""
    url = reverse("progress:resource_detail", args=["advanced-strategies-gpu-programming"])
    html = client.get(url, headers=FR).content.decode()
    assert "q=Advanced+Strategies+for+High-Performance+GPU+Programming" in html
    assert "Chercher dans l’archive NVIDIA On-Demand" in html


def test_a_series_without_a_search_gives_no_search_link(client, seed):
    """PPoPP has no link and its series no search: nothing is invented."""
    url = reverse("progress:resource_detail", args=["ppopp"])
    html = client.get(url, headers=EN).content.decode()
    assert "Search the" not in html
    assert "No link is known yet" in html


def test_the_structure_exposes_watch_and_search_links(seed):
    """The dashboard reads them from structure.py: 45 resources with no known video, 30 searches."""
    resources = structure.current().resources
    assert len(resources) == 58
    assert sum(1 for resource in resources if not resource.watch_link) == 45
    searched = [resource for resource in resources if resource.search_link]
    assert len(searched) == 30
    assert all(not resource.watch_link for resource in searched)
    lecture = structure.current().by_slug["gpu-mode-1"]
    assert lecture.watch_link == "https://youtu.be/LuhJEEJQgUM"
    assert lecture.search_link is None


def test_a_curator_sets_a_series_search_in_admin(client, curator, db):
    """The search address is data: a curator types it, the resource page follows."""
    series = SeriesFactory(slug="talks", name="Talks")
    ResourceFactory(slug="a-talk", title="A talk", series=series, watch_url="")
    client.force_login(curator)
    response = client.post(
        reverse("admin:curriculum_series_change", args=[series.pk]),
        {
            "slug": "talks",
            "name_fr": "Talks",
            "order": 0,
            "search_url_template": "https://videos.example.com/find?q={query}",
            "search_name": "Example Videos",
            "search_place": "archive",
        },
    )
    assert response.status_code == 302
    html = client.get("/resources/a-talk/", headers=EN).content.decode()
    assert 'href="https://videos.example.com/find?q=A+talk"' in html
    assert "Search the Example Videos archive" in html
    assert Series.objects.get(pk=series.pk).search_place == "archive"


@pytest.mark.parametrize(
    "template", ["https://videos.example.com/find", "http://videos.example.com/?q={query}"]
)
def test_a_search_address_without_query_or_https_is_refused(client, curator, db, template):
    """Without {query}, or not over HTTPS, admin says why and keeps the old value."""
    series = SeriesFactory(slug="talks", name="Talks")
    client.force_login(curator)
    response = client.post(
        reverse("admin:curriculum_series_change", args=[series.pk]),
        {"slug": "talks", "name": "Talks", "order": 0, "search_url_template": template},
        headers=EN,
    )
    assert response.status_code == 200
    assert "with {query} where the searched words go" in response.content.decode()
    assert Series.objects.get(pk=series.pk).search_url_template == ""


def test_search_words_given_by_a_curator_replace_the_title(db):
    """A resource's search words, when set, are what the search looks for."""
    series = SeriesFactory(search_url_template="https://s.example.com/?q={query}")
    resource = ResourceFactory(series=series, watch_url="", search_terms="Hopper & TMA")
    assert Resource.objects.get(pk=resource.pk).search_link.url == (
        "https://s.example.com/?q=Hopper+%26+TMA"
    )
