import re

from playwright.sync_api import expect

from curriculum.models import Step
from progress.models import Watch
from tests.conftest import insert_seed
from tests.factories import (
    PASSWORD,
    CodingSessionFactory,
    ResourceFactory,
    StageFactory,
    StepFactory,
    UserFactory,
)

# Tab presses allowed to reach a button before the test gives up.
MAX_TABS = 60


def small_path():
    stage = StageFactory(title="Semaine 1", first_week=1, last_week=1, order=1)
    talk = StepFactory(stage=stage, order=1, resource=ResourceFactory(slug="talk", title="Talk"))
    course = ResourceFactory(slug="course", kind="course", title="Course", duration_minutes=720)
    return stage, talk, StepFactory(stage=stage, order=2, resource=course)


def step_of(slug):
    return Step.objects.get(resource__slug=slug)


def count_navigations(page):
    """A list that grows each time the page's main frame loads a document."""
    navigations = []
    page.on(
        "framenavigated",
        lambda frame: navigations.append(frame.url) if frame == page.main_frame else None,
    )
    return navigations


def test_a_newcomer_marks_the_start_here_talk_watched_without_a_page_load(
    page, transactional_db, seed_rows
):
    """Sign up, meet the start-here talk and its reason, mark it: step and bars move in place."""
    insert_seed(seed_rows)
    step = step_of("how-gpu-computing-works")
    page.goto("/accounts/signup/")
    page.get_by_label("Nom d’utilisateur").fill("lovelace")
    page.get_by_label("Adresse e-mail").fill("ada@example.com")
    page.get_by_label(re.compile("^Mot de passe")).fill(PASSWORD)
    page.get_by_label("Confirmation du mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Créer mon compte").click()

    start_here = page.locator("#start-here")
    expect(start_here.get_by_role("heading", name="Commencez ici")).to_be_visible()
    expect(start_here).to_contain_text("How GPU Computing Works")
    expect(start_here).to_contain_text("Si vous ne regardez qu'une vidéo sur le GPU")
    expect(page.locator("#bar-path-steps")).to_have_attribute("value", "0")

    page.evaluate("window.__marker = 1")
    navigations = count_navigations(page)
    page.locator("#start-here-toggle").click()

    expect(page.locator(f"#step-{step.pk}")).to_have_class(re.compile("step--done"))
    expect(page.locator("#bar-path-steps")).to_have_attribute("value", "1")
    expect(page.locator("#path-bar")).to_contain_text(re.compile(r"1\sh regardées? sur"))
    expect(page.locator("#start-here-title")).to_have_count(0)
    next_up = page.locator("#next-up")
    expect(next_up).to_contain_text("Getting Started With CUDA")
    # An hour watched and nothing coded: next up is coding it, and focus is on that link.
    expect(next_up.get_by_role("heading")).to_have_text("À suivre : coder")
    expect(next_up).to_contain_text("Encore 3 h de code avant la prochaine vidéo")
    log_code = next_up.get_by_role(
        "link", name="Noter une séance de code pour « How GPU Computing Works »"
    )
    expect(log_code).to_be_focused()
    assert page.evaluate("window.__marker") == 1
    assert navigations == []

    page.reload()
    expect(page.locator(f"#step-{step.pk}")).to_have_class(re.compile("step--done"))
    expect(page.locator("#bar-path-steps")).to_have_attribute("value", "1")
    assert page.evaluate("window.__marker") is None
    assert len(navigations) == 1, "the listener sees a real page load"


def test_a_step_title_opens_the_resource_page(page, sign_in, transactional_db, seed_rows):
    """The tile's title leads to the resource page, where the video and coding are; the compact
    map's tile carries no watch link of its own."""
    insert_seed(seed_rows)
    step = step_of("gpu-mode-3")
    sign_in(UserFactory(username="ada"))
    page.goto("/path/")
    item = page.locator(f"#step-{step.pk}")
    expect(item.get_by_role("link", name=re.compile("^Regarder"))).to_have_count(0)
    item.locator(".step__title a").click()
    expect(page).to_have_url(re.compile("/resources/gpu-mode-3/$"))
    expect(page.locator("#coding-gpu-mode-3")).to_be_visible()


