"""The calendar feed, the reminders' settings and the digest's unsubscribe page."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from progress.models import Profile
from progress.time_zone import zone_or_default
from reminders.digest import learner_of_token
from reminders.feed import plan_calendar
from reminders.forms import DigestForm
from reminders.models import CalendarFeed, DigestSubscription

SETTINGS_SECTION = "#settings-reminders-title"


def back_to_settings():
    return redirect(reverse("progress:settings") + SETTINGS_SECTION)


@require_GET
def feed(request, token):
    """The learner's plan as iCalendar: for calendar apps, which send no cookie, only the token."""
    calendar_feed = get_object_or_404(CalendarFeed.objects.for_token(token))
    user = calendar_feed.user
    profile = Profile.objects.for_learner(user)
    language = profile.language or settings.LANGUAGE_CODE
    with timezone.override(zone_or_default(profile.time_zone)), translation.override(language):
        document = plan_calendar(
            user,
            base_url=request.build_absolute_uri("/").rstrip("/"),
            host=request.get_host().split(":")[0],
        )
    response = HttpResponse(document, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="parcours.ics"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def issue_feed(request):
    CalendarFeed.issue_for(request.user)
    messages.success(
        request, _("Your calendar has a new private address; the old one, if any, no longer works.")
    )
    return back_to_settings()


@login_required
@require_POST
def revoke_feed(request):
    CalendarFeed.objects.filter(user=request.user).delete()
    messages.success(request, _("Your calendar address no longer works."))
    return back_to_settings()


@login_required
@require_POST
def digest_settings(request):
    form = DigestForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a weekday, or no digest."))
        return back_to_settings()
    weekday = form.cleaned_data["weekday"]
    if weekday is None:
        DigestSubscription.objects.filter(user=request.user).delete()
        messages.success(request, _("You will receive no digest."))
    else:
        DigestSubscription.objects.update_or_create(
            user=request.user, defaults={"weekday": weekday}
        )
        messages.success(request, _("Your weekly digest is on."))
    return back_to_settings()


@csrf_exempt  # mail clients post the one-click unsubscribe (RFC 8058) with no cookie: the signed link is the proof
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token):
    """GET asks to confirm with a button; POST, from that button or a mail client, unsubscribes."""
    try:
        user_id = learner_of_token(token)
    except (signing.BadSignature, KeyError, TypeError):
        return render(request, "reminders/unsubscribe.html", {"invalid": True}, status=400)
    learner = get_object_or_404(get_user_model(), pk=user_id)
    subscribed = DigestSubscription.objects.filter(user=learner)
    if request.method == "POST":
        subscribed.delete()
        return render(request, "reminders/unsubscribe.html", {"done": True})
    context = {"subscribed": subscribed.exists(), "token": token}
    return render(request, "reminders/unsubscribe.html", context)
