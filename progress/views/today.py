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
from progress.views.events import coding_changed

# Without JavaScript the learner lands back on the card.
CARD = "#today"


@login_required
@require_POST
def log_code_today(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """With htmx the answer is the card alone, with the event coding-changed when the minutes are
    logged, which the dashboard follows for its other blocks (static/js/blocks_follow.js)."""
    resource = get_object_or_404(Resource, slug=slug)
    form = QuickCodingForm(request.POST)
    logged = form.is_valid()
    if logged:
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
    response: HttpResponse
    if not request.htmx:
        (messages.success if logged else messages.error)(request, status)
        response = redirect(reverse("progress:home") + CARD)
    else:
        card = dashboard_page(request.user).today
        context = {"card": card, "status": status, "error": not logged}
        template = "progress/today_answer.jinja"
        code = 200 if logged else 422
        response = render(request, template, context, status=code, using="jinja2")
    return coding_changed(response, resource, status) if logged else response


def saved_status(created: bool, minutes: int, resource: Resource) -> str:
    if not created:
        return _("These minutes were already logged.")
    return _("%(minutes)s of code logged on “%(title)s”.") % {
        "minutes": duration(minutes),
        "title": resource.title,
    }
