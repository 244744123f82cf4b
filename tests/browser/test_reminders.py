"""The reminders' settings in place with htmx: the calendar address appears without a page load."""

import re

import pytest
from playwright.sync_api import expect

from lib.tokens import digest
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


def test_choosing_the_days_and_hour_of_code_time_in_place(page, sign_in):
    """Under the calendar address: untick Monday, tick Saturday, 07:30, saved without a reload."""
    from datetime import time

    learner = UserFactory(username="ada")
    sign_in(learner)
    page.goto("/settings/")
    page.evaluate("window.notReloaded = true")
    page.get_by_role("button", name="Créer mon adresse d’agenda").click()
    page.get_by_label("lundi").uncheck()
    page.get_by_label("samedi").check()
    page.get_by_label("À partir de").fill("07:30")
    page.get_by_role("button", name="Enregistrer mon temps de code").click()
    expect(
        page.get_by_role("status").filter(
            has_text="Le temps de code de votre agenda est enregistré."
        )
    ).to_be_visible()
    assert page.evaluate("window.notReloaded") is True
    feed = CalendarFeed.objects.get(user=learner)
    assert (feed.code_days, feed.code_at) == ([1, 2, 3, 4, 5], time(7, 30))
    expect(page.get_by_label("samedi")).to_be_checked()


def test_choosing_the_nudge_hour_with_the_keyboard_only(page, sign_in):
    """Tab to the labelled select, type the hour, Tab to its button, Enter: saved in place, announced."""
    from reminders.models import NudgeSubscription

    learner = UserFactory(username="ada")
    sign_in(learner)
    page.goto("/settings/")
    page.evaluate("window.notReloaded = true")
    choice = page.get_by_label("Rappel quotidien par e-mail")
    expect(choice).to_have_accessible_description(
        re.compile("seulement les jours où du code est dû")
    )
    page.get_by_role("button", name="Enregistrer mon choix de bilan").focus()
    page.keyboard.press("Tab")
    expect(choice).to_be_focused()
    page.keyboard.type("18")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Enregistrer mon choix de rappel")).to_be_focused()
    page.keyboard.press("Enter")
    expect(
        page.get_by_role("status").filter(has_text="Votre rappel quotidien est activé.")
    ).to_be_visible()
    assert page.evaluate("window.notReloaded") is True
    assert NudgeSubscription.objects.get(user=learner).hour == 18
    expect(page.get_by_label("Rappel quotidien par e-mail")).to_have_value("18")


def test_the_nudge_on_and_its_unsubscribe_page_pass_axe(page, sign_in):
    from reminders.digest import unsubscribe_token
    from reminders.models import NudgeSubscription
    from reminders.nudge import UNSUBSCRIBE_SALT

    learner = UserFactory(username="ada")
    NudgeSubscription.objects.create(user=learner, hour=7)
    sign_in(learner)
    page.goto("/settings/")
    expect(page.get_by_label("Rappel quotidien par e-mail")).to_have_value("7")
    assert serious_accessibility_violations(page) == []
    page.context.clear_cookies()
    page.goto(f"/nudge/unsubscribe/{unsubscribe_token(learner, salt=UNSUBSCRIBE_SALT)}/")
    expect(page.get_by_role("heading", name="Rappel quotidien")).to_be_visible()
    assert serious_accessibility_violations(page) == []
    page.get_by_role("button", name="Se désinscrire").click()
    expect(page.get_by_role("status")).to_contain_text("plus de rappel quotidien")
    assert not NudgeSubscription.objects.filter(user=learner).exists()
