import re

from playwright.sync_api import expect

from tests.browser.conftest import serious_accessibility_violations
from tests.factories import ResourceFactory, StageFactory, StepFactory, UserFactory


def small_path():
    stage = StageFactory(title="Semaine 1", first_week=1, last_week=1, order=1)
    talk = StepFactory(stage=stage, order=1, resource=ResourceFactory(slug="talk", title="Talk"))
    course = ResourceFactory(slug="course", kind="course", title="Course", duration_minutes=720)
    return stage, talk, StepFactory(stage=stage, order=2, resource=course)


def test_marking_a_step_watched_keeps_focus_and_updates_the_bars(page, sign_in, transactional_db):
    """Enter on the step's button: the step turns watched, the bars move, focus stays put."""
    stage, step, _ = small_path()
    sign_in(UserFactory(username="ada"))
    page.goto("/")
    button = page.locator(f"#step-{step.pk}-toggle")
    button.focus()
    page.keyboard.press("Enter")

    expect(page.locator(f"#step-{step.pk}")).to_have_class(re.compile("step--done"))
    expect(page.locator(f"#bar-{stage.pk}-steps")).to_have_attribute("value", "1")
    expect(page.locator("#bar-path-steps")).to_have_attribute("value", "1")
    focused = page.evaluate("document.activeElement.id")
    assert focused == f"step-{step.pk}-toggle"
    assert page.url.endswith("/")


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


def test_without_javascript_the_form_posts_and_comes_back(
    page_without_javascript, transactional_db, live_server
):
    """No htmx: the POST redirects to the dashboard with a message and the new state."""
    from tests.factories import PASSWORD

    page = page_without_javascript
    _, _, course = small_path()
    UserFactory(username="ada")
    page.goto("/accounts/login/")
    page.get_by_label(re.compile("Nom d.utilisateur")).fill("ada")
    page.get_by_label(re.compile("Mot de passe")).fill(PASSWORD)
    page.get_by_role("button", name=re.compile("Se connecter")).last.click()
    page.locator(f"#step-{course.pk}-minutes").fill("90")
    page.locator(f"#step-{course.pk}-log").click()
    expect(page.locator(".messages")).to_be_visible()
    expect(page.locator(f"#step-{course.pk}")).to_have_class(re.compile("step--in_progress"))


def test_the_dashboard_has_no_serious_accessibility_violation(page, sign_in, transactional_db):
    """axe-core finds nothing serious on a learner's dashboard."""
    small_path()
    sign_in(UserFactory(username="ada"))
    page.goto("/")
    assert serious_accessibility_violations(page) == []
