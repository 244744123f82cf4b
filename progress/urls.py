from django.urls import path

from progress.views import coding, curators, notes, sittings, stats, watching
from progress.views import path as path_views

app_name = "progress"

urlpatterns = [
    # The home page and the path show the learner's state; visitors get the landing page and the
    # curriculum's path (progress/views/path.py)
    path("", path_views.home, name="home"),
    path("path/", path_views.path_page, name="path"),
    # Watching: one-click state changes (progress/views/watching.py, progress/actions.py)
    path("resources/<slug:slug>/watched/", watching.mark_watched, name="mark_watched"),
    path("resources/<slug:slug>/not-watched/", watching.mark_not_watched, name="mark_not_watched"),
    path("resources/<slug:slug>/sittings/", watching.log_sitting, name="log_sitting"),
    path("resources/<slug:slug>/followed/", watching.mark_followed, name="mark_followed"),
    path(
        "resources/<slug:slug>/not-followed/", watching.mark_not_followed, name="mark_not_followed"
    ),
    # Sittings: correcting the minutes of one, or deleting it (progress/views/sittings.py)
    path("sittings/<int:pk>/edit/", sittings.sitting_edit, name="sitting_edit"),
    path("sittings/<int:pk>/delete/", sittings.sitting_delete, name="sitting_delete"),
    # Coding sessions: the coding log, and private notes (progress/views/coding.py, notes.py)
    path("coding/", coding.coding_log, name="coding_log"),
    path("coding/<int:pk>/edit/", coding.coding_session_edit, name="coding_session_edit"),
    path("coding/<int:pk>/delete/", coding.coding_session_delete, name="coding_session_delete"),
    path("resources/<slug:slug>/coding/", coding.coding_session_add, name="coding_session_add"),
    path("resources/<slug:slug>/note/", notes.note, name="note"),
    # Stats: the learner's weeks and coding days, the curators' view of the path
    path("stats/", stats.stats_page, name="stats"),
    path("curators/progress/", curators.curator_progress, name="curator_progress"),
]
