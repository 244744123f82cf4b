from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from curriculum.models import Path
from progress import charts, stats
from progress.balance import GOAL
from progress.forms import CohortForm, SignUpForm


@require_GET
def home(request):
    return render(request, "progress/home.html")


def safe_next_url(request):
    """The `next` URL the visitor came with, if it stays on this site; otherwise home."""
    next_url = request.POST.get("next") or request.GET.get("next", "")
    if url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return reverse("home")


@require_http_methods(["GET", "POST"])
def signup(request):
    next_url = safe_next_url(request)
    if request.user.is_authenticated:
        return redirect(next_url)
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Someone took the same username or e-mail between our check and the save.
            form.add_error(
                None, _("This username or e-mail address was just taken. Please choose another.")
            )
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request, _("Welcome to Parcours, %(username)s!") % {"username": user.get_username()}
            )
            return redirect(next_url)
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


# Stats: the learner's weeks and coding days; the curators' view of the path (progress/stats.py)


@require_GET
@login_required
def stats_page(request):
    learner = stats.learner_stats(request.user)
    context = {
        "stats": learner,
        "chart": charts.weekly_chart(learner.weeks),
        "calendar": charts.heatmap_chart(learner.heatmap),
        "legend": charts.legend_cells(),
    }
    return render(request, "progress/stats.html", context)


@require_GET
@login_required
def curator_progress(request):
    if not request.user.is_staff:
        raise PermissionDenied
    form = CohortForm(request.GET or None, months=stats.cohorts())
    learners = stats.learners(form.month())
    active = stats.active_learners(learners)
    context = {
        "form": form,
        "learner_count": active["learners"],
        "steps": stats.path_progress(Path.objects.suggested(), learners),
        "active": active,
        "median_ratio": stats.median_ratio(learners),
        "meter_max": max(active["learners"], 1),
        "goal": GOAL,
    }
    return render(request, "progress/curator_progress.html", context)
