from django.urls import path

from reminders import views

app_name = "reminders"

urlpatterns = [
    path("calendar/<str:token>.ics", views.feed, name="feed"),
    path("settings/calendar/", views.issue_feed, name="issue_feed"),
    path("settings/calendar/revoke/", views.revoke_feed, name="revoke_feed"),
    path("settings/digest/", views.digest_settings, name="digest_settings"),
    path("digest/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
