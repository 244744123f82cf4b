"""The today card: one tap logs 30, 60 or 90 minutes of code on the resource being practised."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from curriculum.models import Resource
from lib.durations import duration
from lib.http import AuthenticatedHttpRequest
from progress import actions
from progress.dashboard import dashboard_page
from progress.forms import QuickCodingForm

# Without JavaScript the learner lands back on the card.
CARD = "#today"


@login_required
@require_POST
def log_code_today(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    resource = get_object_or_404(Resource, slug=slug)
    form = QuickCodingForm(request.POST)
    if form.is_valid():
        _session, created = actions.log_code_today(
            user=request.user,
            resource=resource,
            minutes=form.cleaned_data["minutes"],
            key=form.cleaned_data["idempotency_key"],
            built=_("Coded “%(title)s” (logged from the today card)") % {"title": resource.title},
        )
        status = saved_status(created, form.cleaned_data["minutes"], resource)
    else:
        status = " ".join(str(error) for errors in form.errors.values() for error in errors)
    if not request.htmx:
        (messages.success if form.is_valid() else messages.error)(request, status)
        return redirect(reverse("progress:home") + CARD)
    page = dashboard_page(request.user)
    context = {
        "update": "today",
        "page": page,
        "announcement": status,
        "error": not form.is_valid(),
        "tiles": page.tiles_of(resource.pk),
        # The steps' forms swapped in come back to the page the card is on, not to this POST.
        "back": request.htmx.current_url_abs_path or reverse("progress:home"),
    }
    return render(
        request,
        "progress/dashboard_update.jinja",
        context,
        status=200 if form.is_valid() else 422,
        using="jinja2",
    )


def saved_status(created: bool, minutes: int, resource: Resource) -> str:
    if not created:
        return _("These minutes were already logged.")
    return _("%(minutes)s of code logged on “%(title)s”.") % {
        "minutes": duration(minutes),
        "title": resource.title,
    }
