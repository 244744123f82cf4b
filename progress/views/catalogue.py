"""The catalogue, /resources/ and its searches: every resource of the curriculum with the signed-in
learner's state on each (progress/catalogue.py builds the page, templates/progress/catalogue.jinja
prints it)."""

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from curriculum import structure
from lib.http import HtmxHttpRequest
from progress.catalogue import catalogue_page
from progress.models import Watch


@require_GET
def catalogue(request: HtmxHttpRequest) -> HttpResponse:
    watches: dict[int, Watch] | None = None
    if request.user.is_authenticated:
        watches = {watch.resource_id: watch for watch in Watch.objects.for_learner(request.user)}
    swapping = bool(request.htmx) and not request.htmx.history_restore_request
    page = catalogue_page(
        structure.current(),
        request.GET,
        watches=watches,
        page_url=request.get_full_path(),
        swapping=swapping,
    )
    template = "progress/catalogue_results.jinja" if swapping else "progress/catalogue.jinja"
    return render(request, template, {"page": page}, using="jinja2")
