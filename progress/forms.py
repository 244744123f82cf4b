"""The learner's forms: a coding session, a private note."""

import uuid

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from curriculum import structure
from lib.forms import day_input, renderer
from progress.models import MINUTES_IN_A_DAY, NOTE_MAX_LENGTH, CodingSession, EditorProject, Note

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

    default_renderer = renderer

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
        widgets = {"day": day_input()}
        help_texts = {
            "code_url": _("Optional: a repository, a gist, a notebook (http or https)."),
        }
        error_messages = {
            "code_url": {"invalid": _("Enter a web address that starts with http:// or https://.")}
        }

    def __init__(self, *args, resource=None, curriculum=None, **kwargs):
        kwargs.setdefault("auto_id", "coding_%s")
        super().__init__(*args, **kwargs)
        self.fixed_resource = resource
        if resource is not None:
            del self.fields["resource"]
            del self.fields["chapter"]
            self.instance.resource = resource
        else:
            curriculum = curriculum or structure.current()
            # Curriculum-only: built once per revision and language, not for each form.
            self.fields["resource"].choices = curriculum.built(grouped_resource_choices)
            self.fields["chapter"].choices = curriculum.built(grouped_chapter_choices)
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


# What one tap on the today card logs, in minutes.
class EditorProjectForm(forms.ModelForm):
    """Where an editor project's time counts: a resource, a chapter, the overall balance only, or
    nowhere (the learner types sessions for this work)."""

    default_renderer = renderer

    class Meta:
        model = EditorProject
        fields = ["resource", "chapter", "counted"]
        labels = {"counted": _("Count this project's time from the editor")}
        help_texts = {
            "counted": _(
                "Untick it if you also type coding sessions for this work, so that it counts once."
            ),
        }

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "project_%s")
        super().__init__(*args, **kwargs)
        curriculum = structure.current()
        self.fields["resource"].choices = grouped_resource_choices(curriculum)
        self.fields["chapter"].choices = grouped_chapter_choices(curriculum)
        self.fields["resource"].help_text = _(
            "The resource this project practises, or a chapter; none: it counts overall only."
        )

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("resource") and cleaned.get("chapter"):
            self.add_error("chapter", _("Choose a resource or a chapter, not both."))
        return cleaned


QUICK_MINUTES = (30, 60, 90)


class QuickCodingForm(forms.Form):
    """One tap on the today card: 30, 60 or 90 minutes of code, sent with the card's key."""

    default_renderer = renderer

    minutes = forms.TypedChoiceField(
        coerce=int,
        choices=[(minutes, minutes) for minutes in QUICK_MINUTES],
        error_messages={"invalid_choice": _("Choose 30, 60 or 90 minutes.")},
    )
    idempotency_key = forms.UUIDField(error_messages={"invalid": ALTERED_FORM_ERROR})


class NoteForm(forms.ModelForm):
    """A private note on a resource; an empty note deletes it."""

    default_renderer = renderer

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
