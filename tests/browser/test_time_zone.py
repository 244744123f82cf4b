"""Sign-up offers the browser's time zone through a small script; without it, the site's."""

import pytest
from playwright.sync_api import expect

from progress.models import Profile
from tests.browser.conftest import new_page

pytestmark = pytest.mark.django_db(transaction=True)


def sign_up(page, username):
    page.goto("/accounts/signup/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=email]").fill(f"{username}@example.com")
    page.locator("input[name=password1]").fill("a long enough passphrase")
    page.locator("input[name=password2]").fill("a long enough passphrase")
    page.get_by_role("button", name="Créer mon compte").click()
    expect(page.get_by_role("button", name="Se déconnecter")).to_be_visible()


def test_a_browser_in_tokyo_signs_up_in_tokyo(browser, live_server, request):
    """Chromium set to Asia/Tokyo: the hidden field carries it, the profile and settings say it."""
    page = new_page(browser, request, base_url=live_server.url, timezone_id="Asia/Tokyo")
    sign_up(page, "hiro")
    assert Profile.objects.get(user__username="hiro").time_zone == "Asia/Tokyo"
    page.goto("/settings/")
    expect(page.get_by_label("Mon fuseau horaire")).to_have_value("Asia/Tokyo")


def test_without_javascript_the_site_zone_is_kept(browser, live_server, request):
    page = new_page(
        browser,
        request,
        base_url=live_server.url,
        timezone_id="America/Montreal",
        java_script_enabled=False,
    )
    sign_up(page, "jean")
    assert Profile.objects.get(user__username="jean").time_zone == "Europe/Paris"


def test_a_learner_types_a_city_and_saves_its_zone(browser, live_server, request):
    """The settings' zone field is a text box that offers zoneinfo's names (a datalist): the
    learner types the zone by keyboard and saves it; a name that is no zone is refused, saying so,
    and nothing is saved."""
    page = new_page(browser, request, base_url=live_server.url, timezone_id="Europe/Paris")
    sign_up(page, "ravi")
    page.goto("/settings/")
    zone = page.get_by_label("Mon fuseau horaire")
    expect(zone).to_have_attribute("list", "time-zones")
    assert page.locator("#time-zones option").count() > 400

    zone.fill("Atlantis/Capital")
    page.get_by_role("button", name="Enregistrer mes réglages").click()
    refused = "« Atlantis/Capital » n’est pas un fuseau horaire."
    expect(page.get_by_text(refused, exact=True)).to_be_visible()
    expect(page.get_by_role("link", name=f"Mon fuseau horaire : {refused}")).to_be_visible()
    assert Profile.objects.get(user__username="ravi").time_zone == "Europe/Paris"

    page.get_by_label("Mon fuseau horaire").fill("Asia/Kolkata")
    with page.expect_navigation():
        page.get_by_label("Mon fuseau horaire").press("Enter")
    expect(page.get_by_label("Mon fuseau horaire")).to_have_value("Asia/Kolkata")
    assert Profile.objects.get(user__username="ravi").time_zone == "Asia/Kolkata"
