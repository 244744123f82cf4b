"""A form's fields printed by the Jinja2 pages (lib/form_fields.py, templates/_fields.jinja) are
those Django writes (templates/progress/_coding_session_fields.html): unbound, with errors on
fields, with an error on the whole form, in both languages."""

import re
import uuid

import pytest
from django.template import engines
from django.utils import translation

from lib.form_fields import field_groups, non_field_errors
from progress.forms import CodingSessionForm

JINJA = '{% from "_fields.jinja" import fields %}{{ fields(groups, errors) }}'
KEY = str(uuid.uuid4())
POSTS = {
    "unbound": None,
    "empty": {},
    "bad values": {
        "day": "2026-13-45",
        "minutes": "0",
        "built": "x" * 301,
        "code_url": "javascript:alert(1)",
        "resource": "999999",
        "chapter": "nope",
        "idempotency_key": KEY,
    },
    "altered key": {
        "day": "2026-11-02",
        "minutes": "30",
        "built": "<b>kernel</b> & co",
        "idempotency_key": "x",
    },
    "good": {"day": "2026-11-02", "minutes": "30", "built": "A kernel", "idempotency_key": KEY},
}


def words(html):
    html = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "KEY", html)
    html = html.replace("&#x27;", "&#39;")
    return re.sub(r"\s+", " ", html).replace("> <", "><").strip()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("post", POSTS)
def test_the_jinja_fields_are_the_django_ones(seed, language, post):
    """Labels, help, errors, widgets with their values and aria attributes, hidden fields."""
    with translation.override(language):
        form = CodingSessionForm(POSTS[post])
        if form.is_bound:
            form.is_valid()
        django_html = (
            engines["django"]
            .get_template("progress/_coding_session_fields.html")
            .render({"form": form})
        )
        jinja_html = (
            engines["jinja2"]
            .from_string(JINJA)
            .render({"groups": field_groups(form), "errors": non_field_errors(form)})
        )
    assert 'id="coding_minutes"' in jinja_html
    assert words(jinja_html) == words(django_html)


def other_forms():
    """A form of every other widget kind the Jinja2 pages print, unbound and refused."""
    from accounts.settings_forms import DeleteAccountForm, ProfileForm
    from groups.forms import GroupForm, MembershipForm
    from reminders.forms import CodeTimeForm, DigestForm, NudgeForm
    from tests.factories import UserFactory

    user = UserFactory()
    bad_profile = {"started_on": "1999-01-01", "language": "xx", "time_zone": "Mars/Base"}
    return {
        "profile": ProfileForm(),
        "profile refused": ProfileForm({**bad_profile, "records_viewing": "on", "gpu_card": "0"}),
        "profile unticked": ProfileForm({"started_on": "2025-01-06", "time_zone": "UTC"}),
        "password": DeleteAccountForm(user=user),
        "password refused": DeleteAccountForm({"password": "not <it>"}, user=user),
        "radio buttons": MembershipForm(initial={"display_name": "Ada", "shares": "coding"}),
        "radio buttons refused": MembershipForm({"display_name": " ", "shares": "all"}),
        "checkboxes and time": CodeTimeForm(initial={"days": [0, 2], "code_at": "19:30"}),
        "checkboxes refused": CodeTimeForm({"code_at": "25:99"}),
        "choices": DigestForm(initial={"weekday": 2}),
        "choices refused": NudgeForm({"hour": "99"}),
        "text area": GroupForm({"name": "", "description": "<b>we</b> & co"}),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_widget_kind_is_written_as_django_writes_it(seed, language):
    """Checkboxes (ticked or not), selects with groups, radio buttons and multiple checkboxes in
    a fieldset, a password never written back, a text area: as Django's field groups."""
    with translation.override(language):
        for name, form in other_forms().items():
            if form.is_bound:
                form.is_valid()
            django_html = (
                engines["django"]
                .get_template("progress/_coding_session_fields.html")
                .render({"form": form})
            )
            jinja_html = (
                engines["jinja2"]
                .from_string(JINJA)
                .render({"groups": field_groups(form), "errors": non_field_errors(form)})
            )
            assert words(jinja_html) == words(django_html), name
            assert "not &lt;it&gt;" not in jinja_html
