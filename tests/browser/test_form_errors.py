"""A refused form says so where the learner looks: an error summary at the top of the form takes
the focus (with JavaScript, after an htmx swap; without it, by autofocus on the reloaded page), its
links lead to the fields in error, and required fields say so beside their label."""

import re

import pytest
from playwright.sync_api import expect

from tests.factories import PASSWORD, ResourceFactory, UserFactory

FOCUSED_ID = "document.activeElement && document.activeElement.id"
# Whether the element is on screen, top and bottom, in the window's height.
ON_SCREEN = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def sign_in_on(page, user):
    page.goto("/accounts/login/")
    page.get_by_label(re.compile("Nom d.utilisateur|Username")).fill(user.username)
    page.get_by_label(re.compile("Mot de passe|Password")).fill(PASSWORD)
    page.get_by_role("button", name=re.compile("Se connecter|Sign in")).last.click()


def assert_summary_has_focus(page, summary_id):
    summary = page.locator(f"#{summary_id}")
    expect(summary).to_be_visible()
    expect(summary).to_be_focused()
    assert page.evaluate(ON_SCREEN, f"#{summary_id}"), "the summary is out of sight"


@pytest.mark.parametrize("javascript", [True, False], ids=["javascript", "no-javascript"])
def test_a_coding_session_tied_to_nothing_is_refused_in_sight(
    browser, live_server, request, javascript, transactional_db
):
    """The coding log's form with neither resource nor chapter: the summary, focused and on
    screen, links to the resource field; nothing is saved."""
    from progress.models import CodingSession
    from tests.browser.conftest import new_page

    page = new_page(
        browser,
        request,
        base_url=live_server.url,
        java_script_enabled=javascript,
        viewport={"width": 390, "height": 700},
    )
    user = UserFactory(username="hopper")
    ResourceFactory(slug="scan", title="Scan", duration_minutes=60)
    sign_in_on(page, user)
    page.goto("/coding/")
    page.locator("#coding_minutes").fill("45")
    page.locator("#coding_built").fill("A prefix sum")
    page.get_by_role("button", name="Enregistrer la séance de code").click()

    assert_summary_has_focus(page, "coding_day-errors")
    summary = page.locator("#coding_day-errors")
    expect(summary).to_contain_text("Non enregistré")
    link = summary.get_by_role("link", name=re.compile("Choisissez la ressource ou le chapitre"))
    link.click()
    assert page.url.endswith("#coding_resource")
    assert not CodingSession.objects.filter(user=user).exists()


@pytest.mark.parametrize("javascript", [True, False], ids=["javascript", "no-javascript"])
def test_a_wrong_password_on_account_deletion_is_said_at_the_top_of_its_form(
    browser, live_server, request, javascript, transactional_db
):
    """Deleting one's account with a wrong password: the summary at the top of the deletion form
    has the focus and says nothing was deleted; the account stays."""
    from django.contrib.auth import get_user_model

    from tests.browser.conftest import new_page

    page = new_page(browser, request, base_url=live_server.url, java_script_enabled=javascript)
    user = UserFactory(username="lovelace")
    sign_in_on(page, user)
    page.goto("/settings/")
    page.locator("#id_password").fill("not my password")
    page.get_by_role("button", name="Supprimer mon compte et mes données").click()

    summary_id = page.locator(".error-summary").get_attribute("id")
    assert_summary_has_focus(page, summary_id)
    expect(page.locator(f"#{summary_id}")).to_contain_text("rien n’a été supprimé")
    assert get_user_model().objects.filter(pk=user.pk).exists()


def test_a_refused_coding_session_on_a_resource_page_takes_the_focus_after_htmx(
    page, sign_in, transactional_db
):
    """The resource page's coding form, sent by htmx with no minutes: the swapped form's summary
    has the focus; the page was not reloaded."""
    user = UserFactory(username="noether")
    ResourceFactory(slug="softmax", title="Softmax", duration_minutes=60)
    sign_in(user)
    page.goto("/resources/softmax/")
    page.evaluate("window.__marker = 1")
    page.locator("#coding_built").fill("An online softmax")
    page.locator("#coding-submit-softmax").click()

    assert_summary_has_focus(page, "coding_day-errors")
    expect(page.locator("#coding_day-errors")).to_contain_text("Minutes")
    assert page.evaluate("window.__marker") == 1


def test_required_fields_say_so_beside_their_label(page, sign_in, transactional_db):
    """Minutes is required: a visible mark beside its label, and the required attribute; the
    optional link to the code has neither."""
    sign_in(UserFactory())
    page.goto("/coding/")
    minutes = page.locator("#coding_minutes").locator(
        "xpath=ancestor::div[contains(@class, 'field')][1]"
    )
    expect(minutes.locator(".field__required")).to_have_text("obligatoire")
    expect(minutes.locator(".field__required")).to_be_visible()
    expect(page.locator("#coding_minutes")).to_have_attribute("required", "")
    code_url = page.locator("#coding_code_url").locator(
        "xpath=ancestor::div[contains(@class, 'field')][1]"
    )
    expect(code_url.locator(".field__required")).to_have_count(0)
    expect(page.locator("#coding_code_url")).not_to_have_attribute("required", "")
