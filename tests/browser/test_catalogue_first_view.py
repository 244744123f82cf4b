"""The catalogue's first screen: titles at once, controls tall enough to tap (WCAG 2.5.8), and on
a phone the first result of a search on the first screen; accents do not matter in the search."""

from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.conftest import new_page, serious_accessibility_violations
from tests.factories import UserFactory

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}  # fmt: skip
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
CONTROLS = "main input:not([type=hidden]), main select, main button, main summary, header select, header button"  # fmt: skip


def control_heights(page):
    """(description, height) of every visible control on the page."""
    return page.eval_on_selector_all(
        CONTROLS,
        """els => els.filter(e => e.getClientRects().length).map(e => [
            e.outerHTML.slice(0, 80), e.getBoundingClientRect().height])""",
    )


@pytest.fixture
def seeded(transactional_db):
    call_command("load_curriculum", stdout=StringIO())


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390", "1280"])
def test_the_first_view_shows_titles_and_every_control_is_24_px_tall(
    browser, live_server, request, seeded, size
):
    """Signed out, the series of the "start here" talk is open with its titles; no control is
    shorter than 24 px, the language switcher included."""
    page = new_page(browser, request, base_url=live_server.url, **size)
    page.goto("/resources/")
    expect(page.locator("details.series-group[open]")).to_have_count(1)
    expect(page.locator("#resource-how-gpu-computing-works h4")).to_be_visible()
    short = [(html, height) for html, height in control_heights(page) if height < 24]
    assert short == []
    assert serious_accessibility_violations(page) == []


def test_on_a_phone_the_first_result_of_a_search_is_on_the_first_screen(
    browser, live_server, request, seeded
):
    """390 by 844 px, signed in: "réduction" finds GPU MODE #9, whose title is above the fold; the
    other filters are folded under "Plus de filtres" and open on a tap."""
    from tests.factories import PASSWORD

    page = new_page(browser, request, base_url=live_server.url, **PHONE)
    UserFactory(username="ada")
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill("ada")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").last.click()
    page.goto("/resources/?q=r%C3%A9duction")
    title = page.locator("#resource-gpu-mode-9 h4")
    expect(title).to_be_visible()
    box = title.bounding_box()
    assert box["y"] + box["height"] <= 844
    kind = page.get_by_label("Type")
    expect(kind).to_be_hidden()
    page.get_by_text("Plus de filtres").click()
    expect(kind).to_be_visible()
    assert [(h, height) for h, height in control_heights(page) if height < 24] == []


def test_on_a_desktop_every_filter_shows_without_unfolding(page, seeded):
    """1280 px: the filters are all there; choosing one keeps the htmx swap."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/resources/")
    expect(page.get_by_text("Plus de filtres")).to_be_hidden()
    kind = page.get_by_label("Type")
    expect(kind).to_be_visible()
    kind.select_option("channel")
    expect(page.locator("#results-status")).to_contain_text("5 ressources")
