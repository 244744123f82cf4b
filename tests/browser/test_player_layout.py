"""The video page does not jump (issue 40, item 4): the player's box is reserved from the first
paint, so the page's cumulative layout shift, measured in Chromium by a PerformanceObserver of
layout-shift entries, stays under 0.1 while the player's script arrives late and when play is
pressed, on a phone and a desktop.

YouTube cannot be reached from the test machines: page.route serves the stand-in of YouTube's
IFrame API and embed (tests/browser/stand_in/, as tests/browser/test_player.py does), and
static/js/player.js is held back 600 ms, as a slow network would, so that a box the script makes
room for would shift what is below it after the first paint."""

import re
import time

import pytest
from playwright.sync_api import expect

from progress.models import Profile
from tests.browser.conftest import language_cookie, new_page, session_cookie
from tests.browser.test_player import a_lecture_then_a_talk, serve_youtube, until
from tests.factories import UserFactory

# Counted as web.dev counts it: every shift not caused by the learner's own input just before.
OBSERVE_SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) window.__shifts.push(entry.value);
  }
}).observe({type: "layout-shift", buffered: true});
"""
CLS = "window.__shifts.reduce((sum, value) => sum + value, 0)"
SCRIPT_DELAY = 0.6


@pytest.mark.parametrize(
    "viewport",
    [{"width": 390, "height": 844}, {"width": 1280, "height": 800}],
    ids=["phone", "desktop"],
)
def test_the_video_page_does_not_jump_when_the_player_appears_and_plays(
    browser, live_server, request, viewport, transactional_db
):
    learner = UserFactory()
    a_lecture_then_a_talk()
    # Nothing recorded: no beat still on its way to the live server when the test ends.
    Profile.objects.for_learner(learner)
    Profile.objects.filter(user=learner).update(records_viewing=False)
    page = new_page(browser, request, base_url=live_server.url, viewport=viewport)
    page.set_default_timeout(20_000)
    page.context.add_cookies(
        session_cookie(live_server, learner) + language_cookie(live_server, "fr")
    )
    page.add_init_script(OBSERVE_SHIFTS)
    serve_youtube(page, duration=3600)

    def late(route):
        time.sleep(SCRIPT_DELAY)
        route.continue_()

    page.route(re.compile(r"/static/js/player(\.[0-9a-f]+)?\.js$"), late)
    page.goto("/resources/lecture/")
    expect(page.locator("#player-play")).to_be_visible()
    page.wait_for_timeout(300)
    before_play = page.evaluate(CLS)

    page.locator("#player-play").click()
    until(page, "window.youtubeStandIn && youtubeStandIn.getPlayerState() === 1")
    page.wait_for_timeout(600)
    after_play = page.evaluate(CLS)

    assert before_play < 0.1, f"CLS {before_play:.3f} before play"
    assert after_play < 0.1, f"CLS {after_play:.3f} after play"
