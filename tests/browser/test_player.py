"""Watching inside Parcours (issue 25), in Chromium: a 60-minute lecture played on its page is
recorded as it plays, resumes where the learner stopped, counts a replay once, and turns watched at
the end, after which next up is code. Keyboard only; axe finds nothing serious; 390 and 1280 px,
French and English.

YouTube cannot be reached from the test machines, so page.route serves a stand-in for
https://www.youtube.com/iframe_api and for the privacy-enhanced embed (tests/browser/stand_in/):
it implements the documented surface static/js/player.js relies on (YT.Player, onReady,
onStateChange, getCurrentTime, getDuration, getPlaybackRate, the start parameter and seekTo), and
the video plays on the page's clock, which page.clock drives. Any other request to YouTube's hosts
is refused and recorded.
"""

import re
import time
from pathlib import Path

from playwright.sync_api import expect

from progress import actions
from progress.models import Profile, Viewing, Watch, WatchEvent
from tests.browser.conftest import (
    language_cookie,
    new_page,
    serious_accessibility_violations,
    session_cookie,
)
from tests.factories import ResourceFactory, StageFactory, StepFactory, UserFactory

STAND_IN = Path(__file__).parent / "stand_in"
HOUR = 3600
BEAT_SECONDS = 30  # static/js/player.js sends what was played every 30 s while playing
MAX_TABS = 40
YOUTUBE_HOSTS = re.compile(
    r"^https://([a-z0-9-]+\.)*(youtube\.com|youtube-nocookie\.com|ytimg\.com|googlevideo\.com)/"
)
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

WORDS = {
    "fr": {
        "play": "Lire ici",
        "play_from": re.compile("Lire ici, à partir de (9\u00a0min\u00a05|10\u00a0min\u00a00)"),
        "resume": re.compile("Reprendre à 10\u00a0min\u00a00"),
        "ten_minutes": "En cours : 10\u00a0min sur 1\u00a0h",
        "watched": "Regardée",
        "announcement": "« Reductions » est regardé : vous en avez lu 95 %.",
        "code": "À suivre : coder",
    },
    "en": {
        "play": "Play here",
        "play_from": re.compile("Play here, from (9:5|10:0)"),
        "resume": re.compile("Resume at 10:0"),
        "ten_minutes": "In progress: 10\u00a0min of 1\u00a0h",
        "watched": "Watched",
        "announcement": "“Reductions” is watched: you played 95 % of it.",
        "code": "Next up: code",
    },
}


def serve_youtube(page, duration):
    """Route YouTube's hosts to the stand-ins; return the list of the addresses asked of them."""
    asked = []

    def refuse(route):
        asked.append(route.request.url)
        route.abort()

    def api(route):
        asked.append(route.request.url)
        script = (STAND_IN / "iframe_api.js").read_text(encoding="utf-8")
        route.fulfill(
            content_type="text/javascript",
            body=script.replace("__DURATION__", str(duration)),
        )

    def embed(route):
        asked.append(route.request.url)
        route.fulfill(content_type="text/html", path=STAND_IN / "embed.html")

    # The routes registered last are tried first.
    page.route(YOUTUBE_HOSTS, refuse)
    page.route("https://www.youtube.com/iframe_api", api)
    page.route(re.compile(r"^https://www\.youtube-nocookie\.com/embed/[\w-]{11}\?"), embed)
    return asked


def a_lecture_then_a_talk():
    """A path whose first step is a 60-minute lecture on YouTube, then a talk."""
    stage = StageFactory(title="Semaine 1", first_week=1, last_week=1, order=1)
    lecture = ResourceFactory(
        slug="lecture",
        title="Reductions",
        duration_minutes=60,
        watch_url="https://www.youtube.com/watch?v=09wntC6BT5o",
    )
    StepFactory(stage=stage, order=1, resource=lecture)
    StepFactory(stage=stage, order=2, resource=ResourceFactory(slug="talk", title="Talk"))
    return lecture


def open_as(browser, live_server, request, learner, language, viewport):

    page = new_page(
        browser,
        request,
        base_url=live_server.url,
        viewport=viewport,
        extra_http_headers={"Accept-Language": language},
    )
    page.set_default_timeout(20_000)  # two cores shared by many
    page.context.add_cookies(
        session_cookie(live_server, learner) + language_cookie(live_server, language)
    )
    return page


