"""The learner's forms (a coding session, a private note) and the curators' filter."""

import uuid
from datetime import date

from django import forms
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from curriculum import structure
from progress.models import MINUTES_IN_A_DAY, NOTE_MAX_LENGTH, CodingSession, Note
from progress.widgets import OptionsInPythonSelect, day_input

MINUTES_ERROR = _("Enter between 1 and 1440 minutes (24 h).")
ALTERED_FORM_ERROR = _(
    "This form was altered or is out of date, so nothing was saved. Check the fields and save again."
)


def grouped_resource_choices(curriculum):
    """Resources grouped by series, for a select with optgroups."""
    groups = {}
    for resource in curriculum.resources:
        series = resource.series.name if resource.series_id else _("Other resources")
        groups.setdefault(series, []).append((resource.pk, resource.title))
    return [("", _("— none —")), *groups.items()]


def grouped_chapter_choices(curriculum):
    """Chapters of the guide grouped by part, for a select with optgroups."""
    groups = {
        str(part): [(chapter.pk, str(chapter)) for chapter in part.chapters.all()]
        for part in curriculum.parts
    }
    return [
        ("", _("— none —")),
        *((part, chapters) for part, chapters in groups.items() if chapters),
    ]


class CodingSessionForm(forms.ModelForm):
    """A coding session. With a fixed resource (the resource page), its selects are left out."""

    minutes = forms.IntegerField(
        label=_("Minutes"),
        min_value=1,
        max_value=MINUTES_IN_A_DAY,
        help_text=_("Between 1 and 1440 (24 h)."),
        error_messages={"min_value": MINUTES_ERROR, "max_value": MINUTES_ERROR},
    )
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)

    class Meta:
        model = CodingSession
        fields = ["day", "minutes", "built", "code_url", "resource", "chapter", "idempotency_key"]
        widgets = {
            "day": day_input(),
            "resource": OptionsInPythonSelect,
            "chapter": OptionsInPythonSelect,
        }
        help_texts = {
            "code_url": _("Optional: a repository, a gist, a notebook (http or https)."),
        }
        error_messages = {
            "code_url": {"invalid": _("Enter a web address that starts with http:// or https://.")}
        }

    def __init__(self, *args, resource=None, **kwargs):
        kwargs.setdefault("auto_id", "coding_%s")
        super().__init__(*args, **kwargs)
        self.fixed_resource = resource
        if resource is not None:
            del self.fields["resource"]
            del self.fields["chapter"]
            self.instance.resource = resource
        else:
            curriculum = structure.current()
            self.fields["resource"].choices = grouped_resource_choices(curriculum)
            self.fields["chapter"].choices = grouped_chapter_choices(curriculum)
            self.fields["resource"].help_text = _("The resource you practised, or a chapter.")
        if not self.is_bound:
            self.initial.setdefault("day", timezone.localdate())
            self.initial.setdefault("idempotency_key", uuid.uuid4())
        if self.instance.pk:
            del self.fields["idempotency_key"]

    def clean(self):
        cleaned = super().clean()
        if "idempotency_key" in self.errors:
            self.say_the_form_was_altered()
        tied = cleaned.get("resource") or cleaned.get("chapter")
        selects_failed = "resource" in self.errors or "chapter" in self.errors
        if self.fixed_resource is None and not tied and not selects_failed:
            self.add_error(
                "resource", _("Choose the resource or the chapter this session practised.")
            )
        return cleaned

    def say_the_form_was_altered(self):
        """The hidden key shows no error of its own: say it above the fields, with a fresh key."""
        self.add_error(None, ALTERED_FORM_ERROR)
        self.data = self.data.copy()
        self.data[self.add_prefix("idempotency_key")] = str(uuid.uuid4())


class NoteForm(forms.ModelForm):
    """A private note on a resource; an empty note deletes it."""

    text = forms.CharField(
        label=_("My private note"),
        required=False,
        max_length=NOTE_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_("Only you can read it. Plain text, up to 10,000 characters."),
        error_messages={
            "max_length": _("A note holds at most 10,000 characters (it has %(show_value)d).")
        },
    )

    class Meta:
        model = Note
        fields = ["text"]

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "note_%s")
        super().__init__(*args, **kwargs)


class CohortForm(forms.Form):
    """The curators' filter: learners who signed up in one month, or everyone; in one group, or any."""

    cohort = forms.ChoiceField(label=_("Signed up in"), required=False)
    group = forms.ChoiceField(label=_("Member of"), required=False)

    def __init__(self, data, *, months, groups=()):
        super().__init__(data)
        self.fields["cohort"].choices = [("", _("Any month"))] + [
            (month.strftime("%Y-%m"), date_format(month, "YEAR_MONTH_FORMAT")) for month in months
        ]
        self.groups = {group.slug: group for group in groups}
        self.fields["group"].choices = [("", _("Any group or none"))] + [
            (group.slug, group.name) for group in groups
        ]

    def chosen_group(self):
        """The chosen study group, or None for everyone (also when the choice is bad)."""
        if not self.is_valid():
            return None
        return self.groups.get(self.cleaned_data["group"])

    def month(self):
        """The first day of the chosen month, or None for everyone (also when the choice is bad)."""
        if not self.is_valid() or not self.cleaned_data["cohort"]:
            return None
        return date.fromisoformat(self.cleaned_data["cohort"] + "-01")
