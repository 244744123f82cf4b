"""The learner's weeks and coding days (progress/stats.py counts them, progress/pages.py lays
them out for templates/progress/stats.jinja)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from lib.http import AuthenticatedHttpRequest
from progress import pages, stats


@require_GET
@login_required
def stats_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    page = pages.stats_page(stats.learner_stats(request.user))
    return render(request, "progress/stats.jinja", {"page": page}, using="jinja2")
