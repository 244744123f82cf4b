"""The learner's weeks and coding days (progress/stats_page.py builds the page's view model from
progress/stats.py's one statement, templates/progress/stats.jinja prints it)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from lib.http import AuthenticatedHttpRequest
from progress.stats_page import stats_page as build_stats_page


@require_GET
@login_required
def stats_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    page = build_stats_page(request.user)
    return render(request, "progress/stats.jinja", {"page": page}, using="jinja2")