def test_keyboard_a_second_space_marks_no_other_video(page, sign_in, transactional_db):
    """Space on next up's "mark watched" marks that video; focus moves to the new next up's
    first link, so a second Space marks nothing (it used to land on the next video's button)."""
    stage = StageFactory(title="Semaine 1", first_week=1, last_week=1, order=1)
    first, second = (
        StepFactory(stage=stage, order=order, resource=ResourceFactory(slug=slug, title=title))
        for order, slug, title in [(1, "first", "First talk"), (2, "second", "Second talk")]
    )
    ada = UserFactory(username="ada")
    for _ in range(5):  # far more code than video: next up stays a video, not coding
        CodingSessionFactory(user=ada, resource=first.resource, minutes=600)
    sign_in(ada)
    page.goto("/")
    page.locator(f"#next-up-{first.resource.pk}-toggle").focus()
    page.keyboard.press("Space")

    expect(page.locator(f"#step-{first.pk}")).to_have_class(re.compile("step--done"))
    expect(page.locator(f"#next-up-{second.resource.pk}-page")).to_be_focused()
    page.keyboard.press("Space")
    page.wait_for_timeout(500)
    expect(page.locator(f"#step-{second.pk}")).to_have_class(re.compile("step--not_started"))
    assert list(Watch.objects.filter(user=ada).values_list("resource__slug", flat=True)) == [
        "first"
    ]


def test_two_sittings_of_the_long_course_show_partial_progress_then_finish_it(
    page, sign_in, transactional_db, seed_rows
):
    """90 then 120 minutes of the 12 h course: minutes and bar grow; then a confirmed click finishes it."""
    insert_seed(seed_rows)
    step = step_of("freecodecamp-cuda-course")
    sign_in(UserFactory(username="hopper"))
    page.goto("/")
    course = page.locator(f"#step-{step.pk}")
    # On a tile the field's label is for screen readers only: its unit is what the eye reads.
    expect(course.get_by_label("Minutes regardées pendant cette séance")).to_be_visible()
    expect(course.locator(".watch__unit")).to_be_visible()
    expect(course.locator(".watch__unit")).to_have_text("min")

    for minutes, total, words in [
        ("90", "90", "1 h 30 sur 12 h"),
        ("120", "210", "3 h 30 sur 12 h"),
    ]:
        page.locator(f"#step-{step.pk}-minutes").fill(minutes)
        page.locator(f"#step-{step.pk}-log").click()
        expect(course).to_contain_text(words)
        expect(page.locator(f"#step-{step.pk}-bar")).to_have_attribute("value", total)
    expect(course).to_have_class(re.compile("step--in_progress"))
    expect(page.locator("#path-bar")).to_contain_text(re.compile(r"3\sh\s30 regardées sur"))
    expect(page.locator("#balance")).to_contain_text("3 h 30")

    page.locator(f"#step-{step.pk}-toggle").click()
    expect(page.locator(f"#step-{step.pk}-confirm")).to_contain_text("8 h 30")
    expect(course).to_have_class(re.compile("step--in_progress"))
    page.locator(f"#step-{step.pk}-toggle").click()
    expect(course).to_have_class(re.compile("step--done"))
    expect(page.locator("#path-bar")).to_contain_text(re.compile(r"12\sh regardées sur"))
    expect(page.locator("#bar-path-steps")).to_have_attribute("value", "1")


def test_keyboard_only_a_learner_tabs_to_a_button_and_focus_stays_on_the_step(
    page, sign_in, transactional_db
):
    """Tab to the step's button, press Enter: the step turns watched, focus stays inside it."""
    stage, step, _ = small_path()
    sign_in(UserFactory(username="ada"))
    page.goto("/")
    target = f"step-{step.pk}-toggle"
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == target:
            break
    else:
        raise AssertionError(f"#{target} not reached in {MAX_TABS} presses of Tab")
    page.keyboard.press("Enter")

    expect(page.locator(f"#step-{step.pk}")).to_have_class(re.compile("step--done"))
    expect(page.locator(f"#stage-{stage.pk}-bar")).to_contain_text("1 sur 2")
    expect(page.locator("#bar-path-steps")).to_have_attribute("value", "1")
    assert page.evaluate(f"document.activeElement.closest('#step-{step.pk}') !== null")
    assert page.evaluate("document.activeElement.id") == target
    assert page.url.endswith("/")


