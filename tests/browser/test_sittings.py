"""A learner corrects and deletes a sitting from the resource page, with htmx and without."""

import re

from playwright.sync_api import expect

from progress import actions
from progress.models import Watch, WatchEvent
from tests.factories import ResourceFactory, UserFactory


def a_learner_with_two_sittings():
    user = UserFactory(username="liskov")
    course = ResourceFactory(slug="cuda", kind="course", title="CUDA course", duration_minutes=720)
    actions.log_sitting(user=user, resource=course, minutes=90)
    actions.log_sitting(user=user, resource=course, minutes=60)
    first, second = WatchEvent.objects.filter(user=user).order_by("pk")
    return user, course, first, second


def test_a_learner_corrects_then_deletes_a_sitting_without_a_page_load(
    page, sign_in, transactional_db
):
    """Correct opens a form in the row; saving answers the list, focus on the corrected row, and
    the page's refresh moves the state and balance; Delete asks in the row first, and after
    deleting focus is on the row now in its place."""
    user, course, first, second = a_learner_with_two_sittings()
    sign_in(user)
    page.goto("/resources/cuda/")
    page.evaluate("window.__marker = 1")
    expect(page.locator("#watch-cuda-watch")).to_contain_text("2 h 30 sur 12 h")

    page.locator(f"#sitting-{first.pk} .sitting__edit").click()
    minutes = page.locator(f"#sitting-{first.pk}-minutes")
    expect(minutes).to_be_focused()
    minutes.fill("30")
    page.locator(f"#sitting-{first.pk}-save").click()
    expect(page.locator(f"#sitting-{first.pk}")).to_contain_text("30 min")
    expect(page.locator("#watch-cuda-watch")).to_contain_text("1 h 30 sur 12 h")
    expect(page.locator("#balance")).to_contain_text("1 h 30")
    expect(page.locator(f"#sitting-{first.pk}")).to_be_focused()

    page.locator(f"#sitting-{second.pk} .sitting__delete").click()
    confirm = page.get_by_role("button", name="Supprimer la séance")
    expect(confirm).to_be_focused()
    expect(page.locator(f"#sitting-{second.pk}")).to_contain_text(
        "Ses minutes sortent de vos totaux"
    )
    assert WatchEvent.objects.filter(pk=second.pk).exists(), "asking deletes nothing"
    page.keyboard.press("Enter")
    expect(page.locator(f"#sitting-{second.pk}")).to_have_count(0)
    expect(page.locator(f"#sitting-{first.pk}")).to_be_focused()
    expect(page.locator("#watch-cuda-watch")).to_contain_text("30 min sur 12 h")
    expect(page.locator("#change-announcer")).to_contain_text("supprimée")
    assert page.evaluate("window.__marker") == 1, "no page load"
    assert Watch.objects.get(user=user, resource=course).logged_minutes == 30


def test_without_javascript_the_sitting_forms_post_and_come_back(
    page_without_javascript, transactional_db
):
    """No htmx: the correct link opens a page, saving and deleting redirect with a message.

    (Bad minutes never leave the browser here, the field's min and max stop them: the HTTP tests
    post them by hand.)"""
    page = page_without_javascript
    user, course, first, second = a_learner_with_two_sittings()
    from tests.browser.test_coding_sessions import sign_in_on

    sign_in_on(page, user)
    page.goto("/resources/cuda/")
    page.locator(f"#sitting-{first.pk} .sitting__edit").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Corriger une séance de visionnage")
    page.get_by_label("Minutes regardées pendant cette séance").fill("45")
    page.locator(f"#sitting-{first.pk}-save").click()
    expect(page.locator(".messages")).to_contain_text("Séance corrigée pour « CUDA course »")
    assert page.url.endswith(f"/resources/cuda/#sitting-{first.pk}")

    page.locator(f"#sitting-{second.pk} .sitting__delete").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Supprimer une séance de visionnage")
    page.get_by_role("button", name="Supprimer la séance").click()
    expect(page.locator(".messages")).to_contain_text(re.compile(r"Séance de 1\sh supprimée"))
    assert page.url.endswith("/resources/cuda/#sittings-cuda-title")
    assert Watch.objects.get(user=user, resource=course).logged_minutes == 45


def test_a_sitting_logged_on_the_resource_page_moves_its_blocks_and_is_announced(
    page, sign_in, transactional_db
):
    """The sitting form's answer is its controls; the page then refreshes its sittings, balance
    and coded state in one request of its own (the event watch-changed), says the change in its
    live region, and focus stays in the field typed in."""
    user, course, _first, _second = a_learner_with_two_sittings()
    sign_in(user)
    page.goto("/resources/cuda/")
    page.evaluate("window.__marker = 1")
    refreshes = []
    page.on(
        "request",
        lambda request: refreshes.append(request.url) if "changed=cuda" in request.url else None,
    )
    page.locator("#watch-cuda-minutes").fill("30")
    page.locator("#watch-cuda-minutes").press("Enter")
    expect(page.locator("#watch-cuda-watch")).to_contain_text("3 h sur 12 h")
    expect(page.locator("#sittings-cuda .sitting")).to_have_count(3)
    expect(page.locator("#balance")).to_contain_text("3 h")
    expect(page.locator("#change-announcer")).to_have_text(
        "Séance enregistrée pour « CUDA course »."
    )
    expect(page.locator("#watch-cuda-minutes")).to_be_focused()
    expect(page.locator("#watch-cuda-minutes")).to_have_value("")
    assert page.evaluate("window.__marker") == 1  # no page load
    assert len(refreshes) == 1
    assert Watch.objects.get(user=user, resource=course).logged_minutes == 180


def test_without_javascript_a_sitting_comes_back_to_the_resource_page(
    page_without_javascript, transactional_db
):
    """No htmx: the sitting form posts and redirects to the page with a message."""
    page = page_without_javascript
    user, _course, _first, _second = a_learner_with_two_sittings()
    from tests.browser.test_coding_sessions import sign_in_on

    sign_in_on(page, user)
    page.goto("/resources/cuda/")
    page.locator("#watch-cuda-minutes").fill("30")
    page.locator("#watch-cuda-log").click()
    expect(page.locator(".messages")).to_contain_text("Séance enregistrée pour « CUDA course »")
    assert page.url.endswith("/resources/cuda/")
    expect(page.locator("#sittings-cuda .sitting")).to_have_count(3)
