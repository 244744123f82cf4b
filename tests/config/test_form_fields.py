"""The forms' fields as the learner's browser reads them, through the pages that print them as
plain template fields (templates/_form.jinja, from lib.forms.plain_field): each control named by its label, a refused field marked
invalid and tied to its message, a required field marked, the learner's own choices chosen, in
both languages. The error summary above a refused form is tests/config/test_error_summaries.py."""

from datetime import date
from html.parser import HTMLParser

import pytest
from django import forms
from django.urls import reverse

from curriculum.models import GpuCard
from lib.forms import renderer
from progress.models import Profile
from reminders.models import CalendarFeed, DigestSubscription, NudgeSubscription
from tests.factories import ProfileFactory

pytestmark = pytest.mark.django_db
EN, FR = {"accept-language": "en"}, {"accept-language": "fr"}
CONTROLS = {"input", "select", "textarea"}


class Controls(HTMLParser):
    """The page's form controls, its labels' targets, and every element's id and text."""

    def __init__(self):
        super().__init__()
        self.controls: list[dict] = []
        self.label_for: set[str] = set()
        self.texts: dict[str, str] = {}
        self.selected: dict[str, list[str]] = {}
        self._open: list[str] = []  # ids of the elements open, to collect their text
        self._select = ""

    def handle_starttag(self, tag, attrs):
        attributes = {name: value if value is not None else True for name, value in attrs}
        if tag in CONTROLS:
            self.controls.append({"tag": tag, **attributes})
        if tag == "select":
            self._select = attributes.get("name", "")
        if tag == "option" and "selected" in attributes:
            self.selected.setdefault(self._select, []).append(attributes.get("value", ""))
        if tag == "label" and "for" in attributes:
            self.label_for.add(attributes["for"])
        if "id" in attributes and tag not in {"input", "br", "meta", "link"}:
            self.texts.setdefault(attributes["id"], "")
            self._open.append(attributes["id"])

    def handle_endtag(self, tag):
        if self._open and tag not in {"input", "br"}:
            self._open.pop()

    def handle_data(self, data):
        for element in self._open:
            self.texts[element] += data


def controls_of(html, form_action):
    """The controls of the form that posts to form_action, hidden ones left out."""
    start = html.index(f'action="{form_action}"')
    page = Controls()
    page.feed(html[start : html.index("</form>", start)])
    page.controls = [c for c in page.controls if c.get("type") not in {"hidden", "submit"}]
    return page


def assert_every_control_is_labelled(page):
    for control in page.controls:
        assert control["id"] in page.label_for or control.get("type") in {"radio", "checkbox"}, (
            control
        )


def assert_refused(page, name, message):
    """The control is invalid and described by its message."""
    [control] = [c for c in page.controls if c.get("name") == name]
    assert control.get("aria-invalid") == "true"
    error_id = f"{control['id']}_error"
    assert error_id in control["aria-describedby"].split()
    assert message in page.texts[error_id]


def test_a_refused_coding_session_ties_each_message_to_its_field(learner_client):
    data = {
        "day": "2026-13-45",
        "minutes": "0",
        "built": "A kernel",
        "code_url": "javascript:x",
        "chapter": "nope",
    }
    response = learner_client.post(reverse("progress:coding_log"), data, headers=EN)
    page = controls_of(response.text, reverse("progress:coding_log"))
    assert_every_control_is_labelled(page)
    assert_refused(page, "day", "Enter a valid date.")
    assert_refused(page, "minutes", "Enter between 1 and 1440 minutes (24 h).")
    assert_refused(page, "code_url", "Enter a web address that starts with http:// or https://.")
    assert_refused(page, "chapter", "Select a valid choice.")
    [built] = [c for c in page.controls if c.get("name") == "built"]
    assert "aria-invalid" not in built


def test_the_coding_log_marks_its_required_fields(learner_client):
    html = learner_client.get(reverse("progress:coding_log"), headers=EN).text
    page = controls_of(html, reverse("progress:coding_log"))
    required = {c["name"] for c in page.controls if c.get("required")}
    assert required == {"day", "minutes", "built"}
    assert html.count('<span class="field__required" aria-hidden="true">required</span>') == 3


def zone_field(page):
    """The time-zone field's value and the datalist it offers names from."""
    [field] = [c for c in page.controls if c.get("name") == "time_zone"]
    return {"value": field.get("value"), "list": field.get("list")}


@pytest.fixture
def settled(seed, learner):
    """A learner with a card, a zone, a start day, recording off, and every reminder."""
    card = GpuCard.objects.filter(architecture__isnull=False).order_by("pk").last()
    ProfileFactory(
        user=learner,
        gpu_card=card,
        architecture=card.architecture,
        started_on=date(2025, 3, 4),
        language="fr",
        time_zone="America/Montreal",
        records_viewing=False,
    )
    CalendarFeed.issue_for(learner)
    CalendarFeed.objects.filter(user=learner).update(code_weekdays=0b0000110)
    DigestSubscription.objects.create(user=learner, weekday=4)
    NudgeSubscription.objects.create(user=learner, hour=21)
    return card


