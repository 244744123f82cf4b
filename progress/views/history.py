"""The learner's history, /history/: what they watched and coded, newest first, by their day, and
the videos to continue (progress/timeline.py builds it, templates/progress/history.jinja prints
it)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from lib.http import AuthenticatedHttpRequest
from progress.timeline import history_page


@require_GET
@login_required
def history(request: AuthenticatedHttpRequest) -> HttpResponse:
    page = history_page(request.user, request.GET.get("page"))
    return render(request, "progress/history.jinja", {"page": page}, using="jinja2")
