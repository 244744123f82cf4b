"""The catalogue, /resources/ and its searches: every resource of the curriculum with the signed-in
learner's state on each (progress/catalogue.py builds the page, templates/progress/catalogue.jinja
prints it)."""

from typing import Any

from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.views.decorators.http import require_GET

from config.jinja import csrf_input
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
        # The cards' forms and the page's carry the same token (config/jinja.py reads it here).
        context["csrf_token"] = token = get_token(request)
        field = str(csrf_input(token))
    else:
        curriculum = structure.current()
        watches = None
        field = ""
    swapping = bool(request.htmx) and not request.htmx.history_restore_request
    context["page"] = catalogue_page(
        curriculum,
        request.GET,
        watches=watches,
        csrf_input=field,
        page_url=request.get_full_path(),
        swapping=swapping,
    )
    template = "progress/catalogue_results.jinja" if swapping else "progress/catalogue.jinja"
    return render(request, template, context, using="jinja2")
