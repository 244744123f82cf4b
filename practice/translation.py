"""An exercise's title and statement in French and in English, as the curriculum's text is
(curriculum/translation.py): `exercise.title` reads the active language, or the French."""

from modeltranslation.translator import TranslationOptions, register

from practice.models import Exercise


@register(Exercise)
class ExerciseText(TranslationOptions):
    fields = ("title", "statement")
    required_languages = ("fr",)
