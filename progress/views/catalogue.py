"""The catalogue, /resources/ and its searches: every resource of the curriculum with the signed-in
learner's state on each (progress/catalogue.py builds the page, templates/progress/catalogue.jinja
prints it)."""

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from curriculum import structure
from lib.http import HtmxHttpRequest
from progress.catalogue import catalogue_page, learner_rows


@require_GET
def catalogue(request: HtmxHttpRequest) -> HttpResponse:
    context: dict[str, Any] = {}
    if request.user.is_authenticated:
        rows = learner_rows(request.user)
        curriculum = structure.at_revision(rows.token)
        watches = rows.watches
    else:
        curriculum = structure.current()
        watches = None
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
