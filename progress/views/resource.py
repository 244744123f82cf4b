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
from progress.resource_learner import LearnerRows, learner_rows
from progress.resource_page import ResourcePage, refresh, resource_page


@require_GET
def resource_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    if not request.user.is_authenticated:
        curriculum, rows = structure.current(), None
        resource = _found(curriculum, slug)
    elif request.htmx and request.GET.get("changed") == slug:
        return _blocks_after_a_change(request, _found(structure.current(), slug))
    else:
        curriculum, resource, rows = _learners_resource(request.user.pk, slug)
    page = resource_page(
        curriculum, resource, rows, back=request.get_full_path(), asked=request.GET.get("t", "")
    )
    if page.player is not None:
        return _page_with_video(request, page)
    return render(request, "progress/resource.jinja", {"page": page}, using="jinja2")


def _found(curriculum: structure.Curriculum, slug: str) -> Resource:
    resource = curriculum.by_slug.get(slug)
    if resource is None:
        raise Http404("No resource has this address.")
    return resource


def _learners_resource(
    user_id: int, slug: str
) -> tuple[structure.Curriculum, Resource, LearnerRows]:
    """The resource of the curriculum this process holds and the learner's rows, whose statement
    reads the revision token too: one round trip, and the rows again only on the first request
    after a curator's edit, from the curriculum of the new token."""
    today = timezone.localdate()
    curriculum = structure.held()
    resource = curriculum.by_slug.get(slug) if curriculum is not None else None
    if curriculum is not None and resource is not None:
        rows = learner_rows(user_id, resource, today)
        if rows.token == curriculum.token:
            return curriculum, resource, rows
        curriculum = structure.at_revision(rows.token)
    else:
        curriculum = structure.current()
    resource = _found(curriculum, slug)
    return curriculum, resource, learner_rows(user_id, resource, today)


@csp_override(settings.SECURE_CSP_VIDEO_PAGE)
def _page_with_video(request: HtmxHttpRequest, page: ResourcePage) -> HttpResponse:
    """The policy lets YouTube's player in on the pages that have one, and nowhere else."""
    return render(request, "progress/resource.jinja", {"page": page}, using="jinja2")


def _blocks_after_a_change(request: HtmxHttpRequest, resource: Resource) -> HttpResponse:
    """The page's refresh after a change to its resource's watching or coding (the events
    watch-changed and coding-changed, static/js/blocks_follow.js): the controls, coded state,
    balance and sittings, read again in one statement; the script keeps the block the click's
    answer brought, and any the learner is typing in."""
    learner = cast(AuthenticatedHttpRequest, request)
    rows = learner_rows(learner.user.pk, resource, timezone.localdate())
    context = {"blocks": refresh(resource, rows, back=request.path)}
    return render(request, "progress/resource_refresh.jinja", context, using="jinja2")
