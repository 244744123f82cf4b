"""The suggested path as a page: the home page and /path/ of a signed-in learner (progress/path.py
computes it); visitors get the landing page and the curriculum's path."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from curriculum import views as curriculum_views
from progress.path import path_progress


@require_GET
def home(request):
    """The landing page for visitors; a signed-in learner's path, as /path/ shows it."""
    if not request.user.is_authenticated:
        return render(request, "progress/home.html")
    return _learners_path(request)


@require_GET
def path_page(request):
    """The suggested path: the learner's own when signed in, the curriculum's otherwise."""
    if not request.user.is_authenticated:
        return curriculum_views.path(request)
    return _learners_path(request)


def _learners_path(request):
    return render(request, "progress/dashboard.html", {"progress": path_progress(request.user)})
