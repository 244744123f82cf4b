"""The resource page of a YouTube video: the player first, drawn locally until play is pressed,
starting where the learner stopped; the dashboard says where to resume."""

import re

import pytest

from progress import actions
from progress.models import Profile, Watch
from tests.factories import ResourceFactory, SeriesFactory, StageFactory, StepFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
FR = {"accept-language": "fr"}


@pytest.fixture
def lecture(db):
    return ResourceFactory(
        slug="lecture",
        title="Reductions",
        duration_minutes=60,
        watch_url="https://www.youtube.com/watch?v=09wntC6BT5o&t=30",
        summary="Why reductions are the first parallel pattern to learn.",
    )


def stopped_at(learner, resource, seconds):
    Watch.objects.create(user=learner, resource=resource, logged_minutes=10, resume_seconds=seconds)


def player_of(html):
    return html[
        html.index('<section class="player"') : html.index(
            "</section>", html.index('<section class="player"')
        )
    ]


def test_the_page_asks_nothing_of_youtube_until_play(client, lecture):
    """No script, frame or image from YouTube in the page: a local poster and the link."""
    html = client.get("/resources/lecture/", headers=EN).content.decode()
    player = player_of(html)
    assert 'data-video="09wntC6BT5o"' in player and 'data-start="0"' in player
    assert "<iframe" not in html and "ytimg" not in html and "iframe_api" not in html
    sources = re.findall(r'(?:src|srcset)="([^"]+)"', html)
    assert all("youtube" not in source for source in sources)
    assert (
        '<a href="https://www.youtube.com/watch?v=09wntC6BT5o&amp;t=30" rel="noopener">Watch on YouTube</a>'
        in player
    )
    assert 'src="/static/js/player.js"' in html


def test_a_visitor_plays_without_recording(client, lecture):
    player = player_of(client.get("/resources/lecture/", headers=EN).content.decode())
    assert "data-record-url" not in player
    assert "Nothing you play is recorded." in player


def test_a_learner_plays_with_recording_and_the_way_to_turn_it_off(learner_client, lecture):
    player = player_of(learner_client.get("/resources/lecture/", headers=EN).content.decode())
    assert 'data-record-url="/resources/lecture/viewing/"' in player
    assert 'href="/settings/#id_records_viewing"' in player


def test_recording_turned_off_sends_nothing(learner, learner_client, lecture):
    Profile.objects.for_learner(learner)
    Profile.objects.filter(user=learner).update(records_viewing=False)
    player = player_of(learner_client.get("/resources/lecture/", headers=EN).content.decode())
    assert "data-record-url" not in player


def test_the_player_starts_a_few_seconds_before_where_the_learner_stopped(
    learner, learner_client, lecture
):
    stopped_at(learner, lecture, 8040)
    player = player_of(learner_client.get("/resources/lecture/", headers=EN).content.decode())
    assert 'data-start="8035"' in player
    assert "Resume at 2:14:00" in player
    french = player_of(learner_client.get("/resources/lecture/", headers=FR).content.decode())
    assert "Reprendre à 2\u00a0h\u00a014" in french


def test_a_start_in_the_address_wins(learner, learner_client, lecture):
    stopped_at(learner, lecture, 600)
    player = player_of(learner_client.get("/resources/lecture/?t=120", headers=EN).content.decode())
    assert 'data-start="120"' in player
    assert "Play here, from 2:00" in player


@pytest.mark.parametrize("start", ["-5", "abc", "1e3", ""])
def test_a_bad_start_in_the_address_is_ignored(learner, learner_client, lecture, start):
    stopped_at(learner, lecture, 600)
    player = player_of(
        learner_client.get(f"/resources/lecture/?t={start}", headers=EN).content.decode()
    )
    assert 'data-start="595"' in player


def test_the_video_comes_first_then_the_reason_then_the_learners_blocks(learner_client, lecture):
    html = learner_client.get("/resources/lecture/", headers=EN).content.decode()
    order = [
        html.index("<h1>"),
        html.index('id="player"'),
        html.index("Why reductions are the first parallel pattern"),
        html.index('id="balance"'),
        html.index('id="coding-lecture"'),
        html.index('id="links-heading"'),
    ]
    assert order == sorted(order)


