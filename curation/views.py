"""The curators' view of the path: how many learners reach each step, by cohort or study group."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from curation import stats
from curation.forms import CohortForm
from curriculum.models import Path
from groups.models import StudyGroup
from lib.http import AuthenticatedHttpRequest
from progress.balance import GOAL


@require_GET
@login_required
def curator_progress(request: AuthenticatedHttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise PermissionDenied
    form = CohortForm(request.GET or None, months=stats.cohorts(), groups=StudyGroup.objects.all())
    learners = stats.learners(form.month())
    if group := form.chosen_group():
        learners = group.members_among(learners)
    active = stats.active_learners(learners)
    context = {
        "form": form,
        "learner_count": active["learners"],
        "steps": stats.step_counts(Path.objects.suggested(), learners),
        "active": active,
        "median_ratio": stats.median_ratio(learners),
        "meter_max": max(active["learners"], 1),
        "goal": GOAL,
    }
    return render(request, "curation/curator_progress.jinja", context)
