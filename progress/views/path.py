"""The suggested path as a page: the home page and /path/ of a signed-in learner (progress/dashboard.py
builds it, templates/progress/dashboard.jinja prints it); visitors get the landing page and the
curriculum's path."""

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from curriculum import structure
from curriculum import views as curriculum_views
from lib.http import HtmxHttpRequest
from progress.dashboard import DashboardPage, dashboard_page


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The landing page for visitors; a signed-in learner's path, as /path/ shows it."""
    if not request.user.is_authenticated:
        return render(request, "progress/home.jinja")
    return _learners_path(request)


@require_GET
def path_page(request: HtmxHttpRequest) -> HttpResponse:
    """The suggested path: the learner's own when signed in, the curriculum's otherwise."""
    if not request.user.is_authenticated:
        return curriculum_views.path(request)
    return _learners_path(request)


def _learners_path(request: HtmxHttpRequest) -> HttpResponse:
    page = dashboard_page(request.user)
    changed = request.GET.get("changed")
    if changed is not None and request.htmx:
        return _blocks_after_a_change(request, page, changed)
    return render(request, "progress/dashboard.jinja", {"page": page}, using="jinja2")


def _blocks_after_a_change(
    request: HtmxHttpRequest, page: DashboardPage, slug: str
) -> HttpResponse:
    """The page's refresh after a change to a resource's watching or coding (the events
    watch-changed and coding-changed, static/js/blocks_follow.js): the blocks that follow it, out
    of band; the script keeps the block the click's answer brought. dashboard_page just read the
    curriculum at the current revision."""
    curriculum = structure.held()
    resource = curriculum.by_slug.get(slug) if curriculum is not None else None
    resource_id = resource.pk if resource is not None else 0
    context = {
        "page": page,
        "back": request.path,
        "tiles": page.tiles_of(resource_id),
        "stages": page.stages_of(resource_id),
    }
    return render(request, "progress/dashboard_refresh.jinja", context, using="jinja2")
