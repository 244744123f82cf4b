from django.urls import include, path

from editor import key_page, views

app_name = "editor"

# WakaTime's clients append these paths to api_url (wakatime-cli: pkg/api/heartbeat.go and
# statusbar.go); `wakatime` 13.x posts to api_url itself, so it is given the bulk URL.
wakatime_patterns = [
    path("users/current/heartbeats.bulk", views.heartbeats_bulk, name="heartbeats_bulk"),
    path("users/current/heartbeats", views.heartbeat, name="heartbeat"),
    path("users/current/statusbar/today", views.status_bar_today, name="status_bar_today"),
]

urlpatterns = [
    path("settings/editor/", key_page.editor_key, name="key"),
    path("settings/editor/revoke/", key_page.revoke_editor_key, name="revoke"),
    # JSON for the editor's plugins, authenticated by the key in a header (editor/auth.py).
    path("editor/v1/", include((wakatime_patterns, "wakatime"))),
]
