"""'Watch' stays in Parcours (issue 40, items 3 and 8): a catalogue card's "Watch" opens the
resource page's player for a video Parcours plays, YouTube second; a video on another site says it
is recorded by hand; the resource page shows one resume time."""

import re

import pytest
from django.urls import reverse

from progress.models import Watch
from tests.factories import ResourceFactory

URL = reverse("progress:catalogue")
EN = {"accept-language": "en"}
FR = {"accept-language": "fr"}
pytestmark = pytest.mark.django_db


def card(html, slug):
    start = html.index(f'id="resource-{slug}"')
    return html[start : html.index("</li>", start)]


def test_a_playable_video_is_watched_on_its_page_and_youtube_comes_second(client):
    ResourceFactory(
        slug="lecture", title="Reductions", watch_url="https://www.youtube.com/watch?v=09wntC6BT5o"
    )
    html = card(client.get(URL, headers=EN).text, "lecture")
    links = re.findall(r'<a[^>]* href="([^"]+)"[^>]*>([^<]*)', html)
    watch = [href for href, text in links if text == "Watch"]
    assert watch == ["/resources/lecture/#player"]
    assert ("https://www.youtube.com/watch?v=09wntC6BT5o", "on YouTube") in links
    assert html.index("#player") < html.index("youtube.com")
    french = card(client.get(URL, headers=FR).text, "lecture")
    assert 'href="/resources/lecture/#player">Regarder<span' in french
    assert ">sur YouTube<span" in french


def test_a_video_on_another_site_says_it_is_recorded_by_hand(client):
    ResourceFactory(
        slug="start", title="How GPUs work", watch_url="https://www.nvidia.com/on-demand/session/x/"
    )
    html = card(client.get(URL, headers=EN).text, "start")
    assert 'href="https://www.nvidia.com/on-demand/session/x/"' in html
    assert "#player" not in html
    assert "on another site: mark it watched here by hand" in html
    page = client.get("/resources/start/", headers=FR).text
    assert "Parcours ne peut pas enregistrer ce que vous y regardez" in page
    assert 'class="player"' not in page


def test_the_resource_page_shows_one_resume_time_with_javascript_and_one_without(
    learner, learner_client
):
    """The poster (shown by JavaScript) says where play starts; "Resume at" is only for a
    browser without JavaScript, in <noscript>."""
    lecture = ResourceFactory(
        slug="lecture", duration_minutes=60, watch_url="https://www.youtube.com/watch?v=09wntC6BT5o"
    )
    Watch.objects.create(user=learner, resource=lecture, logged_minutes=10, resume_seconds=654)
    html = learner_client.get("/resources/lecture/", headers=FR).text
    player = html[
        html.index('<section class="player"') : html.index(
            "</section>", html.index('<section class="player"')
        )
    ]
    assert "Lire ici, à partir de 10\u00a0min\u00a049" in player
    resume = re.search(r"<noscript>(.*?)</noscript>", player, re.S)
    assert resume and "Reprendre à 10\u00a0min\u00a054" in resume.group(1)
    assert player.count("Reprendre à") == 1


def next_up(html):
    return html.split('id="next-up"')[1].split("</section>")[0]


def test_next_up_watches_a_playable_video_here_and_youtube_comes_second(learner, learner_client):
    """The dashboard's next up: "Watch" opens the lecture's player on its page; YouTube is a
    second link that says it opens another site."""
    from tests.factories import StageFactory, StepFactory

    stage = StageFactory(title="Semaine 1", first_week=1, last_week=1, order=1)
    lecture = ResourceFactory(
        slug="lecture", title="Reductions", watch_url="https://www.youtube.com/watch?v=09wntC6BT5o"
    )
    talk = ResourceFactory(
        slug="talk", title="Talk", watch_url="https://www.nvidia.com/on-demand/session/x/"
    )
    StepFactory(stage=stage, order=1, resource=lecture)
    StepFactory(stage=stage, order=2, resource=talk)
    Watch.objects.create(user=learner, resource=lecture, logged_minutes=10, resume_seconds=600)
    card = next_up(learner_client.get("/", headers=EN).text)
    links = re.findall(r'<a[^>]* href="([^"]+)"[^>]*>([^<]*)', card)
    assert [href for href, text in links if text == "Watch"] == ["/resources/lecture/#player"]
    assert ("https://www.youtube.com/watch?v=09wntC6BT5o", "on YouTube") in links
    assert "on another site" in card.split("youtube.com")[1]


def test_next_up_on_another_site_says_it_is_recorded_by_hand(learner, learner_client):
    from tests.factories import StageFactory, StepFactory

    stage = StageFactory(title="Semaine 1", first_week=1, last_week=1, order=1)
    talk = ResourceFactory(
        slug="talk", title="Talk", watch_url="https://www.nvidia.com/on-demand/session/x/"
    )
    StepFactory(stage=stage, order=1, resource=talk)
    card = next_up(learner_client.get("/", headers=FR).text)
    assert 'href="https://www.nvidia.com/on-demand/session/x/"' in card
    assert "#player" not in card
    assert "sur un autre site : marquez-la regardée ici, à la main" in card
