from django.contrib import admin

from reminders.models import Digest, Nudge


@admin.register(Digest)
class DigestAdmin(admin.ModelAdmin):
    list_display = ["user", "week", "sent_at", "attempts"]
    list_filter = ["week"]
    search_fields = ["user__username"]
    readonly_fields = ["user", "week", "created_at", "sent_at", "attempts", "last_error"]


@admin.register(Nudge)
class NudgeAdmin(admin.ModelAdmin):
    list_display = ["user", "day", "status", "sent_at", "attempts"]
    list_filter = ["status", "day"]
    search_fields = ["user__username"]
    readonly_fields = ["user", "day", "status", "created_at", "sent_at", "attempts", "last_error"]