def test_one_label_per_action(learner_client):
    """Logging minutes watched and logging code do not share a button label."""
    ResourceFactory(slug="course", kind="course", duration_minutes=720)
    html = learner_client.get("/resources/course/", headers=FR).content.decode()
    assert "Enregistrer ce visionnage" in html
    assert "Enregistrer la séance de code" in html
    assert ">Enregistrer la séance<" not in html
    assert "Pour toute la ressource : trois fois sa durée." in html


def test_a_series_without_text_or_links_gets_no_heading(client):
    series = SeriesFactory(name="Silent series", description="", website_url="")
    for field in ("channel_url", "community_url", "notes_url", "code_url"):
        setattr(series, field, "")
    series.save()
    ResourceFactory(slug="quiet", series=series)
    html = client.get("/resources/quiet/", headers=EN).content.decode()
    assert 'id="series-heading"' not in html


def directives(policy):
    """A Content-Security-Policy header as {directive: sources}."""
    parts = (part.split() for part in policy.split(";") if part.strip())
    return {name: set(sources) for name, *sources in parts}


def test_only_pages_with_a_video_let_youtube_in(client, lecture):
    """The policy of a video page is the site's, plus exactly the player's two hosts: the API's
    script and the privacy-enhanced frame; every other page keeps the site's."""
    ResourceFactory(slug="talk", watch_url="https://www.nvidia.com/en-us/on-demand/session/x/")
    site = directives(client.get("/resources/")["Content-Security-Policy"])
    video = directives(client.get("/resources/lecture/")["Content-Security-Policy"])
    assert video == site | {
        "script-src": {"'self'", "https://www.youtube.com"},
        "frame-src": {"https://www.youtube-nocookie.com"},
    }
    assert site["script-src"] == {"'self'"} and "frame-src" not in site
    assert directives(client.get("/resources/talk/")["Content-Security-Policy"]) == site


def test_a_talk_hosted_elsewhere_has_its_watch_link_at_the_top(client):
    ResourceFactory(
        slug="talk", title="A talk", watch_url="https://www.nvidia.com/en-us/on-demand/session/x/"
    )
    html = client.get("/resources/talk/", headers=EN).content.decode()
    assert 'id="player"' not in html
    assert html.index('class="resource__watch"') < html.index('id="links-heading"')


def test_the_dashboard_says_where_to_resume(learner, learner_client, seed):
    """The next-up step, half watched on its page, links to its page at the resume point."""
    from curriculum.models import Resource

    start = Resource.objects.get(is_start_here=True)
    first = Resource.objects.get(slug="gpu-mode-1")
    Watch.objects.create(user=learner, resource=start, finished_at="2026-12-01T10:00Z")
    stopped_at(learner, first, 8040)
    html = learner_client.get("/", headers=EN).content.decode()
    assert '<a href="/resources/gpu-mode-1/?t=8035#player">Resume at 2:14:00' in html
    french = learner_client.get("/", headers=FR).content.decode()
    assert "Reprendre à 2\u00a0h\u00a014" in french


def test_when_code_is_owed_next_up_still_says_where_to_resume(learner, learner_client):
    """Ten minutes played: next up is code, and its "then" step offers the resume point."""
    stage = StageFactory(title="Week 1", first_week=1, last_week=1, order=1)
    lecture = ResourceFactory(slug="lecture", watch_url="https://youtu.be/09wntC6BT5o")
    StepFactory(stage=stage, order=1, resource=lecture)
    actions.log_sitting(user=learner, resource=lecture, minutes=10)
    Watch.objects.filter(user=learner, resource=lecture).update(resume_seconds=600)
    html = learner_client.get("/", headers=EN).content.decode()
    next_up = html[html.index('<div id="next-up"') : html.index('<div id="next-up"') + 3000]
    assert "Next up: code" in next_up
    assert '<a href="/resources/lecture/?t=595#player">Resume at 10:00' in next_up
