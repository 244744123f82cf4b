from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from curriculum import structure
from curriculum.pages import guide_page
from lib.http import HtmxHttpRequest


@require_GET
def guide(request: HtmxHttpRequest) -> HttpResponse:
    page = structure.current().built(guide_page)
    context = {"page": page, "written_guide_url": settings.GUIDE_URL}
    return render(request, "curriculum/guide.jinja", context, using="jinja2")


@require_GET
def path(request: HtmxHttpRequest) -> HttpResponse:
    """The suggested path as visitors see it; progress serves it at /path/ (config/urls.py).
    It comes from this process's copy of the curriculum (structure.py): one query."""
    curriculum = structure.current()
    sessions = [resource for resource in curriculum.resources if resource.presents_architecture]
    context = {"path": curriculum.path, "architecture_sessions": sessions}
    return render(request, "curriculum/path.jinja", context)
