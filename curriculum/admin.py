import re

from django.contrib import admin
from django.contrib.admin.utils import NestedObjects, model_ngettext
from django.db import router
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from modeltranslation.admin import TranslationAdmin, TranslationTabularInline

from curriculum.models import (
    Architecture,
    Chapter,
    GpuCard,
    Pairing,
    Part,
    Path,
    Resource,
    Series,
    Stage,
    Step,
)


def numbers_in(search_term):
    """The whole numbers a curator typed ("Partie 2, chapitre 5", "2.5"), at most two."""
    return [int(number) for number in re.findall(r"\d{1,4}", search_term)][:2]


def protected_rows_summary(objs):
    """What keeps objs from being deleted, as counts per kind of row and of learners.

    Django lists each protected row by name ("Note: ada on How GPU Computing Works"); curators
    are promised that no learner is named, so they read "3 coding sessions by 2 learners".
    """
    collector = NestedObjects(using=router.db_for_write(objs[0]._meta.model), origin=objs)
    collector.collect(objs)
    rows_by_model = {}
    for row in collector.protected:
        rows_by_model.setdefault(type(row), []).append(row)
    return [summary_of(model, rows) for model, rows in rows_by_model.items()]


def summary_of(model, rows):
    kind = model_ngettext(model._meta, len(rows))
    learners = {row.user_id for row in rows if getattr(row, "user_id", None) is not None}
    if not learners:
        return f"{len(rows)} {kind}"
    return ngettext(
        "%(count)d %(kind)s by %(learners)d learner",
        "%(count)d %(kind)s by %(learners)d learners",
        len(learners),
    ) % {"count": len(rows), "kind": kind, "learners": len(learners)}


class NamesNoLearner(admin.ModelAdmin):
    """A curriculum admin whose delete pages summarise learners' protecting rows as counts."""

    def get_deleted_objects(self, objs, request):
        to_delete, model_count, perms_needed, protected = super().get_deleted_objects(objs, request)
        if protected:
            protected = protected_rows_summary(objs)
        return to_delete, model_count, perms_needed, protected


class TranslatedAdmin(NamesNoLearner, TranslationAdmin):
    """A curriculum admin whose text fields are edited in French (required where the field is)
    and in English (optional: pages show the French where it is empty)."""


class ChapterInline(TranslationTabularInline):
    model = Chapter
    extra = 0


@admin.register(Part)
class PartAdmin(TranslatedAdmin):
    list_display = ["number", "title"]
    search_fields = ["title"]
    inlines = [ChapterInline]

    def get_search_results(self, request, queryset, search_term):
        """Parts are named by number until a curator titles them: "2" or "Partie 2" finds part 2."""
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        numbers = numbers_in(search_term)
        if numbers:
            results |= queryset.filter(number=numbers[0])
        return results, may_have_duplicates


@admin.register(Chapter)
class ChapterAdmin(TranslatedAdmin):
    list_display = ["__str__", "part", "number", "title"]
    list_filter = ["part"]
    search_fields = ["title", "part__title"]
    list_select_related = ["part"]
    autocomplete_fields = ["part"]

    def get_search_results(self, request, queryset, search_term):
        """Chapters are shown as "Partie 2, chapitre 5": typing those numbers (or "2.5") finds it."""
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        numbers = numbers_in(search_term)
        if len(numbers) == 2:
            results |= queryset.filter(part__number=numbers[0], number=numbers[1])
        elif numbers:
            results |= queryset.filter(Q(part__number=numbers[0]) | Q(number=numbers[0]))
        return results, may_have_duplicates


@admin.register(Series)
class SeriesAdmin(TranslatedAdmin):
    list_display = ["name", "slug", "order"]
    list_editable = ["order"]
    search_fields = ["name", "description"]
    list_filter = ["order"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Architecture)
class ArchitectureAdmin(NamesNoLearner):
    list_display = ["name", "vendor", "slug", "order"]
    list_editable = ["order"]
    list_filter = ["vendor"]
    search_fields = ["name", "vendor"]
    prepopulated_fields = {"slug": ["vendor", "name"]}


@admin.register(GpuCard)
class GpuCardAdmin(NamesNoLearner):
    list_display = ["name", "maker", "architecture", "order"]
    list_editable = ["order"]
    list_filter = ["maker", "architecture"]
    search_fields = ["name", "maker"]
    list_select_related = ["architecture"]
    prepopulated_fields = {"slug": ["name"]}


class PairingInline(admin.TabularInline):
    model = Pairing
    extra = 0
    autocomplete_fields = ["part", "chapter"]


@admin.register(Resource)
class ResourceAdmin(TranslatedAdmin):
    list_display = [
        "title",
        "kind",
        "series",
        "number",
        "speaker",
        "duration_minutes",
        "is_start_here",
    ]
    list_filter = [
        "kind",
        "series",
        "architectures",
        "is_advanced",
        "presents_architecture",
        "topic",
    ]
    search_fields = ["title", "speaker", "keywords", "summary", "slug"]
    list_select_related = ["series"]
    prepopulated_fields = {"slug": ["title"]}
    autocomplete_fields = ["series", "architectures"]
    readonly_fields = ["video_id"]
    inlines = [PairingInline]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "kind",
                    "title",
                    "slug",
                    "series",
                    "number",
                    "speaker",
                    "duration_minutes",
                ]
            },
        ),
        (
            _("Links"),
            {
                "fields": [
                    "watch_url",
                    "video_id",
                    "search_terms",
                    "notes_url",
                    "code_url",
                    "slides_url",
                    "other_url",
                ]
            },
        ),
        (
            _("Content"),
            {
                "fields": [
                    "summary",
                    "keywords",
                    "architectures",
                    "presents_architecture",
                    "is_advanced",
                    "topic",
                ]
            },
        ),
        (_("Start here"), {"fields": ["is_start_here", "start_here_reason"]}),
    ]


@admin.register(Pairing)
class PairingAdmin(NamesNoLearner):
    list_display = ["resource", "timing", "part", "chapter"]
    list_filter = ["timing", "part", "chapter"]
    search_fields = ["resource__title"]
    list_select_related = ["resource__series", "part", "chapter__part"]
    autocomplete_fields = ["resource", "part", "chapter"]


class StageInline(TranslationTabularInline):
    model = Stage
    extra = 0
    show_change_link = True


@admin.register(Path)
class PathAdmin(TranslatedAdmin):
    list_display = ["title", "slug", "order"]
    search_fields = ["title"]
    list_filter = ["order"]
    prepopulated_fields = {"slug": ["title"]}
    inlines = [StageInline]


class StepInline(TranslationTabularInline):
    model = Step
    extra = 0
    autocomplete_fields = ["resource"]
    fields = ["order", "kind", "resource", "title", "note"]


@admin.register(Stage)
class StageAdmin(TranslatedAdmin):
    list_display = ["title", "path", "order", "first_week", "last_week"]
    list_editable = ["order"]
    list_filter = ["path"]
    search_fields = ["title"]
    list_select_related = ["path"]
    autocomplete_fields = ["path"]
    inlines = [StepInline]


@admin.register(Step)
class StepAdmin(TranslatedAdmin):
    list_display = ["__str__", "stage", "order", "kind", "note"]
    list_editable = ["order"]
    list_filter = ["kind", "stage"]
    search_fields = ["title", "note", "resource__title"]
    list_select_related = ["stage", "resource__series"]
    autocomplete_fields = ["stage", "resource"]
