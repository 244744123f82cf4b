from django.urls import path

from progress import views

app_name = "progress"

urlpatterns = [
    path("resources/<slug:slug>/watched/", views.mark_watched, name="mark_watched"),
    path("resources/<slug:slug>/not-watched/", views.mark_not_watched, name="mark_not_watched"),
    path("resources/<slug:slug>/sittings/", views.log_sitting, name="log_sitting"),
    path("resources/<slug:slug>/followed/", views.mark_followed, name="mark_followed"),
    path("resources/<slug:slug>/not-followed/", views.mark_not_followed, name="mark_not_followed"),
]
