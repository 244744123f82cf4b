from django.urls import path

from groups import sharing, views

app_name = "groups"

urlpatterns = [
    # Groups and their boards (groups/views.py)
    path("groups/", views.group_list, name="list"),
    path("groups/new/", views.group_create, name="create"),
    path("groups/join/<str:token>/", views.join_link, name="join"),
    path("groups/invitations/<int:pk>/", views.invitation, name="invitation"),
    path("groups/invitations/<int:pk>/decline/", views.decline, name="decline"),
    path("groups/<slug:slug>/", views.board, name="board"),
    path("groups/<slug:slug>/me/", views.update_membership, name="update_membership"),
    path("groups/<slug:slug>/leave/", views.leave_group, name="leave"),
    # The owner's page
    path("groups/<slug:slug>/manage/", views.manage, name="manage"),
    path("groups/<slug:slug>/links/", views.create_link, name="create_link"),
    path("groups/<slug:slug>/invite/", views.invite, name="invite"),
    path("groups/<slug:slug>/invitations/<int:pk>/revoke/", views.revoke, name="revoke"),
    path("groups/<slug:slug>/members/<int:pk>/remove/", views.remove_member, name="remove"),
    path("groups/<slug:slug>/members/<int:pk>/owner/", views.make_owner, name="make_owner"),
    path("groups/<slug:slug>/delete/", views.delete_group, name="delete"),
    # A learner's share link (groups/sharing.py)
    path("settings/share/", sharing.share_settings, name="share_settings"),
    path("settings/share/stop/", sharing.stop_sharing, name="stop_sharing"),
    path("share/<str:token>/", sharing.shared_progress, name="shared"),
]
