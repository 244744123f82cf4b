"""The catalogue, /resources/ and its searches: every resource of the curriculum with the signed-in
learner's state on each (progress/catalogue.py builds the page, templates/progress/catalogue.jinja
prints it)."""

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from curriculum import structure
from lib.http import HtmxHttpRequest
from progress.catalogue import catalogue_page, learner_watches
from progress.models import Watch


@require_GET
def catalogue(request: HtmxHttpRequest) -> HttpResponse:
    context: dict[str, Any] = {}
    curriculum = structure.current()
    watches = learner_watches(request.user) if request.user.is_authenticated else None
    changed = request.GET.get("changed")
    if request.htmx and watches is not None and changed is not None:
        return _counts_after_a_change(request, curriculum, watches, changed)
    swapping = bool(request.htmx) and not request.htmx.history_restore_request
    context["page"] = catalogue_page(
        curriculum,
        request.GET,
        watches=watches,
        page_url=request.get_full_path(),
        swapping=swapping,
    )
    template = "progress/catalogue_results.jinja" if swapping else "progress/catalogue.jinja"
    return render(request, template, context, using="jinja2")


def _counts_after_a_change(
    request: HtmxHttpRequest,
    curriculum: structure.Curriculum,
    watches: dict[int, Watch],
    slug: str,
) -> HttpResponse:
    """The page's refresh after a change to a resource's watching (the event watch-changed,
    static/js/blocks_follow.js): its series' counts ("3 resources, 1 done") under the page's
    filters, out of band; the card's controls came with the click's own answer, and the card
    stays whatever the state filter says."""
    resource = curriculum.by_slug.get(slug)
    page = catalogue_page(
        curriculum,
        request.GET,
        watches=watches,
        page_url=request.path,
        swapping=False,
        clicked=resource.pk if resource is not None else None,
    )
    series_id = resource.series_id if resource is not None else 0
    groups = [group for group in page.groups if group.heading.series_id == series_id]
    context = {"groups": groups}
    return render(request, "progress/catalogue_refresh.jinja", context, using="jinja2")
