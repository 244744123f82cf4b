"""Watch the reduction lecture, code on it, follow the dashboard's "check your kernel" to its
exercise, send a wrong kernel and read why, fix it, pass: the dashboard, stats, the coding log and
the group board show it. The check is the real one: the task worker, the
bubblewrap sandbox, numba-cuda's simulator, the hidden cases."""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from curriculum.models import Resource
from groups import actions as group_actions
from practice import sandbox
from practice.models import Submission
from tests.browser.conftest import new_page, serious_accessibility_violations, session_cookie
from tests.factories import CodingSessionFactory, UserFactory
from tests.practice.conftest import EXERCISES
from tests.reminders.helpers import run_worker

LECTURE = "gpu-mode-9"
REDUCTION = EXERCISES / "reduction"

available, why = sandbox.sandbox_available()

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not available, reason=f"no sandbox here: {why}"),
]


def send(page, path):
    """Paste a solution from the repository into the exercise's form and send it."""
    page.get_by_label("Collez votre solution").fill(path.read_text())
    page.get_by_role("button", name="Vérifier ma solution").click()
    expect(page.locator(".submissions__pending")).to_contain_text("en cours de vérification")


def test_a_wrong_reduction_says_why_and_the_fixed_one_passes_and_shows(
    page, browser, live_server, request, transactional_db
):
    call_command("load_curriculum", stdout=StringIO())
    call_command("load_exercises", stdout=StringIO())
    ada, grace = UserFactory(username="ada"), UserFactory(username="grace")
    group = group_actions.create_group(owner=ada, name="Club des noyaux", display_name="Ada L.")
    invitation, _token = group_actions.create_link(group=group, days=7, max_uses=5)
    group_actions.join(user=grace, invitation=invitation, display_name="Grace H.", shares="coding")
    page.context.add_cookies(session_cookie(live_server, grace))

    # The lecture, watched; its page leads to the exercise.
    page.goto(f"/resources/{LECTURE}/")
    page.locator(f"#watch-{LECTURE}-toggle").click()
    expect(page.locator(f"#watch-{LECTURE}-watch")).to_contain_text("Regardé")
    practice = page.locator(".resource-exercises")
    expect(practice).to_contain_text("pas encore")
    expect(practice.get_by_role("link", name=re.compile("réduction en arbre"))).to_be_visible()

    # An hour of code on it: the dashboard's next-up asks to check the kernel.
    CodingSessionFactory(user=grace, resource=Resource.objects.get(slug=LECTURE), minutes=60)
    page.goto("/")
    check = page.locator("#next-up-check")
    expect(check).to_contain_text("vérifiez votre noyau")
    expect(check).to_contain_text("1\u00a0h")
    check.get_by_role("link", name=re.compile("Vérifier « Somme d’un vecteur")).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Somme d’un vecteur")

    # A kernel that forgets the tail: the verdict names the case, the size, what was expected.
    send(page, REDUCTION / "wrong" / "no_tail.py")
    run_worker()  # the check runs now; the page polls for its verdict
    failed = page.locator(".submission--failed")
    expect(failed).to_be_visible(timeout=15_000)
    expect(failed.locator(".verdict")).to_have_text("échec")
    expect(failed.locator(".submission__message")).to_have_text(
        "Le cas 4 (taille 129) donne une mauvaise réponse."
    )
    expect(failed.locator(".submission__case")).to_be_visible()
    assert Submission.objects.get(learner=grace).verdict == "failed"

    # Fixed: passed, and the page says so.
    send(page, REDUCTION / "reference.py")
    run_worker()
    expect(page.locator(".submission--passed")).to_be_visible(timeout=15_000)
    page.reload()
    expect(page.locator(".exercise .verdict--passed").first).to_have_text("réussi")
    assert serious_accessibility_violations(page) == []

    # The dashboard moves on to the lecture's other exercise, the histogram; the lecture's page,
    # the coding log and the stats count the reduction.
    page.goto("/")
    check = page.locator("#next-up-check")
    expect(check).to_contain_text("Histogramme")
    expect(check).not_to_contain_text("Somme d’un vecteur")
    page.goto("/stats/")
    expect(page.locator(".stats-figures div", has_text="Exercices réussis")).to_contain_text("1")
    page.goto(f"/resources/{LECTURE}/")
    expect(page.locator(".resource-exercise--passed")).to_contain_text("réussi")
    page.goto("/coding/")
    passed = page.locator(".exercises-passed")
    expect(passed).to_contain_text("Somme d’un vecteur")
    expect(passed.locator("td[data-label='Soumissions']")).to_have_text("2")

    # Ada's board shows what Grace passed: she shares her coding.
    other = new_page(browser, request, base_url=live_server.url)
    other.context.add_cookies(session_cookie(live_server, ada))
    other.goto(f"/groups/{group.slug}/")
    grace_entry = other.locator(".board__member", has_text="Grace H.")
    expect(grace_entry.locator(".board__exercises")).to_contain_text("1 · Somme d’un vecteur")
    ada_entry = other.locator(".board__member", has_text="Ada L.")
    expect(ada_entry.locator(".board__exercises")).to_have_text("0")
