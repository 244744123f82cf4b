"""The dashboard fits: a learner part-way along the seed's path sees it in at most 2,000 px at
1280 px and 3,000 px at 390 px, under a phone header of at most 120 px whose menu opens from the
keyboard; axe finds nothing serious at either width, in French and English.

PARCOURS_SCREENSHOTS=docs/img saves the README's two screenshots from the same pages.
"""

import os
import uuid
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from curriculum.models import Resource
from progress import actions
from progress.models import CodingSession, Profile
from tests.browser.conftest import (
    language_cookie,
    new_page,
    serious_accessibility_violations,
    session_cookie,
)
from tests.factories import UserFactory

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
MOST = {1280: 2000, 390: 3000}
SCREENSHOTS = os.environ.get("PARCOURS_SCREENSHOTS", "")


def a_learner_part_way():
    """The seed's curriculum; week 1 watched, the 12 h course begun, a few days of code."""
    call_command("load_curriculum", stdout=StringIO())
    learner = UserFactory(username="lovelace")
    profile = Profile.objects.for_learner(learner)
    profile.started_on = timezone.localdate() - timedelta(days=9)
    profile.save()
    for slug in ("how-gpu-computing-works", "gpu-mode-1", "gpu-mode-3"):
        resource = Resource.objects.filter(slug=slug).first()
        if resource is not None:
            actions.mark_watched(user=learner, resource=resource)
    course = Resource.objects.get(slug="freecodecamp-cuda-course")
    actions.log_sitting(user=learner, resource=course, minutes=150)
    talk = Resource.objects.get(slug="how-gpu-computing-works")
    today = timezone.localdate()
    CodingSession.objects.bulk_create(
        CodingSession(
            user=learner,
            day=today - timedelta(days=back),
            minutes=45,
            built=f"A reduction kernel, take {back}",
            resource=talk,
            idempotency_key=uuid.uuid4(),
        )
        for back in (1, 2, 3)
    )
    return learner


def open_dashboard(browser, live_server, request, viewport, language):
    page = new_page(
        browser,
        request,
        base_url=live_server.url,
        viewport=viewport,
        extra_http_headers={"Accept-Language": language},
    )
    page.set_default_timeout(20_000)  # two cores shared by many: the first page can be slow
    learner = a_learner_part_way()
    page.context.add_cookies(
        session_cookie(live_server, learner) + language_cookie(live_server, language)
    )
    page.goto("/")
    return page


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_dashboard_fits_and_axe_finds_nothing_serious(
    browser, live_server, request, viewport, language
):
    """Part of the path done: the page's height and the header's stay within bounds; axe is clean."""
    page = open_dashboard(browser, live_server, request, viewport, language)
    assert page.locator("#today").is_visible()
    assert page.locator("html").get_attribute("lang") == language
    height = page.evaluate("document.documentElement.scrollHeight")
    header = page.locator(".site-header").bounding_box()["height"]
    assert height <= MOST[viewport["width"]], f"{height} px tall at {viewport['width']} px"
    if viewport is PHONE:
        assert header <= 120, f"the phone header is {header} px tall"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert serious_accessibility_violations(page) == []
    if SCREENSHOTS and language == "en":
        folder = Path(SCREENSHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=folder / f"dashboard-{viewport['width']}.png", full_page=True)


def test_the_phone_menu_opens_from_the_keyboard(browser, live_server, request):
    """At 390 px the navigation is folded in a menu that Enter opens; its links are then reachable."""
    page = open_dashboard(browser, live_server, request, PHONE, "en")
    menu = page.locator(".site-header summary")
    coding_log = page.locator('.site-header a[href="/coding/"]')
    assert menu.is_visible() and coding_log.is_hidden()
    menu.focus()
    page.keyboard.press("Enter")
    assert coding_log.is_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.nav__menu') !== null")
