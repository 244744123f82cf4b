"""Browser journey: a learner narrows the catalogue to what they are watching with htmx, and
folds and unfolds a series with the keyboard."""

import re
from io import StringIO

from django.core.management import call_command
from playwright.sync_api import expect

from curriculum.models import Resource
from progress import actions
from tests.factories import UserFactory


def test_a_learner_filters_by_state_with_htmx_and_folds_a_series_with_the_keyboard(
    page, sign_in, transactional_db
):
    """In French: "En cours" swaps the results in place, the address follows, the count is
    announced from the same status element; Enter closes the series' summary, Space reopens it."""
    call_command("load_curriculum", stdout=StringIO())
    learner = UserFactory(username="ada")
    course = Resource.objects.get(slug="freecodecamp-cuda-course")
    actions.log_sitting(user=learner, resource=course, minutes=45)
    sign_in(learner)
    page.goto("/resources/")
    status = page.locator("#results-status")
    expect(status).to_contain_text("58 ressources")
    expect(page.locator("details.series-group[open]")).to_have_count(1)  # "start here"
    page.evaluate("document.getElementById('results-status').dataset.kept = 'yes'")

    state = page.get_by_label("Mon avancement")
    state.focus()
    state.select_option(label="En cours")

    expect(page).to_have_url(re.compile(r"/resources/\?.*state=in_progress"))
    expect(status).to_have_text(re.compile(r"^\s*1 ressource\s*$"))
    expect(status).to_have_attribute("data-kept", "yes")  # the same element: announced
    expect(state).to_be_focused()  # the swap leaves the form, and focus, alone
    series = page.locator("details#series-freecodecamp")
    expect(series).to_have_attribute("open", "")
    expect(page.locator("li.resource-card")).to_have_count(1)
    expect(page.locator("#resource-freecodecamp-cuda-course")).to_be_visible()

    summary = series.locator("summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(series).not_to_have_attribute("open", re.compile(".*"))
    expect(page.locator("#resource-freecodecamp-cuda-course")).to_be_hidden()
    page.keyboard.press("Space")
    expect(series).to_have_attribute("open", "")
    expect(page.locator("#resource-freecodecamp-cuda-course")).to_be_visible()
