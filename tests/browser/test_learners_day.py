"""A new learner's first two days, through the today card (issue 31): sign up, watch the start-here
talk, log code with one tap, see the streak; the next day, the streak is at stake until code is
logged again.

Day two is made by moving the rows day one wrote one day back (sign-up, watching, coding), not by
patching the clock: time-machine would move the live server's thread and the test's clock
together, but not the browser's own (cookies, htmx), and a moved row is exactly what a day
passing leaves in the database.
"""

import re
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import F
from playwright.sync_api import expect

from progress.models import CodingSession, Watch, WatchEvent
from tests.browser.conftest import serious_accessibility_violations
from tests.conftest import insert_seed
from tests.factories import PASSWORD


def sign_up(page, username):
    page.goto("/accounts/signup/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Adresse e-mail").fill(f"{username}@example.com")
    page.get_by_label(re.compile("^Mot de passe")).fill(PASSWORD)
    page.get_by_label("Confirmation du mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Créer mon compte").click()


def a_day_passes(user):
    """What day one wrote, one day earlier: the account, the watching, the coding."""
    one_day = timedelta(days=1)
    get_user_model().objects.filter(pk=user.pk).update(date_joined=F("date_joined") - one_day)
    WatchEvent.objects.filter(user=user).update(at=F("at") - one_day)
    Watch.objects.filter(user=user).update(finished_at=F("finished_at") - one_day)
    CodingSession.objects.filter(user=user).update(day=F("day") - one_day)


def test_a_new_learners_first_and_second_day(page, transactional_db, seed_rows):
    insert_seed(seed_rows)
    page.set_default_timeout(15_000)
    sign_up(page, "lovelace")
    page.goto("/")
    today = page.locator("#today")

    # Day one: nothing to code yet, the card says what to watch first.
    expect(today).to_contain_text("Rien à coder pour l’instant : commencez par « How GPU")
    expect(today.get_by_role("button", name="30 min")).to_have_count(0)
    page.locator("#start-here-toggle").click()

    # Watched: the card sets the day's code and offers one tap on that talk.
    expect(today).to_contain_text("de code aujourd’hui")
    expect(today).to_contain_text("J’ai codé sur « How GPU Computing Works »")
    today.get_by_role("button", name="30 min").click()
    expect(today).to_contain_text("30 min de code notées sur « How GPU Computing Works ».")
    expect(today).to_contain_text("Série de 1 jour de code, aujourd’hui compris.")
    expect(page.locator("#today-status")).to_be_focused()
    learner = get_user_model().objects.get(username="lovelace")
    assert list(CodingSession.objects.filter(user=learner).values_list("minutes", flat=True)) == [
        30
    ]
    assert serious_accessibility_violations(page) == []

    # Day two: yesterday's code keeps a streak that today's code must extend.
    a_day_passes(learner)
    page.goto("/")
    expect(today).to_contain_text("Série de 1 jour de code : codez aujourd’hui pour la garder.")
    today.get_by_role("button", name="1 h", exact=True).click()
    expect(today).to_contain_text("Série de 2 jours de code, aujourd’hui compris.")
    assert CodingSession.objects.filter(user=learner).count() == 2


def test_without_javascript_one_tap_logs_and_comes_back_to_the_card(
    page_without_javascript, transactional_db, seed_rows
):
    """The same tap as a plain form: the session is saved and the page lands on #today."""
    insert_seed(seed_rows)
    page = page_without_javascript
    page.set_default_timeout(15_000)
    sign_up(page, "hopper")
    page.goto("/")
    page.locator("#start-here-toggle").click()
    page.locator("#today").get_by_role("button", name="1 h 30").click()
    assert page.url.endswith("/#today")
    expect(page.locator(".messages")).to_contain_text("1 h 30 de code notées")
    expect(page.locator("#today")).to_contain_text("Série de 1 jour de code, aujourd’hui compris.")
