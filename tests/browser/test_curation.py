import re

from playwright.sync_api import expect

from curriculum.models import Pairing, Step
from tests.conftest import insert_seed
from tests.factories import PASSWORD, UserFactory


def pick(page, field_id, typed, option):
    """Open the select2 box of an autocomplete field, type into its search, choose an option."""
    page.locator(f"#{field_id} + .select2 .select2-selection").click()
    page.locator(".select2-container--open .select2-search__field").fill(typed)
    page.locator(".select2-results__option", has_text=option).click()
    expect(page.locator(f"#select2-{field_id}-container")).to_contain_text(option)


def sign_in_to_admin(page, user):
    page.goto("/admin/")
    page.locator("#id_username").fill(user.username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("input[type=submit]").click()


def test_a_curator_adds_a_resource_to_week_4_and_a_learner_sees_it_on_the_path(
    page, sign_in, transactional_db, seed_rows
):
    """Admin: a lecture paired with chapter 2.5, then a step of "Semaine 4"; then the path shows it."""
    insert_seed(seed_rows)
    sign_in_to_admin(page, UserFactory(username="curie", is_staff=True, is_superuser=True))

    page.goto("/admin/curriculum/resource/add/")
    page.locator("#id_kind").select_option("lecture")
    page.locator("#id_title_fr").fill("Tensor Memory Accelerator in practice")
    page.locator("#id_title_fr").press("Tab")
    slug = page.locator("#id_slug")
    expect(slug).to_have_value("tensor-memory-accelerator-in-practice")
    slug.fill("tma-in-practice")
    page.locator("#id_duration_minutes").fill("75")
    page.locator("#pairings-group .add-row a").click()
    page.locator("#id_pairings-0-timing").select_option("with")
    pick(page, "id_pairings-0-chapter", "Partie 2, chapitre 5", "Partie 2, chapitre 5")
    page.locator("input[name=_save]").click()
    expect(page.locator(".messagelist")).to_contain_text("Tensor Memory Accelerator in practice")

    page.goto("/admin/curriculum/stage/")
    page.get_by_role("link", name="Semaine 4", exact=True).click()
    page.locator("#steps-group .add-row a").click()
    prefix = f"steps-{Step.objects.filter(stage__title='Semaine 4').count()}"
    page.locator(f"#id_{prefix}-order").fill("3")
    pick(page, f"id_{prefix}-resource", "Tensor Memory", "Tensor Memory Accelerator in practice")
    page.locator(f"#id_{prefix}-note_fr").fill("1 h 15, avec le chapitre 5")
    page.locator("input[name=_save]").click()
    expect(page.locator(".messagelist")).to_contain_text("Semaine 4")

    pairing = Pairing.objects.get(resource__slug="tma-in-practice")
    assert (pairing.chapter.part.number, pairing.chapter.number, pairing.timing) == (2, 5, "with")
    step = Step.objects.get(resource__slug="tma-in-practice")
    assert (step.stage.title, step.order) == ("Semaine 4", 3)

    page.context.clear_cookies()
    sign_in(UserFactory(username="ada"))
    page.goto("/path/")
    new_step = page.locator(f"#step-{step.pk}")
    expect(new_step).to_contain_text("Tensor Memory Accelerator in practice")
    expect(new_step).to_contain_text("1 h 15")
    stage = page.locator(f"#stage-{step.stage.pk}")
    expect(stage.locator(".step")).to_have_count(3)
    expect(stage.locator(".step").last).to_have_id(f"step-{step.pk}")
    # The compact map leaves the pairing and the note to the step's resource page.
    new_step.get_by_role("link", name="Tensor Memory Accelerator in practice").click()
    expect(page.locator(".resource__facts")).to_contain_text(
        "Semaine 4 · 1 h 15, avec le chapitre 5"
    )
    expect(page.locator("#guide-heading + ul")).to_contain_text(re.compile(r"Partie 2, chapitre 5"))