@pytest.mark.parametrize("language", [EN, FR])
def test_the_settings_page_shows_the_learners_own_choices(learner_client, settled, language):
    """Each select has the learner's option chosen, and only it; the boxes as they left them."""
    html = learner_client.get(reverse("accounts:settings"), headers=language).text
    profile = controls_of(html, reverse("accounts:settings"))
    assert_every_control_is_labelled(profile)
    assert profile.selected == {
        "gpu_card": [str(settled.pk)],
        "architecture": [str(settled.architecture_id)],
        "language": ["fr"],
    }
    assert zone_field(profile) == {"value": "America/Montreal", "list": "time-zones"}
    [started_on] = [c for c in profile.controls if c.get("name") == "started_on"]
    assert started_on["value"] == "2025-03-04"
    [records] = [c for c in profile.controls if c.get("name") == "records_viewing"]
    assert "checked" not in records
    digest = controls_of(html, reverse("reminders:digest_settings"))
    nudge = controls_of(html, reverse("reminders:nudge_settings"))
    assert (digest.selected, nudge.selected) == ({"weekday": ["4"]}, {"hour": ["21"]})
    code_time = controls_of(html, reverse("reminders:code_time"))
    ticked = [c["value"] for c in code_time.controls if c.get("name") == "days" and "checked" in c]
    assert ticked == ["1", "2"]


def test_two_learners_each_see_their_own_choices(client, learner, other_learner, seed):
    """In one process, the second page is not printed from the first one's zone select."""
    ProfileFactory(user=learner, time_zone="Asia/Tokyo")
    ProfileFactory(user=other_learner, time_zone="Europe/Paris")
    pages = []
    for user in (learner, other_learner):
        client.force_login(user)
        html = client.get(reverse("accounts:settings"), headers=EN).text
        pages.append(zone_field(controls_of(html, reverse("accounts:settings")))["value"])
    assert pages == ["Asia/Tokyo", "Europe/Paris"]


def test_a_learner_without_a_zone_sees_the_sites(learner_client, settings):
    html = learner_client.get(reverse("accounts:settings"), headers=EN).text
    page = controls_of(html, reverse("accounts:settings"))
    assert zone_field(page)["value"] == settings.TIME_ZONE
    assert Profile.objects.filter(time_zone="").count() == 1


def test_a_refused_profile_shows_what_was_sent_with_its_messages(learner_client, learner):
    """After a page that showed the learner's zone, the refused zone is printed invalid."""
    ProfileFactory(user=learner, time_zone="Mars/Base")
    learner_client.get(reverse("accounts:settings"), headers=EN)
    data = {"started_on": "tomorrow", "language": "xx", "time_zone": "Mars/Base"}
    response = learner_client.post(reverse("accounts:settings"), data, headers=EN)
    page = controls_of(response.text, reverse("accounts:settings"))
    assert_refused(page, "started_on", "Enter a valid date.")
    assert_refused(page, "language", "Select a valid choice. xx is not one of the available")
    assert_refused(page, "time_zone", "“Mars/Base” is not a time zone.")
    assert zone_field(page)["value"] == "Mars/Base"


def test_a_refused_code_time_keeps_its_layout_and_says_why(learner_client, learner):
    CalendarFeed.issue_for(learner)
    response = learner_client.post(reverse("reminders:code_time"), {"code_at": "25:99"}, headers=FR)
    assert response.status_code == 400
    page = controls_of(response.text, reverse("reminders:code_time"))
    assert_refused(page, "code_at", "Saisissez une heure valide.")
    assert '<fieldset id="code-days" class="field--error" aria-describedby="code-days-error">' in (
        response.text
    )
    assert "Choisissez au moins un jour pour le temps de code." in page.texts["code-days-error"]


def test_every_form_of_the_project_prints_with_django_templates_in_jinja2():
    """A form left on Django's default renderer would print through the other engine wherever a
    template prints `{{ field }}` or a form's errors through Django rather than _form.jinja."""
    import accounts.forms
    import accounts.settings_forms
    import accounts.throttling
    import api.forms
    import curation.forms
    import curriculum.forms
    import groups.forms
    import progress.forms
    import reminders.forms

    modules = [
        accounts.forms,
        accounts.settings_forms,
        accounts.throttling,
        api.forms,
        curation.forms,
        curriculum.forms,
        groups.forms,
        progress.forms,
        reminders.forms,
    ]
    # The admin's form keeps Django's default: its widgets' templates are the admin's own.
    admin_forms = {accounts.forms.AccountChangeForm}
    found = [
        value
        for module in modules
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, forms.BaseForm)
        and value.__module__ == module.__name__
        and value not in admin_forms
    ]
    assert len(found) == 20
    assert all(form.default_renderer is renderer for form in found)
