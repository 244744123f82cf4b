import re

from django.contrib import admin
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

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


class ChapterInline(admin.TabularInline):
    model = Chapter
    extra = 0


@admin.register(Part)
class PartAdmin(admin.ModelAdmin):
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
class ChapterAdmin(admin.ModelAdmin):
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
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "order"]
    list_editable = ["order"]
    search_fields = ["name", "description"]
    list_filter = ["order"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Architecture)
class ArchitectureAdmin(admin.ModelAdmin):
    list_display = ["name", "vendor", "slug", "order"]
    list_editable = ["order"]
    list_filter = ["vendor"]
    search_fields = ["name", "vendor"]
    prepopulated_fields = {"slug": ["vendor", "name"]}


@admin.register(GpuCard)
class GpuCardAdmin(admin.ModelAdmin):
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
class ResourceAdmin(admin.ModelAdmin):
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
                    "search_terms",
                    "notes_url",
                    "code_url",
                    "slides_url",
                    "other_url",
                ]
            },
        ),
        (
            "Content",
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
class PairingAdmin(admin.ModelAdmin):
    list_display = ["resource", "timing", "part", "chapter"]
    list_filter = ["timing", "part", "chapter"]
    search_fields = ["resource__title"]
    list_select_related = ["resource__series", "part", "chapter__part"]
    autocomplete_fields = ["resource", "part", "chapter"]


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0
    show_change_link = True


@admin.register(Path)
class PathAdmin(admin.ModelAdmin):
    list_display = ["title", "slug", "order"]
    search_fields = ["title"]
    list_filter = ["order"]
    prepopulated_fields = {"slug": ["title"]}
    inlines = [StageInline]


class StepInline(admin.TabularInline):
    model = Step
    extra = 0
    autocomplete_fields = ["resource"]
    fields = ["order", "kind", "resource", "title", "note"]


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ["title", "path", "order", "first_week", "last_week"]
    list_editable = ["order"]
    list_filter = ["path"]
    search_fields = ["title"]
    list_select_related = ["path"]
    autocomplete_fields = ["path"]
    inlines = [StepInline]


@admin.register(Step)
class StepAdmin(admin.ModelAdmin):
    list_display = ["__str__", "stage", "order", "kind", "note"]
    list_editable = ["order"]
    list_filter = ["kind", "stage"]
    search_fields = ["title", "note", "resource__title"]
    list_select_related = ["stage", "resource__series"]
    autocomplete_fields = ["stage", "resource"]
