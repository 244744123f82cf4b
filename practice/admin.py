from django.contrib import admin
from modeltranslation.admin import TranslationAdmin

from practice.models import Exercise, Submission


@admin.register(Exercise)
class ExerciseAdmin(TranslationAdmin):
    list_display = ["title", "slug", "resource", "order", "is_active"]
    list_editable = ["order", "is_active"]
    list_filter = ["is_active", "resource__series"]
    search_fields = ["slug", "title_fr", "title_en", "resource__title", "resource__slug"]
    autocomplete_fields = ["resource"]
    list_select_related = ["resource"]
    readonly_fields = ["folder", "fingerprint"]


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    """What learners sent and what the worker said: read only, a verdict is the checker's."""

    list_display = ["exercise", "learner", "verdict", "source", "created", "seconds"]
    list_filter = ["verdict", "source", "exercise"]
    search_fields = ["learner__username", "exercise__slug"]
    list_select_related = ["exercise", "learner"]
    date_hierarchy = "created"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
