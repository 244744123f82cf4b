from django.urls import path

from progress import practice, sittings, views

app_name = "progress"

urlpatterns = [
    # Watching: one-click state changes (progress/views.py, progress/actions.py)
    path("resources/<slug:slug>/watched/", views.mark_watched, name="mark_watched"),
    path("resources/<slug:slug>/not-watched/", views.mark_not_watched, name="mark_not_watched"),
    path("resources/<slug:slug>/sittings/", views.log_sitting, name="log_sitting"),
    path("resources/<slug:slug>/followed/", views.mark_followed, name="mark_followed"),
    path("resources/<slug:slug>/not-followed/", views.mark_not_followed, name="mark_not_followed"),
    # Sittings: correcting the minutes of one, or deleting it (progress/sittings.py)
    path("sittings/<int:pk>/edit/", sittings.sitting_edit, name="sitting_edit"),
    path("sittings/<int:pk>/delete/", sittings.sitting_delete, name="sitting_delete"),
    # Practice: the coding log and private notes (progress/practice.py)
    path("practice/", practice.practice, name="practice"),
    path("practice/<int:pk>/edit/", practice.practice_edit, name="practice_edit"),
    path("practice/<int:pk>/delete/", practice.practice_delete, name="practice_delete"),
    path("resources/<slug:slug>/practice/", practice.practice_add, name="practice_add"),
    path("resources/<slug:slug>/note/", practice.note, name="note"),
    # Stats: the learner's weeks and coding days, the curators' view of the path
    path("stats/", views.stats_page, name="stats"),
    path("curators/progress/", views.curator_progress, name="curator_progress"),
]
