import re
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import serious_accessibility_violations
from tests.factories import CodingSessionFactory, UserFactory, WatchEventFactory, WatchFactory


def test_a_learner_reads_their_stats_without_accessibility_violations(
    page, sign_in, transactional_db
):
    """The charts render, and axe-core finds nothing serious on the stats page."""
    user = UserFactory(username="noether")
    today = timezone.localdate()
    for back in range(0, 60, 3):
        CodingSessionFactory(user=user, day=today - timedelta(days=back), minutes=20 + back * 3)
    WatchEventFactory(user=user, minutes=150, at=timezone.now() - timedelta(days=8))
    WatchFactory(user=user, resource__kind="talk", finished_at=timezone.now())
    sign_in(user)
    page.get_by_role("link", name=re.compile("^(Stats|Statistiques)$")).click()

    expect(
        page.get_by_role(
            "img",
            name=re.compile(
                "Hours watched and hours coded per week|Heures regardées et heures codées"
            ),
        )
    ).to_be_visible()
    expect(page.locator("svg.heatmap rect")).to_have_count(25 * 7 + today.weekday() + 1)
    assert serious_accessibility_violations(page) == []


def test_a_curator_reads_the_path_progress_without_accessibility_violations(
    page, sign_in, transactional_db
):
    """The staff page answers in the browser and passes axe-core."""
    curator = UserFactory(username="curie", is_staff=True, is_superuser=True)
    sign_in(curator)
    page.goto("/admin/")
    page.locator("#learner-progress a").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert serious_accessibility_violations(page) == []
