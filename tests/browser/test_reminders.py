"""The reminders' settings in place with htmx: the calendar address appears without a page load."""

import re

import pytest
from playwright.sync_api import expect

from accounts.tokens import digest
from reminders.models import CalendarFeed, DigestSubscription
from tests.browser.conftest import serious_accessibility_violations
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_making_the_calendar_address_and_choosing_a_digest_day_in_place(page, sign_in):
    learner = UserFactory(username="ada")
    sign_in(learner)
    page.goto("/settings/")
    page.evaluate("window.notReloaded = true")
    page.get_by_role("button", name="Créer mon adresse d’agenda").click()
    address = page.get_by_label("Adresse privée de l’agenda")
    expect(address).to_have_value(re.compile(r"/calendar/[\w-]+\.ics$"))
    token = address.input_value().rsplit("/", 1)[1].removesuffix(".ics")
    assert digest(token) == CalendarFeed.objects.get(user=learner).token_hash
    expect(page.get_by_role("status").filter(has_text="nouvelle adresse privée")).to_be_visible()
    page.get_by_label("Bilan hebdomadaire par e-mail").select_option(label="vendredi")
    page.get_by_role("button", name="Enregistrer mon choix de bilan").click()
    expect(
        page.get_by_role("status").filter(has_text="Votre bilan hebdomadaire est activé.")
    ).to_be_visible()
    assert page.evaluate("window.notReloaded") is True
    assert DigestSubscription.objects.get(user=learner).weekday == 4


def test_the_reminders_section_and_the_unsubscribe_page_pass_axe(page, sign_in):
    """With an address and a digest on, the settings page; signed out, the unsubscribe page."""
    from reminders.digest import unsubscribe_token

    learner = UserFactory(username="ada")
    DigestSubscription.objects.create(user=learner, weekday=0)
    sign_in(learner)
    page.goto("/settings/")
    page.get_by_role("button", name="Créer mon adresse d’agenda").click()
    expect(page.get_by_label("Adresse privée de l’agenda")).to_be_visible()
    assert serious_accessibility_violations(page) == []
    page.context.clear_cookies()
    page.goto(f"/digest/unsubscribe/{unsubscribe_token(learner)}/")
    expect(page.get_by_role("button", name="Se désinscrire")).to_be_visible()
    assert serious_accessibility_violations(page) == []
    page.get_by_role("button", name="Se désinscrire").click()
    expect(page.get_by_role("status")).to_contain_text("Vous êtes désinscrit")
    assert not DigestSubscription.objects.filter(user=learner).exists()
