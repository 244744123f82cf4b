from django.contrib import admin

from groups.models import Invitation, Membership, ShareLink, StudyGroup


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]
    fields = ["user", "display_name", "role", "shares", "joined_at"]


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 0
    raw_id_fields = ["invitee"]
    fields = ["invitee", "max_uses", "uses", "created_at", "expires_at", "revoked_at"]
    readonly_fields = ["created_at", "uses"]

    def has_add_permission(self, request, obj=None):
        # A link's token is shown once, to the owner who makes it on the group's page.
        return False


@admin.register(StudyGroup)
class StudyGroupAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug", "memberships__user__username"]
    readonly_fields = ["created_at"]
    inlines = [MembershipInline, InvitationInline]


@admin.register(ShareLink)
class ShareLinkAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "created_at"]
    search_fields = ["display_name", "user__username"]
    raw_id_fields = ["user"]
    readonly_fields = ["created_at"]
