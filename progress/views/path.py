"""The suggested path as a page: the home page and /path/ of a signed-in learner (progress/dashboard.py
builds it, templates/progress/dashboard.jinja prints it); visitors get the landing page and the
curriculum's path."""

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from curriculum import views as curriculum_views
from lib.http import HtmxHttpRequest
from progress.dashboard import dashboard_page


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The landing page for visitors; a signed-in learner's path, as /path/ shows it."""
    if not request.user.is_authenticated:
        return render(request, "progress/home.html")
    return _learners_path(request)


@require_GET
def path_page(request: HtmxHttpRequest) -> HttpResponse:
    """The suggested path: the learner's own when signed in, the curriculum's otherwise."""
    if not request.user.is_authenticated:
        return curriculum_views.path(request)
    return _learners_path(request)


def _learners_path(request: HtmxHttpRequest) -> HttpResponse:
    page = dashboard_page(request.user)
    return render(request, "progress/dashboard.jinja", {"page": page}, using="jinja2")
