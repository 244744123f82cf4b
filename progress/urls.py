from django.urls import path

from progress.views import (
    catalogue,
    coding,
    history,
    notes,
    resource,
    sittings,
    stats,
    today,
    viewing,
    watching,
)
from progress.views import path as path_views

app_name = "progress"

urlpatterns = [
    # The home page and the path show the learner's state; visitors get the landing page and the
    # curriculum's path (progress/views/path.py)
    path("", path_views.home, name="home"),
    path("path/", path_views.path_page, name="path"),
    # The catalogue with the learner's state on each resource (progress/views/catalogue.py)
    path("resources/", catalogue.catalogue, name="catalogue"),
    # A resource's page with the learner's blocks beside it (progress/views/resource.py)
    path("resources/<slug:slug>/", resource.resource_detail, name="resource_detail"),
    # Watching: one-click state changes (progress/views/watching.py, progress/actions.py)
    path("resources/<slug:slug>/watched/", watching.mark_watched, name="mark_watched"),
    path("resources/<slug:slug>/not-watched/", watching.mark_not_watched, name="mark_not_watched"),
    path("resources/<slug:slug>/sittings/", watching.log_sitting, name="log_sitting"),
    path("resources/<slug:slug>/followed/", watching.mark_followed, name="mark_followed"),
    path(
        "resources/<slug:slug>/not-followed/", watching.mark_not_followed, name="mark_not_followed"
    ),
    path("resources/<slug:slug>/skipped/", watching.skip, name="skip"),
    path("resources/<slug:slug>/not-skipped/", watching.unskip, name="unskip"),
    # Viewing: the player's beats while a video plays on its page (progress/views/viewing.py)
    path("resources/<slug:slug>/viewing/", viewing.record_viewing, name="record_viewing"),
    # The today card's one tap: minutes of code on the resource being practised (views/today.py)
    path("resources/<slug:slug>/coded-today/", today.log_code_today, name="log_code_today"),
    # Sittings: correcting the minutes of one, or deleting it (progress/views/sittings.py)
    path("sittings/<int:pk>/edit/", sittings.sitting_edit, name="sitting_edit"),
    path("sittings/<int:pk>/delete/", sittings.sitting_delete, name="sitting_delete"),
    # Coding sessions: the coding log, and private notes (progress/views/coding.py, notes.py)
    path("coding/", coding.coding_log, name="coding_log"),
    path("coding/<int:pk>/edit/", coding.coding_session_edit, name="coding_session_edit"),
    path("coding/<int:pk>/delete/", coding.coding_session_delete, name="coding_session_delete"),
    path("coding/projects/<int:pk>/", coding.editor_project, name="editor_project"),
    path("resources/<slug:slug>/coding/", coding.coding_session_add, name="coding_session_add"),
    path("resources/<slug:slug>/note/", notes.note, name="note"),
    # Stats: the learner's weeks and coding days
    path("stats/", stats.stats_page, name="stats"),
    # History: what the learner watched and coded, by day, and the videos to continue
    path("history/", history.history, name="history"),
]
