"""A learner's share link: opt in from the settings, a public read-only page, revoked at will."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from groups import actions
from groups.forms import ShareForm
from groups.models import ShareLink
from lib.http import AuthenticatedHttpRequest
from progress import stats_page
from progress.path import path_progress
from progress.stats import learner_stats


@dataclass(frozen=True, slots=True)
class ShareSettingsPage:
    """The share settings: whether a link is on and since when, its form, a new link's address."""

    sharing: bool
    made: str  # when the current link was made, "" without one
    created_url: str  # the address of a link just made, shown only once
    form: ShareForm  # blank, or as it was sent with its errors


@login_required
@require_http_methods(["GET", "POST"])
def share_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    link = ShareLink.objects.filter(user=request.user).first()
    initial = {"display_name": link.display_name if link else request.user.first_name}
    form = ShareForm(request.POST or None, initial=initial, user=request.user)
    created_url = ""
    if request.method == "POST" and form.is_valid():
        link, token = actions.share(
            user=request.user, display_name=form.cleaned_data["display_name"]
        )
        created_url = request.build_absolute_uri(reverse("groups:shared", args=[token]))
    page = ShareSettingsPage(
        sharing=link is not None,
        made=(date_format(timezone.localtime(link.created_at), "DATETIME_FORMAT") if link else ""),
        created_url=created_url,
        form=form,
    )
    status = 400 if form.errors else 200
    response = render(
        request, "groups/share_settings.jinja", {"page": page}, status=status, using="jinja2"
    )
    if created_url:
        response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def stop_sharing(request):
    actions.stop_sharing(user=request.user)
    messages.success(request, _("Your share link is revoked: it no longer opens anything."))
    return redirect("groups:share_settings")


@require_GET
def shared_progress(request, token):
    """The public page of a share link: the path, totals and coding days; nothing private."""
    # A deactivated account shares nothing: its page answers as an unknown token does.
    link = (
        ShareLink.objects.with_token(token)
        .filter(user__is_active=True)
        .select_related("user")
        .first()
    )
    if link is None:
        raise Http404
    stats = learner_stats(link.user)
    context = {
        "name": link.display_name,
        "progress": path_progress(link.user),
        "stats": stats,
        "heatmap": stats_page.heatmap_html(
            stats_page.learner_heatmap(stats.coded_by_day, timezone.localdate())
        ),
    }
    response = render(request, "groups/shared.jinja", context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
