"""On a phone (320 and 390 px wide) no page scrolls sideways, the stats charts open on the current
week, and axe finds nothing serious, with a learner who has a long history on every page."""

import uuid
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from curriculum.models import Chapter, Resource
from progress import actions
from progress.models import CodingSession
from tests.browser.conftest import new_page, serious_accessibility_violations
from tests.factories import NoteFactory, UserFactory

COURSE = "freecodecamp-cuda-course"
LONG_URL = "https://github.com/ada-lovelace/gpu-kernels/blob/main/" + "tiled-" * 30 + "matmul.cu"
PAGES = [
    "/",
    "/path/",
    "/resources/",
    f"/resources/{COURSE}/",
    "/coding/",
    "/stats/",
    "/settings/",
]
WIDTHS = [320, 390]


def a_learner_with_a_long_history():
    """The seed's curriculum (one summary with a long URL) and months of sittings and coding."""
    call_command("load_curriculum", stdout=StringIO())
    Resource.objects.filter(slug=COURSE).update(summary=f"Notes and code: {LONG_URL} and more.")
    learner = UserFactory(username="lamarr")
    course = Resource.objects.get(slug=COURSE)
    talk = Resource.objects.get(slug="how-gpu-computing-works")
    actions.mark_watched(user=learner, resource=talk)
    for minutes in (90, 45, 120):
        actions.log_sitting(user=learner, resource=course, minutes=minutes)
    today = timezone.localdate()
    chapter = Chapter.objects.first()
    CodingSession.objects.bulk_create(
        CodingSession(
            user=learner,
            day=today - timedelta(days=back),
            minutes=30 + back % 200,
            built=f"Kernel {back}: a tiled matmul with shared memory, " + "double-buffered" * 3,
            code_url=LONG_URL,
            resource=course if back % 2 else None,
            chapter=None if back % 2 else chapter,
            idempotency_key=uuid.uuid4(),
        )
        for back in range(120)
    )
    NoteFactory(user=learner, resource=course, text=f"Stopped at 1:30:00, see {LONG_URL}")
    return learner


@pytest.fixture
def phone(browser, live_server, request):
    """A signed-in learner with a long history, and a way to open a tab as wide as a phone."""

    def open_at(width):
        page = new_page(
            browser, request, base_url=live_server.url, viewport={"width": width, "height": 740}
        )
        return page

    return open_at


def sign_in_on(page, user):
    from tests.factories import PASSWORD

    page.goto("/accounts/login/")
    page.locator("#id_username").fill(user.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("form [type=submit]").last.click()
    page.wait_for_url("**/")


def sideways_overflow(page):
    """How many pixels the page is wider than the window, and the widest culprit."""
    return page.evaluate(
        """() => {
          const excess = document.documentElement.scrollWidth - window.innerWidth;
          let culprit = null;
          for (const element of document.querySelectorAll('body *')) {
            if (element.closest('[role=region]') || element.closest('.visually-hidden')) continue;
            const box = element.getBoundingClientRect();
            if (box.right > window.innerWidth + 1 || element.scrollWidth > element.clientWidth + 1
                && getComputedStyle(element).overflowX === 'visible') {
              culprit = element.outerHTML.slice(0, 120);
            }
          }
          return {excess, culprit};
        }"""
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_scrolls_sideways_on_a_phone_and_axe_finds_nothing_serious(
    phone, transactional_db, width
):
    """On every main page, with long rows and URLs: scrollWidth stays within the window, and axe
    finds nothing serious or critical (scrollable regions included). One load of each page for
    both checks."""
    learner = a_learner_with_a_long_history()
    page = phone(width)
    sign_in_on(page, learner)
    overflowing, found = {}, {}
    for address in PAGES:
        page.goto(address)
        overflow = sideways_overflow(page)
        if overflow["excess"] > 0:
            overflowing[address] = overflow
        violations = serious_accessibility_violations(page)
        if violations:
            found[address] = violations
    page.goto("/coding/")
    page.locator("#coding_minutes").fill("45")
    page.locator("#coding_built").fill("A reduction")
    page.locator("#coding_resource").select_option(label="How GPU Computing Works")
    page.locator("form.form [type=submit]").click()
    page.locator(".messages").wait_for()
    found["/coding/ with a message"] = serious_accessibility_violations(page)
    assert overflowing == {}
    assert found == {"/coding/ with a message": []}


def test_the_stats_charts_open_on_the_current_week(phone, transactional_db):
    """At 320 px the weekly chart and the calendar show their last week, rightmost, at once."""
    learner = a_learner_with_a_long_history()
    page = phone(320)
    sign_in_on(page, learner)
    page.goto("/stats/")
    for chart in ("weeks", "calendar"):
        region = page.locator(f"#{chart}-chart")
        assert region.get_attribute("role") == "region"
        assert region.get_attribute("tabindex") == "0"
        assert region.get_attribute("aria-labelledby") or region.get_attribute("aria-label")
        shown = page.evaluate(
            """(id) => {
              const region = document.getElementById(id);
              const box = region.getBoundingClientRect();
              const shapes = region.querySelectorAll('svg rect');
              const last = shapes[shapes.length - 1].getBoundingClientRect();
              const first = region.querySelector('svg').getBoundingClientRect();
              return {
                scrolls: region.scrollWidth > region.clientWidth,
                lastVisible: last.left >= box.left - 1 && last.right <= box.right + 1,
                firstHidden: first.left < box.left,
              };
            }""",
            f"{chart}-chart",
        )
        assert shown == {"scrolls": True, "lastVisible": True, "firstHidden": True}, chart
