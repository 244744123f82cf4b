"""'Watch' stays in Parcours (issue 40, items 3 and 8), in Chromium: a catalogue card's "Watch"
opens the video's page at its player, ready to resume, with one resume time on screen, with
JavaScript (the poster's "Play here, from") and without it ("Resume at"). Nothing here plays the
video, so nothing asks YouTube: the page loads nothing from YouTube before play (docs/player.md)."""

import re

import pytest
from playwright.sync_api import expect

from progress.models import Watch
from tests.browser.conftest import language_cookie, new_page, session_cookie
from tests.factories import ResourceFactory, UserFactory

WORDS = {
    "fr": {
        "watch": re.compile("^Regarder ?: Reductions$"),
        "play": "Lire ici, à partir de 10\u00a0min\u00a049",
        "resume": "Reprendre à",
    },
    "en": {
        "watch": re.compile("^Watch ?: Reductions$"),
        "play": "Play here, from 10:49",
        "resume": "Resume at",
    },
}


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("javascript", [True, False], ids=["javascript", "no-javascript"])
def test_watch_on_a_card_opens_the_player_here_with_one_resume_time(
    browser, live_server, request, language, javascript, transactional_db
):
    learner = UserFactory()
    lecture = ResourceFactory(
        slug="lecture",
        title="Reductions",
        duration_minutes=60,
        watch_url="https://www.youtube.com/watch?v=09wntC6BT5o",
    )
    Watch.objects.create(user=learner, resource=lecture, logged_minutes=10, resume_seconds=654)
    page = new_page(
        browser,
        request,
        base_url=live_server.url,
        java_script_enabled=javascript,
        extra_http_headers={"Accept-Language": language},
    )
    page.context.add_cookies(
        session_cookie(live_server, learner) + language_cookie(live_server, language)
    )
    asked_youtube = []
    page.route(
        re.compile(r"^https://([a-z0-9-]+\.)*(youtube|ytimg)"),
        lambda route: (asked_youtube.append(route.request.url), route.abort()),
    )
    words = WORDS[language]
    page.goto("/resources/")
    watch = page.locator("#resource-lecture .resource-card__watch a").first
    expect(watch).to_have_accessible_name(words["watch"])
    watch.focus()
    page.keyboard.press("Enter")

    page.wait_for_url(re.compile(r"/resources/lecture/#player$"))
    player = page.locator("#player")
    if javascript:
        expect(page.locator("#player-play")).to_be_visible()
        expect(page.locator("#player-play")).to_contain_text(words["play"])
        expect(player.get_by_text(words["resume"])).to_have_count(0)
    else:
        expect(page.locator("#player-play")).to_be_hidden()
        expect(player.get_by_text(re.compile(words["resume"]))).to_be_visible()
    visible_times = page.locator("main").inner_text().count(words["resume"]) + page.locator(
        "main"
    ).inner_text().count(words["play"].split(",")[0] + ",")
    assert visible_times == 1
    assert asked_youtube == []


def test_next_up_watch_opens_the_player_here(page, sign_in, transactional_db):
    """The dashboard's next up, by keyboard: "Watch" opens the lecture's page at its player."""
    from tests.browser.test_player import a_lecture_then_a_talk

    learner = UserFactory()
    lecture = a_lecture_then_a_talk()
    Watch.objects.create(user=learner, resource=lecture, logged_minutes=10, resume_seconds=654)
    sign_in(learner)
    watch = page.locator("#next-up").get_by_role(
        "link", name=re.compile("^Regarder ?: Reductions$")
    )
    expect(watch).to_have_attribute("href", "/resources/lecture/#player")
    expect(
        page.locator("#next-up").get_by_role("link", name=re.compile("^sur YouTube"))
    ).to_have_attribute("href", "https://www.youtube.com/watch?v=09wntC6BT5o")
    watch.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/resources/lecture/#player$"))
    expect(page.locator("#player-play")).to_contain_text(
        "Lire ici, à partir de 10\u00a0min\u00a049"
    )
