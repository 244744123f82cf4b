"""Two learners study together: one makes a group and invites, the other joins and watches, the
first sees it on the board. A share link shows progress to a signed-out visitor, nothing private."""

import re
from io import StringIO

from django.core.management import call_command
from playwright.sync_api import expect

from curriculum.models import Step
from tests.browser.conftest import new_page, serious_accessibility_violations
from tests.factories import PASSWORD, CodingSessionFactory, NoteFactory, UserFactory

TALK = "how-gpu-computing-works"


def sign_in(page, user):
    page.goto("/accounts/login/")
    page.get_by_label(re.compile("Nom d.utilisateur")).fill(user.username)
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").last.click()
    expect(page.locator(".nav__user")).to_have_text(user.username)


def no_sideways_scroll(page):
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def test_a_learner_invites_another_who_joins_watches_and_shows_on_the_board(
    page, browser, live_server, request, transactional_db
):
    call_command("load_curriculum", stdout=StringIO())
    ada, grace = UserFactory(username="ada"), UserFactory(username="grace")
    NoteFactory(user=grace, resource__slug="lecture-private", text="grace's private note")
    steps = Step.objects.count()

    sign_in(page, ada)
    page.get_by_role("link", name="Groupes").click()
    page.get_by_label("Nom du groupe").fill("Club des noyaux")
    page.get_by_role("button", name="Créer le groupe").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Gérer « Club des noyaux »")
    page.get_by_label("Personnes qui peuvent rejoindre le groupe avec ce lien").fill("2")
    page.get_by_role("button", name="Créer un lien").click()
    expect(page.locator("#link-created")).to_contain_text("affiché qu’une fois")
    link = page.locator("#invitation-link").input_value()
    assert "/groups/join/" in link

    other = new_page(browser, request, base_url=live_server.url)
    sign_in(other, grace)
    other.goto(link)
    expect(other.get_by_role("heading", level=1)).to_have_text("Rejoindre « Club des noyaux »")
    other.get_by_label("Mon nom dans ce groupe").fill("Grace H.")
    other.get_by_role("button", name="Rejoindre le groupe").click()
    expect(other.locator(".message")).to_contain_text("Bienvenue dans « Club des noyaux »")
    other.goto(f"/resources/{TALK}/")
    other.locator(f"#watch-{TALK}-toggle").click()
    expect(other.locator(f"#watch-{TALK}-watch")).to_contain_text("Regardé")

    page.get_by_role("link", name="Retour au tableau").click()
    grace_card = page.locator(".board__member", has_text="Grace H.")
    expect(grace_card).to_contain_text(f"Étapes : 1 sur {steps}")
    expect(grace_card).to_contain_text("Semaine 1")
    expect(page.locator(".board")).not_to_contain_text("private note")
    expect(page.locator(".board")).not_to_contain_text("grace@example.com")


def test_the_board_has_no_serious_accessibility_violation_and_fits_390_px(
    browser, live_server, request, transactional_db
):
    from groups import actions

    call_command("load_curriculum", stdout=StringIO())
    ada, grace = UserFactory(username="ada"), UserFactory(username="grace")
    group = actions.create_group(owner=ada, name="Club des noyaux", display_name="Ada L.")
    invitation, _token = actions.create_link(group=group, days=7, max_uses=3)
    actions.join(user=grace, invitation=invitation, display_name="Grace H.", shares="coding")
    CodingSessionFactory(user=grace, resource__slug=TALK, built="Un noyau de réduction " * 5)
    page = new_page(
        browser, request, base_url=live_server.url, viewport={"width": 390, "height": 800}
    )
    sign_in(page, ada)
    for address in (f"/groups/{group.slug}/", f"/groups/{group.slug}/manage/", "/groups/"):
        page.goto(address)
        assert serious_accessibility_violations(page) == [], address
        assert no_sideways_scroll(page), address


def test_a_share_link_shows_progress_signed_out_and_nothing_private(
    page, browser, live_server, request, transactional_db
):
    from curriculum.models import Resource
    from progress import actions

    call_command("load_curriculum", stdout=StringIO())
    ada = UserFactory(username="adalovelace")
    talk = Resource.objects.get(slug=TALK)
    actions.mark_watched(user=ada, resource=talk)
    CodingSessionFactory(user=ada, resource=talk, minutes=120, built="my secret kernel")
    NoteFactory(user=ada, resource=talk, text="my private note")

    sign_in(page, ada)
    page.goto("/settings/")
    page.get_by_role("link", name="Partager ma progression avec un lien").click()
    page.get_by_label("Nom affiché sur la page").fill("Ada L.")
    page.get_by_role("button", name="Activer le partage").click()
    link = page.locator("#share-link").input_value()
    assert "/share/" in link

    visitor = new_page(
        browser, request, base_url=live_server.url, viewport={"width": 390, "height": 800}
    )
    visitor.goto(link)
    expect(visitor.get_by_role("heading", level=1)).to_have_text("La progression de Ada L.")
    expect(visitor.locator("main")).to_contain_text(re.compile(r"1\s+sur\s+\d+"))
    expect(visitor.locator("svg.heatmap")).to_be_visible()
    expect(visitor.locator('meta[name="robots"]')).to_have_attribute("content", "noindex, nofollow")
    html = visitor.content()
    for private in ("adalovelace", "example.com", "my private note", "my secret kernel"):
        assert private not in html
    assert serious_accessibility_violations(visitor) == []
    assert no_sideways_scroll(visitor)

    english = new_page(browser, request, base_url=live_server.url)
    english.context.add_cookies(
        [{"name": "django_language", "value": "en", "url": live_server.url}]
    )
    english.goto(link)
    expect(english.get_by_role("heading", level=1)).to_have_text("Ada L.’s progress")
    expect(english.locator("main")).to_contain_text(re.compile(r"1\s+of\s+\d+"))
    assert "adalovelace" not in english.content()

    page.get_by_role("button", name="Révoquer le lien").click()
    visitor.goto(link)
    expect(visitor.get_by_role("heading", level=1)).not_to_contain_text("Ada L.")
