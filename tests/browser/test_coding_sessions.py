import re

from playwright.sync_api import expect

from tests.factories import PASSWORD, ResourceFactory, UserFactory


def sign_in_on(page, user):
    page.goto("/accounts/login/")
    page.get_by_label(re.compile("Nom d.utilisateur|Username")).fill(user.username)
    page.get_by_label(re.compile("Mot de passe|Password")).fill(PASSWORD)
    page.get_by_role("button", name=re.compile("Se connecter|Sign in")).last.click()


def test_a_learner_watches_then_codes_three_hours_and_meets_the_rule_on_the_resource_page(
    page, sign_in, transactional_db
):
    """Mark 1 h watched, log 3 h of code from the page: the balance says the 1:3 rule is met."""
    user = UserFactory(username="turing")
    ResourceFactory(slug="softmax", title="Softmax", duration_minutes=60)
    sign_in(user)
    page.goto("/resources/softmax/")
    page.evaluate("window.__marker = 1")
    balance = page.locator("#balance")
    expect(balance).to_contain_text("Vous n’avez encore rien regardé")

    page.locator("#watch-softmax-toggle").click()
    expect(page.locator("#watch-softmax-watch")).to_contain_text("Regardé")
    expect(page.locator("#coded-softmax")).to_contain_text("Pas encore codé : 3 h de code à faire")
    expect(balance).to_contain_text("encore 3 h de code")

    page.locator("#coding_minutes").fill("180")
    page.locator("#coding_built").fill("An online softmax")
    page.locator("#coding-submit-softmax").click()

    expect(page.locator("#coding-softmax [role=status]")).to_be_visible()
    expect(page.locator("#coding-softmax")).to_contain_text("An online softmax")
    expect(page.locator("#coded-softmax")).to_contain_text("✓ Codé 3 h sur 3 h")
    expect(balance.locator(".balance__line--met")).to_have_count(2)
    expect(balance).to_contain_text(
        "Vous avez regardé 1 h et codé 3 h en tout : la règle 1:3 est respectée."
    )
    assert page.evaluate("window.__marker") == 1
    assert page.url.endswith("/resources/softmax/")


def test_the_same_form_works_without_javascript(page_without_javascript, transactional_db):
    """Without JavaScript the form posts, redirects back and shows the session."""
    page = page_without_javascript
    user = UserFactory(username="lamarr")
    ResourceFactory(slug="scan", duration_minutes=60)
    sign_in_on(page, user)
    page.goto("/resources/scan/")
    page.locator("#coding_minutes").fill("45")
    page.locator("#coding_built").fill("A prefix sum")
    page.locator("#coding-submit-scan").click()

    assert page.url.endswith("/resources/scan/")
    expect(page.locator("#coding-scan")).to_contain_text("A prefix sum")
