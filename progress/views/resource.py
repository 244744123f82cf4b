"""A resource's page, /resources/<slug>/: what there is to know about it and, for the signed-in
learner, their watching, sittings, balance, coding and note (progress/resource_page.py builds it,
templates/progress/resource.jinja prints it), and the htmx answers that change those blocks."""

from typing import cast

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET

from curriculum import structure
from curriculum.models import Resource
from lib.http import AuthenticatedHttpRequest, HtmxHttpRequest
from practice.pages import resource_exercises
from progress.resource_learner import learner_rows
from progress.resource_page import refresh, resource_page


@require_GET
def resource_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    curriculum = structure.current()
    resource = curriculum.by_slug.get(slug)
    if resource is None:
        raise Http404("No resource has this address.")
    if not request.user.is_authenticated:
        rows = None
    elif request.htmx and request.GET.get("changed") == slug:
        return _blocks_after_a_change(request, resource)
    else:
        rows = learner_rows(request.user, resource, timezone.localdate())
    page = resource_page(
        curriculum, resource, rows, back=request.get_full_path(), asked=request.GET.get("t", "")
    )
    context = {"page": page, "practice_exercises": resource_exercises(request.user, resource.pk)}
    if page.player is not None:
        return _page_with_video(request, context)
    return render(request, "progress/resource.jinja", context, using="jinja2")


@csp_override(settings.SECURE_CSP_VIDEO_PAGE)
def _page_with_video(request: HtmxHttpRequest, context: dict) -> HttpResponse:
    """The policy lets YouTube's player in on the pages that have one, and nowhere else."""
    return render(request, "progress/resource.jinja", context, using="jinja2")


def _blocks_after_a_change(request: HtmxHttpRequest, resource: Resource) -> HttpResponse:
    """The page's refresh after a change to its resource's watching or coding (the events
    watch-changed and coding-changed, static/js/blocks_follow.js): the controls, coded state,
    balance and sittings, read again; the script keeps the block the click's
    answer brought, and any the learner is typing in."""
    learner = cast(AuthenticatedHttpRequest, request)
    rows = learner_rows(learner.user, resource, timezone.localdate())
    context = {"blocks": refresh(resource, rows, back=request.path)}
    return render(request, "progress/resource_refresh.jinja", context, using="jinja2")
