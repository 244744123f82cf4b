from django import forms
from django.utils.translation import gettext_lazy as _

from curriculum.models import Architecture, Part, Resource, Series


class ResourceFilterForm(forms.Form):
    """The catalogue's filters; every one optional, read from GET so results can be shared."""

    q = forms.CharField(label=_("Search"), required=False, max_length=100)
    kind = forms.ChoiceField(
        label=_("Kind"), required=False, choices=[("", _("All kinds")), *Resource.Kind.choices]
    )
    series = forms.ModelChoiceField(
        label=_("Series"),
        required=False,
        queryset=Series.objects.all(),
        to_field_name="slug",
        empty_label=_("All series"),
    )
    guide = forms.ChoiceField(label=_("Part or chapter of the guide"), required=False)
    architecture = forms.ModelChoiceField(
        label=_("GPU architecture"),
        required=False,
        queryset=Architecture.objects.all(),
        to_field_name="slug",
        empty_label=_("All architectures"),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.parts = list(Part.objects.prefetch_related("chapters"))
        choices = [("", _("The whole guide"))]
        for part in self.parts:
            choices.append((str(part.number), str(part)))
            choices += [
                (f"{part.number}.{chapter.number}", f"— {chapter}")
                for chapter in part.chapters.all()
            ]
        self.fields["guide"].choices = choices

    def criteria(self):
        """Keyword arguments for Resource.objects.catalogue(); invalid filters are ignored."""
        data = self.cleaned_data if self.is_valid() else {}
        part, chapter = self.guide_place(data.get("guide", ""))
        return {
            "text": data.get("q", ""),
            "kind": data.get("kind", ""),
            "series": data.get("series"),
            "architecture": data.get("architecture"),
            "part": part,
            "chapter": chapter,
        }

    def guide_place(self, value):
        part_number, _dot, chapter_number = value.partition(".")
        part = next((part for part in self.parts if str(part.number) == part_number), None)
        if part is None or not chapter_number:
            return part, None
        chapter = next(
            (chapter for chapter in part.chapters.all() if str(chapter.number) == chapter_number),
            None,
        )
        return part, chapter
