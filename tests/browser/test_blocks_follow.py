"""On a phone (390 px): a write answers its own block, and the page's other blocks follow the
event it names, in one refresh of the page (static/js/blocks_follow.js): the today card's tap on
the dashboard, and the coding and sittings forms on a resource page."""

import re

import pytest
from playwright.sync_api import expect

from progress import actions
from progress.models import CodingSession, Watch
from tests.browser.conftest import new_page, serious_accessibility_violations, session_cookie
from tests.browser.test_progress import count_navigations, small_path
from tests.browser.test_sittings import a_learner_with_two_sittings
from tests.factories import ResourceFactory, SeriesFactory, UserFactory

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser, live_server, request):
    """A French-speaking browser tab 390 px wide on the live server."""
    return new_page(browser, request, base_url=live_server.url, viewport=PHONE)


def signed_in(phone, live_server, user):
    phone.context.add_cookies(session_cookie(live_server, user))


def refreshes_of(page, slug):
    """A list that grows with each refresh the page asks for after a change to slug."""
    asked = []
    page.on("request", lambda r: asked.append(r.url) if f"changed={slug}" in r.url else None)
    return asked


def fits(page):
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_tap_on_the_today_card_moves_next_up_and_the_balance(
    phone, live_server, transactional_db
):
    """The tap answers the card, focus on what it says; the dashboard's refresh moves next up's
    code owed, the balance and the talk's coded state."""
    _stage, talk, _course = small_path()
    ada = UserFactory(username="ada")
    actions.mark_watched(user=ada, resource=talk.resource)
    signed_in(phone, live_server, ada)
    phone.goto("/")
    next_up = phone.locator("#next-up")
    expect(next_up).to_contain_text("Encore 3\u00a0h de code avant la prochaine vidéo")
    phone.evaluate("window.__marker = 1")
    navigations = count_navigations(phone)
    asked = refreshes_of(phone, "talk")

    phone.locator("#today").get_by_role("button", name="30 min").click()

    expect(phone.locator("#today-status")).to_be_focused()
    expect(phone.locator("#today-status")).to_contain_text(
        "30\u00a0min de code notées sur « Talk »"
    )
    expect(next_up).to_contain_text("Encore 2\u00a0h\u00a030 de code avant la prochaine vidéo")
    expect(phone.locator("#balance")).to_contain_text(re.compile(r"codé 30\smin cette semaine"))
    expect(phone.locator(f"#step-{talk.pk}")).to_contain_text(re.compile(r"30\smin / 3\sh"))
    expect(phone.locator("#change-announcer")).to_contain_text("30\u00a0min de code notées")
    expect(phone.locator("#today-status")).to_be_focused()
    assert phone.evaluate("window.__marker") == 1 and navigations == []
    assert len(asked) == 1
    assert CodingSession.objects.get(user=ada).minutes == 30
    assert fits(phone)
    assert serious_accessibility_violations(phone) == []


def test_the_resource_pages_blocks_follow_its_sittings_and_coding(
    phone, live_server, transactional_db
):
    """A sitting corrected then deleted answers the list; a coding session logged answers its
    block; after each the page's refresh moves the controls and the balance."""
    user, course, first, second = a_learner_with_two_sittings()
    signed_in(phone, live_server, user)
    phone.goto("/resources/cuda/")
    phone.evaluate("window.__marker = 1")
    navigations = count_navigations(phone)
    asked = refreshes_of(phone, "cuda")
    controls, balance = phone.locator("#watch-cuda-watch"), phone.locator("#balance")
    expect(controls).to_contain_text("2\u00a0h\u00a030 sur 12\u00a0h")

    phone.locator(f"#sitting-{second.pk} .sitting__edit").click()
    phone.locator(f"#sitting-{second.pk}-minutes").fill("120")
    phone.locator(f"#sitting-{second.pk}-minutes").press("Enter")
    expect(phone.locator(f"#sitting-{second.pk}")).to_be_focused()
    expect(controls).to_contain_text("3\u00a0h\u00a030 sur 12\u00a0h")
    expect(balance).to_contain_text(re.compile(r"regardé 3\sh\s30"))
    expect(phone.locator("#change-announcer")).to_have_text("Séance corrigée pour « CUDA course ».")

    phone.locator(f"#sitting-{second.pk} .sitting__delete").click()
    phone.get_by_role("button", name="Supprimer la séance").click()
    expect(phone.locator(f"#sitting-{first.pk}")).to_be_focused()
    expect(controls).to_contain_text("1\u00a0h\u00a030 sur 12\u00a0h")
    expect(balance).to_contain_text(re.compile(r"regardé 1\sh\s30"))

    coding = phone.locator("#coding-cuda")
    coding.get_by_label(re.compile("Minutes")).fill("60")
    coding.get_by_label(re.compile("construit|Ce que")).fill("Un noyau de réduction")
    coding.get_by_role("button", name="Enregistrer la séance de code").click()
    expect(coding).to_contain_text("Séance de code enregistrée.")
    expect(balance).to_contain_text(re.compile(r"codé 1\sh en tout"))
    expect(phone.locator("#coding-submit-cuda")).to_be_focused()

    assert phone.evaluate("window.__marker") == 1 and navigations == []
    assert len(asked) == 3
    assert Watch.objects.get(user=user, resource=course).logged_minutes == 90
    assert fits(phone)
    assert serious_accessibility_violations(phone) == []


def test_a_click_in_the_catalogue_moves_its_series_count(phone, live_server, transactional_db):
    """Filtered by a search, a card marked watched answers its controls; the page's refresh,
    asked with the page's filters, moves its series' "done" count, and focus stays."""
    gpu = SeriesFactory(slug="gpu", name="GPU")
    ResourceFactory(slug="scan", series=gpu, title="Scan warps")
    ResourceFactory(slug="reduce", series=gpu, title="Reduce warps")
    ResourceFactory(slug="softmax", series=gpu, title="Softmax")
    ada = UserFactory(username="ada")
    signed_in(phone, live_server, ada)
    phone.goto("/resources/?q=warps")
    count = phone.locator("#series-gpu .series-group__count")
    expect(count).to_have_text("2 ressources, dont 0 terminée")
    asked = refreshes_of(phone, "scan")

    toggle = phone.locator("#watch-scan-toggle")
    toggle.click()

    expect(phone.locator("#watch-scan-watch")).to_contain_text("Regardé")
    expect(count).to_have_text("2 ressources, dont 1 terminée")
    expect(phone.locator("#change-announcer")).to_have_text("« Scan warps » marqué comme regardé.")
    expect(toggle).to_be_focused()
    assert len(asked) == 1 and "q=warps" in asked[0]
    assert fits(phone)
    assert serious_accessibility_violations(phone) == []
