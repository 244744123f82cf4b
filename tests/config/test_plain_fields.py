"""The plain template fields (templates/_form.jinja's macros over lib.forms.plain_field) print
what Django's own rendering prints for the same bound field, byte for byte: the widget with its
ids, required, aria-invalid and aria-describedby, selected options and hidden initial value
(str(field)), the label and legend (label_tag(), legend_tag()), the error list (str(errors)) and
the field group (as_field_group()). Django's output is the reference; the pages print the macros'.
"""

from datetime import date

import pytest
from django.contrib.auth.forms import PasswordChangeForm
from django.template import engines

from accounts.forms import SignInForm, SignUpForm
from accounts.settings_forms import DeleteAccountForm, ProfileForm
from accounts.throttling import ThrottledPasswordResetForm
from api.forms import TokenForm
from curation.forms import CohortForm
from curriculum.forms import ResourceFilterForm
from groups.forms import GroupForm, LinkForm, MembershipForm, ShareForm, UsernameInvitationForm
from lib.forms import plain_field
from progress.forms import CodingSessionForm, EditorProjectForm, NoteForm, QuickCodingForm
from reminders.forms import CodeTimeForm, DigestForm, NudgeForm
from tests.factories import ProfileFactory

pytestmark = pytest.mark.django_db

MACROS = """{% from "_form.jinja" import errors, field_group, label_tag, widget %}
{%- set plain = plain_field(field) -%}
{{ widget(field) }}|{{ label_tag(plain) }}|{{ label_tag(plain, "legend") }}|{{ errors(field.errors) }}|{{ field_group(field) }}"""

REFUSED = {
    "day": "2026-13-45",
    "minutes": "0",
    "built": "A <b>kernel</b> \"quoted\" 'and' &",
    "code_url": "javascript:x",
    "chapter": "nope",
    "resource": "",
    "idempotency_key": "not-a-uuid",
    "started_on": "tomorrow",
    "language": "xx",
    "time_zone": "Mars/Base",
    "gpu_card": "999999",
    "password": "",
    "text": "x" * 10_001,
    "name": "",
    "display_name": " ",
    "shares": "bogus",
    "days": ["9"],
    "max_uses": "0",
    "weekday": "9",
    "hour": "30",
    "code_at": "25:99",
    "username": "",
    "email": "not an address",
    "password1": "a",
    "password2": "b",
    "old_password": "",
    "new_password1": "a",
    "new_password2": "b",
}


def forms_of(learner, seed):
    """Each project form, unbound and refused, as the pages build them."""
    profile = ProfileFactory(user=learner, time_zone="America/Montreal", language="fr")
    return [
        ProfileForm(instance=profile),
        ProfileForm(REFUSED, instance=profile),
        DeleteAccountForm(user=learner),
        DeleteAccountForm(REFUSED, user=learner),
        CodingSessionForm(),
        CodingSessionForm(REFUSED),
        EditorProjectForm(),
        EditorProjectForm(REFUSED),
        NoteForm(),
        NoteForm(REFUSED),
        QuickCodingForm(REFUSED),
        GroupForm(),
        GroupForm(REFUSED),
        MembershipForm(initial={"display_name": "Ada", "shares": "coding"}),
        MembershipForm(REFUSED),
        LinkForm(),
        LinkForm(REFUSED),
        UsernameInvitationForm(REFUSED),
        ShareForm(user=learner),
        ShareForm(REFUSED, user=learner),
        DigestForm(initial={"weekday": 4}),
        DigestForm(REFUSED),
        NudgeForm(REFUSED),
        CodeTimeForm(initial={"days": [1, 2], "code_at": "08:30"}),
        CodeTimeForm(REFUSED),
        SignUpForm(),
        SignUpForm(REFUSED),
        SignInForm(),
        SignInForm(data=REFUSED),
        PasswordChangeForm(learner),
        PasswordChangeForm(learner, REFUSED),
        ThrottledPasswordResetForm(REFUSED),
        TokenForm(),
        TokenForm({"name": "", "scope": "bogus"}),
        CohortForm({"cohort": "1999-01", "group": "x"}, months=[date(2026, 1, 1)]),
        ResourceFilterForm(),
        ResourceFilterForm({"kind": "bogus", "q": "<b>"}),
    ]


def test_every_field_prints_as_django_prints_it(learner, seed):
    template = engines["jinja2"].env.from_string(MACROS)
    compared = 0
    for form in forms_of(learner, seed):
        form.is_bound and form.is_valid()
        for field in form:
            django = "|".join(
                [
                    str(field),
                    field.label_tag(),
                    field.legend_tag(),
                    str(field.errors),
                    field.as_field_group(),
                ]
            )
            assert template.render(field=field) == django, (type(form).__name__, field.name)
            compared += 1
    assert compared > 80


def test_a_widget_without_a_plain_template_is_refused():
    from django import forms

    class Upload(forms.Form):
        file = forms.FileField()

    with pytest.raises(ValueError, match="clearable_file_input"):
        plain_field(Upload()["file"])
