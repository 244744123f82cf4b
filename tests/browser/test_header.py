"""The header (issue 40, item 7), in Chromium: one row at 1280 px for a signed-in curator, the
longest header there is, in French and English, with the language a quiet control that still
switches; on a 390 px phone the menu's toggle stays where it is when tapped, and the menu opens
below it, reachable by keyboard."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import language_cookie, new_page, session_cookie
from tests.factories import UserFactory

ROW = 80  # px: one row of links, with room for focus outlines; three rows measured 127


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_header_is_one_row_at_1280(browser, live_server, request, language, transactional_db):
    curator = UserFactory(username="marguerite-perey", is_staff=True)
    page = new_page(
        browser, request, base_url=live_server.url, viewport={"width": 1280, "height": 800}
    )
    page.context.add_cookies(
        session_cookie(live_server, curator) + language_cookie(live_server, language)
    )
    page.goto("/")
    height = page.locator(".site-header").bounding_box()["height"]
    assert height < ROW, f"the header is {height} px high"
    # The language is a quiet control: no filled button in the header.
    switch = page.locator(".language-switcher button")
    assert switch.evaluate("b => getComputedStyle(b).backgroundColor") in {
        "rgba(0, 0, 0, 0)",
        "transparent",
    }
    other, lang = ("English", "en") if language == "fr" else ("Français", "fr")
    page.get_by_role("button", name=other).click()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert page.locator(".site-header").bounding_box()["height"] < ROW


def test_on_a_phone_the_menu_toggle_stays_in_place_when_tapped(
    browser, live_server, request, transactional_db
):
    learner = UserFactory(username="chien-shiung-wu")
    page = new_page(
        browser,
        request,
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
    )
    page.context.add_cookies(session_cookie(live_server, learner))
    page.goto("/")
    toggle = page.locator(".nav__toggle")
    before = toggle.bounding_box()
    toggle.tap()
    expect(page.get_by_role("link", name="Statistiques")).to_be_visible()
    after = toggle.bounding_box()
    assert (round(after["x"]), round(after["y"])) == (round(before["x"]), round(before["y"])), (
        before,
        after,
    )
    # The open menu is below the toggle, and keyboard reaches its links after it.
    assert (
        page.get_by_role("link", name="Statistiques").bounding_box()["y"]
        > after["y"] + after["height"] - 1
    )
    toggle.tap()
    expect(page.get_by_role("link", name="Statistiques")).to_be_hidden()
    assert toggle.bounding_box()["y"] == before["y"]
    page.get_by_role("link", name="Parcours", exact=True).focus()
    page.keyboard.press("Tab")
    expect(toggle).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Accueil")).to_be_focused()
    assert toggle.bounding_box()["y"] == before["y"]
