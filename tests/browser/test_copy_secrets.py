"""Secrets shown once get a copy button that says, in a status region, that they are copied;
without JavaScript they stay a selectable read-only field. Every page has an icon: no console
error, signed in or out, admin included."""

import re

import pytest
from playwright.sync_api import expect

from groups import actions
from tests.browser.conftest import new_page
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in_page(page, user):
    page.goto("/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(user.username)
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").last.click()
    expect(page).not_to_have_url(re.compile("/accounts/login/"))


def test_the_invitation_link_and_the_calendar_address_copy_with_one_click(
    browser, live_server, request
):
    ada = UserFactory(username="ada")
    group = actions.create_group(owner=ada, name="Club des noyaux", display_name="Ada")
    page = new_page(browser, request, base_url=live_server.url)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    signed_in_page(page, ada)

    page.goto(f"/groups/{group.slug}/manage/")
    page.get_by_role("button", name="Créer un lien").click()
    link = page.locator("#invitation-link").input_value()
    page.get_by_role("button", name="Copier").click()
    status = page.locator("#link-created .copy__status")
    expect(status).to_have_attribute("role", "status")
    expect(status).to_have_text("Copié dans le presse-papiers.")
    assert page.evaluate("navigator.clipboard.readText()") == link

    # The calendar address arrives by an htmx swap: its button comes with it.
    page.goto("/settings/")
    page.get_by_role("button", name="Créer mon adresse d’agenda").click()
    address = page.get_by_label("Adresse privée de l’agenda")
    expect(address).to_have_value(re.compile(r"/calendar/[\w-]+\.ics$"))
    copy = page.locator("#reminders-body").get_by_role("button", name="Copier")
    copy.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#reminders-body .copy__status")).to_have_text(
        "Copié dans le presse-papiers."
    )
    assert page.evaluate("navigator.clipboard.readText()") == address.input_value()


def test_without_javascript_the_link_is_a_selectable_field_without_a_button(
    browser, live_server, request
):
    ada = UserFactory(username="ada")
    group = actions.create_group(owner=ada, name="Club des noyaux", display_name="Ada")
    page = new_page(browser, request, base_url=live_server.url, java_script_enabled=False)
    signed_in_page(page, ada)
    page.goto(f"/groups/{group.slug}/manage/")
    page.get_by_role("button", name="Créer un lien").click()
    field = page.locator("#invitation-link")
    expect(field).to_have_attribute("readonly", "")
    assert "/groups/join/" in field.input_value()
    expect(page.get_by_role("button", name="Copier")).to_have_count(0)


def test_no_page_has_a_console_error_or_a_missing_icon(browser, live_server, request):
    """Signed out and signed in (a staff member, so the admin too): no error in the console and
    no request answered 404."""
    staff = UserFactory(username="curator", is_staff=True, is_superuser=True)
    page = new_page(browser, request, base_url=live_server.url)
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status} {r.url}"))
    for path in ["/", "/resources/", "/guide/", "/accounts/login/"]:
        page.goto(path)
    signed_in_page(page, staff)
    for path in ["/", "/stats/", "/settings/", "/groups/", "/coding/", "/admin/"]:
        page.goto(path)
    assert (
        page.evaluate("document.querySelector('link[rel=icon]') !== null") or "/admin/" in page.url
    )
    assert errors == []
