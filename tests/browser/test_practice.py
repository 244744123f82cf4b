import re

from playwright.sync_api import expect

from tests.browser.conftest import serious_accessibility_violations
from tests.factories import PASSWORD, ResourceFactory, UserFactory, WatchEventFactory


def sign_in_on(page, user):
    page.goto("/accounts/login/")
    page.get_by_label(re.compile("Nom d.utilisateur|Username")).fill(user.username)
    page.get_by_label(re.compile("Mot de passe|Password")).fill(PASSWORD)
    page.get_by_role("button", name=re.compile("Se connecter|Sign in")).last.click()


def test_logging_a_session_on_a_resource_page_updates_it_without_reload(
    page, sign_in, transactional_db
):
    """htmx swaps the practice block and the balance; the page is never reloaded."""
    user = UserFactory(username="turing")
    resource = ResourceFactory(slug="softmax", duration_minutes=60)
    WatchEventFactory(user=user, resource=resource, minutes=60)
    sign_in(user)
    page.goto("/resources/softmax/")
    page.evaluate("window.notReloaded = true")
    page.locator("#practice_minutes").fill("180")
    page.locator("#practice_built").fill("An online softmax")
    page.locator("#practice-submit-softmax").click()

    expect(page.locator("#practice-softmax [role=status]")).to_be_visible()
    expect(page.locator("#practice-softmax")).to_contain_text("An online softmax")
    expect(page.locator("#balance .balance__line--met").first).to_be_visible()
    assert page.evaluate("window.notReloaded") is True
    assert page.url.endswith("/resources/softmax/")


def test_the_same_form_works_without_javascript(page_without_javascript, transactional_db):
    """Without JavaScript the form posts, redirects back and shows the session."""
    page = page_without_javascript
    user = UserFactory(username="lamarr")
    ResourceFactory(slug="scan", duration_minutes=60)
    sign_in_on(page, user)
    page.goto("/resources/scan/")
    page.locator("#practice_minutes").fill("45")
    page.locator("#practice_built").fill("A prefix sum")
    page.locator("#practice-submit-scan").click()

    assert page.url.endswith("/resources/scan/")
    expect(page.locator("#practice-scan")).to_contain_text("A prefix sum")


def test_practice_settings_and_resource_pages_have_no_serious_violation(
    page, sign_in, transactional_db
):
    """axe-core finds nothing serious on the coding log, settings and a signed-in resource page."""
    user = UserFactory(username="hamilton")
    ResourceFactory(slug="matmul", duration_minutes=60)
    sign_in(user)
    for path in ["/practice/", "/settings/", "/resources/matmul/"]:
        page.goto(path)
        assert serious_accessibility_violations(page) == [], path
