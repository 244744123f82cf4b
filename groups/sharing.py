"""A learner's share link: opt in from the settings, a public read-only page, revoked at will."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.tokens import digest
from groups import actions
from groups.forms import ShareForm
from groups.models import ShareLink
from progress import charts
from progress.path import path_progress
from progress.stats import learner_stats


@login_required
@require_http_methods(["GET", "POST"])
def share_settings(request):
    link = ShareLink.objects.filter(user=request.user).first()
    initial = {"display_name": link.display_name if link else request.user.first_name}
    form = ShareForm(request.POST or None, initial=initial, user=request.user)
    created_url = None
    if request.method == "POST" and form.is_valid():
        link, token = actions.share(
            user=request.user, display_name=form.cleaned_data["display_name"]
        )
        created_url = request.build_absolute_uri(reverse("groups:shared", args=[token]))
    context = {"link": link, "form": form, "created_url": created_url}
    response = render(
        request, "groups/share_settings.html", context, status=400 if form.errors else 200
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
    link = ShareLink.objects.select_related("user").filter(token_hash=digest(token)).first()
    if link is None:
        raise Http404
    stats = learner_stats(link.user)
    context = {
        "name": link.display_name,
        "progress": path_progress(link.user),
        "stats": stats,
        "calendar": charts.heatmap_chart(stats.heatmap),
        "legend": charts.legend_cells(),
    }
    response = render(request, "groups/shared.html", context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
