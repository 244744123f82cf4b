"""The curriculum text learners read, in French (the guide's language) and in English.

django-modeltranslation adds a `<field>_fr` and a `<field>_en` column to each field named here;
reading `resource.summary` gives the active language's text, or the French when the English is
empty. Names of people, series and talks given in their own language are not translated: their
English stays empty and falls back.
"""

from modeltranslation.translator import TranslationOptions, register

from curriculum.models import Chapter, Part, Path, Resource, Series, Stage, Step


class CurriculumText(TranslationOptions):
    # French is required wherever the field itself is; English is always optional.
    required_languages = ("fr",)


@register(Part)
class PartText(CurriculumText):
    fields = ("title",)


@register(Chapter)
class ChapterText(CurriculumText):
    fields = ("title",)


@register(Series)
class SeriesText(CurriculumText):
    fields = ("name", "description")


@register(Resource)
class ResourceText(CurriculumText):
    fields = ("title", "summary", "start_here_reason", "topic")


@register(Path)
class PathText(CurriculumText):
    fields = ("title", "introduction", "rule")


@register(Stage)
class StageText(CurriculumText):
    fields = ("title",)


@register(Step)
class StepText(CurriculumText):
    fields = ("title", "note")
