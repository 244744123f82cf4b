import re

from playwright.sync_api import expect

from tests.factories import PASSWORD, UserFactory


def test_a_newcomer_signs_up_and_is_signed_in(page):
    """The sign-up form creates the account and signs the newcomer in."""
    page.goto("/")
    page.get_by_role("link", name="S’inscrire").click()
    page.get_by_label("Nom d’utilisateur").fill("lovelace")
    page.get_by_label("Adresse e-mail").fill("ada@example.com")
    page.get_by_label(re.compile("^Mot de passe")).fill(PASSWORD)
    page.get_by_label("Confirmation du mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Créer mon compte").click()

    expect(page.locator(".messages")).to_contain_text("lovelace")
    expect(page.locator(".nav__user")).to_have_text("lovelace")


def test_a_learner_signs_in_and_out(page, sign_in_with_the_form, transactional_db):
    """Sign in through the form, see one's name, sign out with the button."""
    user = UserFactory(username="hopper")
    sign_in_with_the_form(user)
    expect(page.locator(".nav__user")).to_have_text("hopper")

    page.get_by_role("button", name="Se déconnecter").click()
    expect(page.locator(".nav__user")).to_have_count(0)
    expect(page.get_by_role("link", name="Se connecter")).to_be_visible()


def test_a_wrong_password_six_times_shows_the_lockout_message(
    page, sign_in_with_the_form, transactional_db
):
    """After five failures the sign-in is paused, and the sixth try says so."""
    user = UserFactory(username="babbage")
    for _ in range(6):
        sign_in_with_the_form(user, password="not the password")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Trop de tentatives de connexion échouées"
    )
    expect(page.get_by_role("alert")).to_contain_text("15")
