import threading

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.text import capfirst
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from curriculum import structure
from curriculum.models import Resource
from lib.forms import renderer


class LearnerState(models.TextChoices):
    """Where the signed-in learner stands on a resource, as the catalogue filters it."""

    NOT_STARTED = "not_started", _("Not started")
    IN_PROGRESS = "in_progress", _("In progress")
    WATCHED = "watched", _("Watched")
    FOLLOWED = "followed", _("Followed")


class ResourceFilterForm(forms.Form):
    """The catalogue's filters; every one optional, read from GET so results can be shared.

    A filter whose value is not one of its choices (a stale shared link, a tampered address)
    is left out and named in `ignored`; the valid ones still apply. The state filter is a
    signed-in learner's only: visitors have no state, and the form leaves the field out.
    """

    default_renderer = renderer

    q = forms.CharField(label=_("Search"), required=False, max_length=100)
    kind = forms.ChoiceField(label=_("Kind"), required=False)
    series = forms.ChoiceField(label=_("Series"), required=False)
    guide = forms.ChoiceField(label=_("Part or chapter of the guide"), required=False)
    # The model's verbose name, lower-case in French ("architecture GPU"): a label starts upper-case.
    architecture = forms.ChoiceField(label=capfirst(_("GPU architecture")), required=False)
    state = forms.ChoiceField(
        label=_("My progress"),
        required=False,
        choices=[("", _("Everything")), *LearnerState.choices],
    )

    def __init__(self, *args, curriculum=None, learner=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.curriculum = curriculum or structure.current()
        for name, choices in filter_choices(self.curriculum).items():
            self.fields[name].choices = choices
        if not learner:
            del self.fields["state"]

    @property
    def ignored(self):
        """The labels of the filters left out because their value is not one of the choices."""
        return [self.fields[name].label for name in self.errors] if self.is_bound else []

    def valid_data(self):
        """The values of the valid filters, without the others."""
        if not self.is_bound:
            return {}
        self.is_valid()  # Fills cleaned_data with the valid fields, leaves out the others.
        return self.cleaned_data

    def learner_state(self):
        """The LearnerState to keep, or "" for every state (and for visitors)."""
        return self.valid_data().get("state", "")

    def criteria(self):
        """Keyword arguments for Curriculum.catalogue(): the valid filters only."""
        return catalogue_criteria(self.curriculum, self.valid_data())


def catalogue_criteria(curriculum, data):
    """Keyword arguments for Curriculum.catalogue() from the filters' cleaned values."""
    part, chapter = guide_place(curriculum, data.get("guide", ""))
    return {
        "text": data.get("q", ""),
        "kind": data.get("kind", ""),
        "series": find_by_slug(curriculum.series, data.get("series", "")),
        "architecture": find_by_slug(curriculum.architectures, data.get("architecture", "")),
        "part": part,
        "chapter": chapter,
    }


def clean_filters(fields, query):
    """(cleaned values of the valid filters, names of the others) of query, as a bound form's
    cleaned_data and errors give them, from the fields of a ResourceFilterForm built once: a
    page that reads its filters on every request does not build the form each time (its fields
    keep no state when they clean a value)."""
    data, invalid = {}, []
    for name, field in fields.items():
        try:
            data[name] = field.clean(field.widget.value_from_datadict(query, None, name))
        except ValidationError:
            invalid.append(name)
    return data, invalid


# Choices depend only on the curriculum and the language: built once per process for each.
_choices: dict[tuple[object, ...], object] = {}
_choices_lock = threading.Lock()


def filter_choices(curriculum):
    """The filters' choices for this curriculum in the active language, built once."""
    key = (curriculum.token, get_language())
    choices = _choices.get(key)
    if choices is None or curriculum.token is None:
        choices = build_filter_choices(curriculum)
        with _choices_lock:
            if len(_choices) > 16:  # Old revisions: drop them rather than grow.
                _choices.clear()
            _choices[key] = choices
    return choices


def build_filter_choices(curriculum):
    guide = [("", _("The whole guide"))]
    for part in curriculum.parts:
        guide.append((str(part.number), str(part)))
        guide += [
            (f"{part.number}.{chapter.number}", f"— {chapter}") for chapter in part.chapters.all()
        ]
    return {
        "kind": [("", _("All kinds")), *Resource.Kind.choices],
        "series": [("", _("All series"))] + [(s.slug, s.name) for s in curriculum.series],
        "guide": guide,
        "architecture": [("", _("All architectures"))]
        + [(a.slug, str(a)) for a in curriculum.architectures],
    }


def find_by_slug(rows, slug):
    return next((row for row in rows if row.slug == slug), None) if slug else None


def guide_place(curriculum, value):
    """The part and chapter a guide choice ("5" or "5.3") names; None for what it does not."""
    part_number, _dot, chapter_number = value.partition(".")
    part = next((part for part in curriculum.parts if str(part.number) == part_number), None)
    if part is None or not chapter_number:
        return part, None
    chapter = next(
        (chapter for chapter in part.chapters.all() if str(chapter.number) == chapter_number),
        None,
    )
    return part, chapter
