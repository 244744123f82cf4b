"""The reminders' settings in place with htmx: the calendar address appears without a page load."""

import re

import pytest
from playwright.sync_api import expect

from reminders.models import CalendarFeed, DigestSubscription
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
    assert address.input_value().endswith(
        f"/calendar/{CalendarFeed.objects.get(user=learner).token}.ics"
    )
    expect(page.get_by_role("status").filter(has_text="nouvelle adresse privée")).to_be_visible()
    page.get_by_label("Bilan hebdomadaire par e-mail").select_option(label="vendredi")
    page.get_by_role("button", name="Enregistrer mon choix de bilan").click()
    expect(
        page.get_by_role("status").filter(has_text="Votre bilan hebdomadaire est activé.")
    ).to_be_visible()
    assert page.evaluate("window.notReloaded") is True
    assert DigestSubscription.objects.get(user=learner).weekday == 4
