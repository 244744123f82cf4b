import re

from playwright.sync_api import expect


def test_switching_the_interface_to_english_and_back_to_french(page):
    """The language switcher changes <html lang> and the navigation's words, both ways."""
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("link", name="Aller au contenu")).to_be_attached()

    page.get_by_role("form", name="Langue").get_by_role("button", name="English").click()

    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("navigation", name="Main")).to_contain_text("Sign in")

    page.get_by_role("form", name="Language").get_by_role("button", name="Français").click()

    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("navigation", name="Principale")).to_contain_text(
        re.compile("Se connecter")
    )
