from django.urls import path

from reminders import views

app_name = "reminders"

urlpatterns = [
    path("calendar/<str:token>.ics", views.feed, name="feed"),
    path("settings/calendar/", views.issue_feed, name="issue_feed"),
    path("settings/calendar/revoke/", views.revoke_feed, name="revoke_feed"),
    path("settings/calendar/code-time/", views.code_time, name="code_time"),
    path("settings/digest/", views.digest_settings, name="digest_settings"),
    path("settings/nudge/", views.nudge_settings, name="nudge_settings"),
    path("digest/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("nudge/unsubscribe/<str:token>/", views.nudge_unsubscribe, name="nudge_unsubscribe"),
]
