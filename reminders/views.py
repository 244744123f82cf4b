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
# Only the feed's digest is stored: a new token waits here for the page after a no-JS redirect.
NEW_FEED_TOKEN = "reminders_new_feed_token"


def section_context(request, announcement="", new_token=None):
    """What the settings' reminders section shows: whether there is a feed (its address only
    when just made) and the digest's day, one query."""
    state = (
        get_user_model()
        .objects.filter(pk=request.user.pk)
        .values("calendar_feed__token_hash", "digest_subscription__weekday")
        .first()
    ) or {}
    token = new_token or request.session.pop(NEW_FEED_TOKEN, None)
    has_feed = state.get("calendar_feed__token_hash") is not None
    feed_url = (
        request.build_absolute_uri(reverse("reminders:feed", args=[token]))
        if token and has_feed
        else ""
    )
    weekday = state.get("digest_subscription__weekday")
    return {
        "request": request,
        "has_feed": has_feed,
        "feed_url": feed_url,
        "webcal_url": feed_url.replace("https://", "webcal://", 1).replace(
            "http://", "webcal://", 1
        ),
        "digest_form": DigestForm(initial={"weekday": "" if weekday is None else weekday}),
        "announcement": announcement,
    }


def back_to_settings(request, announcement, level=messages.SUCCESS, new_token=None):
    """The section's body again for htmx, what changed said in its live region; else the page."""
    if request.htmx:
        context = section_context(request, announcement, new_token)
        return render(request, "reminders/_settings_section.html#body", context)
    messages.add_message(request, level, announcement)
    if new_token:
        request.session[NEW_FEED_TOKEN] = new_token
    return redirect(reverse("accounts:settings") + SETTINGS_SECTION)


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
    _feed, token = CalendarFeed.issue_for(request.user)
    return back_to_settings(
        request,
        _("Your calendar has a new private address; the old one, if any, no longer works."),
        new_token=token,
    )


@login_required
@require_POST
def revoke_feed(request):
    CalendarFeed.objects.filter(user=request.user).delete()
    return back_to_settings(request, _("Your calendar address no longer works."))


@login_required
@require_POST
def digest_settings(request):
    form = DigestForm(request.POST)
    if not form.is_valid():
        return back_to_settings(request, _("Choose a weekday, or no digest."), messages.ERROR)
    weekday = form.cleaned_data["weekday"]
    if weekday is None:
        DigestSubscription.objects.filter(user=request.user).delete()
        return back_to_settings(request, _("You will receive no digest."))
    DigestSubscription.objects.update_or_create(user=request.user, defaults={"weekday": weekday})
    return back_to_settings(request, _("Your weekly digest is on."))


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