def test_the_pages_refresh_keeps_what_the_learner_typed(page, sign_in, transactional_db):
    """Minutes typed in the course's tile, then a sitting saved from the next-up card: the page's
    refresh moves the tile's state and bars, and keeps the tile's controls with the minutes in
    them (static/js/blocks_follow.js); focus stays in the field pressed Enter in."""
    from progress import actions

    stage, talk, course = small_path()
    ada = UserFactory(username="ada")
    actions.mark_watched(user=ada, resource=talk.resource)
    CodingSessionFactory(user=ada, resource=talk.resource, minutes=600)  # next up: the course
    sign_in(ada)
    page.goto("/")
    page.locator(f"#step-{course.pk}-minutes").fill("45")
    next_up = page.locator(f"#next-up-{course.resource.pk}-minutes")
    next_up.fill("30")
    next_up.press("Enter")

    expect(page.locator(f"#step-{course.pk}")).to_have_class(re.compile("step--in_progress"))
    expect(page.locator(f"#stage-{stage.pk}-bar")).to_contain_text(
        re.compile(r"1\sh\s30 regardées")
    )
    expect(page.locator("#change-announcer")).to_have_text("Séance enregistrée pour « Course ».")
    expect(page.locator(f"#step-{course.pk}-minutes")).to_have_value("45")
    expect(next_up).to_be_focused()
    assert Watch.objects.get(user=ada, resource=course.resource).logged_minutes == 30


def test_a_bad_sitting_shows_its_error_in_place(page, sign_in, transactional_db):
    """Zero minutes: the error appears beside the field and nothing is logged."""
    _, _, course = small_path()
    sign_in(UserFactory(username="ada"))
    page.goto("/")
    minutes = page.locator(f"#step-{course.pk}-minutes")
    minutes.evaluate("field => field.removeAttribute('min')")
    minutes.fill("0")
    page.locator(f"#step-{course.pk}-log").click()
    expect(page.locator(f"#step-{course.pk}-error")).to_be_visible()
    expect(page.locator(f"#step-{course.pk}")).to_have_class(re.compile("step--not_started"))


def test_without_javascript_the_forms_post_and_come_back(page_without_javascript, transactional_db):
    """No htmx: a sitting and a mark-watched both come back to their step, with a message."""
    page = page_without_javascript
    _, talk, course = small_path()
    UserFactory(username="ada")
    page.goto("/accounts/login/")
    page.get_by_label(re.compile("Nom d.utilisateur")).fill("ada")
    page.get_by_label(re.compile("Mot de passe")).fill(PASSWORD)
    page.get_by_role("button", name=re.compile("Se connecter")).last.click()
    page.locator(f"#step-{course.pk}-minutes").fill("90")
    page.locator(f"#step-{course.pk}-log").click()
    expect(page.locator(".messages")).to_contain_text("Séance enregistrée pour « Course »")
    expect(page.locator(f"#step-{course.pk}")).to_have_class(re.compile("step--in_progress"))

    assert page.url.endswith(f"/#step-{course.pk}")

    page.locator(f"#step-{talk.pk}-toggle").click()
    expect(page.locator(".messages")).to_contain_text("« Talk » marqué comme regardé")
    expect(page.locator(f"#step-{talk.pk}")).to_have_class(re.compile("step--done"))
    expect(page.locator(f"#step-{talk.pk}")).to_contain_text("Regardé")
    # Back on the step that was clicked, not at the top of the page.
    assert page.url.endswith(f"/#step-{talk.pk}")
    expect(page.locator(f"#step-{talk.pk}")).to_be_in_viewport()