def eventually(check, seconds=20):
    """Wait until check() is true."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"still not true after {seconds} s")
        time.sleep(0.05)


def until(page, expression):
    """Wait until the expression is true in the page (wait_for_function would need the eval
    that the site's CSP forbids)."""
    eventually(lambda: page.evaluate(expression))


def tab_to(page, selector):
    """Press Tab until the element the selector names has focus."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            return
    raise AssertionError(f"{selector} not reached in {MAX_TABS} presses of Tab")


def is_beat(response):
    return response.url.endswith("/resources/lecture/viewing/")


def play_for(page, seconds):
    """Let the video play this long on the page's clock, waiting for each beat's answer."""
    answer = None
    for _ in range(seconds // BEAT_SECONDS):
        with page.expect_response(is_beat) as beat:
            page.clock.run_for(BEAT_SECONDS * 1000)
        assert beat.value.status == 200, beat.value.text()
        answer = beat.value.json()
    return answer


def press_play(page):
    """Tab to the poster, press Enter, and wait for the stand-in to say it plays."""
    tab_to(page, "#player-play")
    page.keyboard.press("Enter")
    until(page, "window.youtubeStandIn && youtubeStandIn.getPlayerState() === 1")
    # The player takes focus, so that the video's own keys work at once.
    expect(page.locator("#player-iframe")).to_be_focused()
    until(page.frame(url=re.compile("youtube-nocookie")), "document.hasFocus()")


def position(page):
    return page.evaluate("youtubeStandIn.getCurrentTime()")


def test_a_lecture_played_on_its_page_resumes_counts_a_replay_once_and_ends_watched(
    browser, live_server, request, transactional_db, monkeypatch
):
    """The whole journey once, in French on a phone; English on a desktop is the next test."""
    language, viewport = "fr", PHONE
    words = WORDS[language]
    # The page's clock plays an hour in a few real seconds; the rate limit counts real minutes.
    monkeypatch.setattr("progress.views.viewing.BEATS_PER_MINUTE", 1000)
    lecture = a_lecture_then_a_talk()
    learner = UserFactory(username="lovelace")
    page = open_as(browser, live_server, request, learner, language, viewport)
    asked = serve_youtube(page, HOUR)
    page.clock.install()

    # The page draws its own poster: nothing is asked of YouTube until play.
    page.goto("/resources/lecture/")
    expect(page.locator("#player-play")).to_contain_text(words["play"])
    assert serious_accessibility_violations(page) == []
    assert asked == []
    press_play(page)
    assert len(asked) == 2 and "https://www.youtube.com/iframe_api" in asked
    embed = next(url for url in asked if "nocookie" in url)
    assert re.match(r"https://www\.youtube-nocookie\.com/embed/09wntC6BT5o\?.*start=0", embed)

    # Ten minutes play, then the learner pauses with YouTube's k key: five paused minutes add nothing.
    answer = play_for(page, 600)
    assert answer["watched_minutes"] == 10
    with page.expect_response(is_beat):
        page.keyboard.press("k")
    page.clock.run_for(300_000)
    assert Watch.objects.get(user=learner).watched_minutes == 10

    # Reload: the page says ten minutes watched and the player starts a few seconds before where
    # the learner stopped, near 10:00 (the page's clock also runs on real time: a few seconds more).
    page.reload()
    expect(page.locator("#watch-lecture-watch")).to_contain_text(words["ten_minutes"])
    expect(page.locator("#player-play")).to_contain_text(words["play_from"])
    # One time on the page (issue 40, item 8): the poster's; "Resume at" is for no JavaScript.
    expect(page.locator("#player")).not_to_contain_text(words["resume"])

    # The dashboard's next up says so too, and its link opens the page there.
    page.goto("/")
    expect(page.locator("#next-up .resume-link")).to_have_text(words["resume"])
    tab_to(page, "#next-up .resume-link a")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/resources/lecture/\?t=(59\d|60\d)#player$"))
    press_play(page)
    assert 595 <= position(page) < 610

    # Back to the start with YouTube's 0 key, and the same ten minutes again: still ten.
    page.keyboard.press("0")
    until(page, "youtubeStandIn.getCurrentTime() < 5")
    first = Viewing.objects.get().played_seconds
    answer = play_for(page, 600)
    assert answer["watched_minutes"] == 10
    assert answer["watched_seconds"] - first < 10  # the replay's own few real seconds
    assert Watch.objects.get(user=learner).watched_minutes == 10
    assert WatchEvent.objects.sittings().count() == 1

    # On to the end: at 95 % the page says it is watched, in its live region.
    play_for(page, HOUR - 600)
    expect(page.locator("#player-status")).to_have_text(words["announcement"])
    until(page, "youtubeStandIn.getPlayerState() === 0")
    # The end's beat lands: played to the end, the next viewing starts from the top.
    eventually(lambda: Watch.objects.get(user=learner, resource=lecture).resume_seconds == 0)
    watch = Watch.objects.get(user=learner, resource=lecture)
    assert (watch.is_finished, watch.watched_minutes) == (True, 60)
    assert serious_accessibility_violations(page) == []

    # The dashboard: the lecture is done and an hour watched asks for code next.
    page.goto("/")
    expect(page.locator("#next-up").get_by_role("heading")).to_have_text(words["code"])
    assert serious_accessibility_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert all(
        url == "https://www.youtube.com/iframe_api" or "youtube-nocookie.com/embed/" in url
        for url in asked
    ), asked


def test_in_english_on_a_desktop_the_player_resumes_and_next_up_turns_to_code(
    browser, live_server, request, transactional_db
):
    """The journey's other language and width, from ten minutes watched: the page's words, the
    resume link from the dashboard, a beat recorded from where it resumed, axe and the width;
    once watched, next up is code. (The words themselves are tested through the client too.)"""
    words = WORDS["en"]
    lecture = a_lecture_then_a_talk()
    learner = UserFactory(username="lovelace")
    actions.log_sitting(user=learner, resource=lecture, minutes=10)
    Watch.objects.filter(user=learner, resource=lecture).update(resume_seconds=600)
    page = open_as(browser, live_server, request, learner, "en", DESKTOP)
    serve_youtube(page, HOUR)
    page.clock.install()

    page.goto("/")
    expect(page.locator("#next-up .resume-link")).to_have_text(words["resume"])
    tab_to(page, "#next-up .resume-link a")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/resources/lecture/\?t=595#player$"))
    expect(page.locator("#watch-lecture-watch")).to_contain_text(words["ten_minutes"])
    expect(page.locator("#player-play")).to_contain_text(words["play_from"])
    # One time on the page (issue 40, item 8): the poster's; "Resume at" is for no JavaScript.
    expect(page.locator("#player")).not_to_contain_text(words["resume"])
    assert serious_accessibility_violations(page) == []
    press_play(page)
    assert 595 <= position(page) < 610
    play_for(page, BEAT_SECONDS)
    assert 585 <= Viewing.objects.get().ranges[0][0] < 610
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]

    actions.mark_watched(user=learner, resource=lecture)
    page.goto("/")
    expect(page.locator("#next-up").get_by_role("heading")).to_have_text(words["code"])
    assert serious_accessibility_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]


def hide_the_tab(page, hidden):
    """What switching to another tab and back does to the page (headless Chromium's tab is
    always visible)."""
    page.evaluate(
        "hidden => { Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }",
        hidden,
    )


def test_skipped_seconds_and_a_hidden_tab_count_nothing(
    browser, live_server, request, transactional_db
):
    """A minute played, 30 s skipped with YouTube's l key, a minute played, two minutes in a
    hidden tab (the video plays on), half a minute back in view: 2.5 minutes recorded."""
    a_lecture_then_a_talk()
    learner = UserFactory(username="lovelace")
    page = open_as(browser, live_server, request, learner, "fr", PHONE)
    serve_youtube(page, HOUR)
    page.clock.install()
    page.goto("/resources/lecture/")
    press_play(page)
    play_for(page, 60)
    for _ in range(3):
        page.keyboard.press("l")
    play_for(page, 60)
    with page.expect_response(is_beat):
        hide_the_tab(page, True)
    page.clock.run_for(120_000)
    hide_the_tab(page, False)
    play_for(page, 30)
    viewing = Viewing.objects.get()
    # Three ranges, give or take the second a seek costs and the real seconds that pass while the
    # test drives the clock.
    starts = [start for start, _ in viewing.ranges]
    assert starts[0] == 0 and 90 <= starts[1] < 100 and 270 <= starts[2] < 285, viewing.ranges
    assert 145 <= viewing.played_seconds < 160, viewing.ranges
    assert Watch.objects.get(user=learner).watched_minutes == round(viewing.played_seconds / 60)


def test_recording_turned_off_plays_and_sends_nothing(
    browser, live_server, request, transactional_db
):
    """The video plays; no beat leaves the page, and no row is written."""
    a_lecture_then_a_talk()
    learner = UserFactory(username="lovelace")
    Profile.objects.for_learner(learner)
    Profile.objects.filter(user=learner).update(records_viewing=False)
    page = open_as(browser, live_server, request, learner, "en", DESKTOP)
    serve_youtube(page, HOUR)
    beats = []
    page.on("request", lambda r: beats.append(r.url) if "/viewing/" in r.url else None)
    page.clock.install()
    page.goto("/resources/lecture/")
    expect(page.locator("#player-privacy")).to_contain_text("Nothing you play is recorded.")
    press_play(page)
    page.clock.run_for(120_000)
    page.keyboard.press("k")
    until(page, "youtubeStandIn.getPlayerState() === 2")
    assert position(page) >= 120
    assert beats == []
    assert not Viewing.objects.exists() and not Watch.objects.exists()


def test_without_javascript_the_link_and_the_typed_sitting_remain(
    browser, live_server, request, transactional_db
):
    """The 12 h course without JavaScript: no poster, nothing asked of YouTube; its link and
    the typed sitting, as before the player."""

    course = ResourceFactory(
        slug="course",
        kind="course",
        title="CUDA course",
        duration_minutes=720,
        watch_url="https://youtu.be/86FAWCzIe_4",
    )
    learner = UserFactory(username="lovelace")
    page = new_page(
        browser, request, base_url=live_server.url, viewport=PHONE, java_script_enabled=False
    )
    page.context.add_cookies(session_cookie(live_server, learner))
    asked = serve_youtube(page, 12 * HOUR)
    page.goto("/resources/course/")
    expect(page.locator("#player-play")).to_be_hidden()
    expect(page.get_by_role("link", name="Regarder sur YouTube")).to_have_attribute(
        "href", "https://youtu.be/86FAWCzIe_4"
    )
    page.locator("#watch-course-minutes").fill("25")
    page.locator("#watch-course-log").click()
    expect(page.locator("#watch-course-watch")).to_contain_text("25\u00a0min")
    assert asked == []
    assert Watch.objects.get(user=learner, resource=course).watched_minutes == 25
