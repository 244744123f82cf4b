"""The calendar feed, the reminders' settings and the unsubscribe pages of the digest and the nudge."""

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
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from lib.http import AuthenticatedHttpRequest, HtmxHttpRequest
from lib.time_zone import zone_or_default
from progress.models import Profile
from reminders import digest, nudge
from reminders.digest import learner_of_token
from reminders.feed import plan_calendar
from reminders.forms import CodeTimeForm, DigestForm, NudgeForm
from reminders.models import CalendarFeed, DigestSubscription, NudgeSubscription
from reminders.section import NEW_FEED_TOKEN, learner_of, reminders_section

SETTINGS_SECTION = "#settings-reminders-title"


def back_to_settings(
    request: AuthenticatedHttpRequest,
    announcement: str,
    level: int = messages.SUCCESS,
    new_token: str | None = None,
    code_form: CodeTimeForm | None = None,
) -> HttpResponse:
    """The section's body again for htmx, what changed said in its live region; else the page."""
    if request.htmx:
        section = reminders_section(
            request, learner_of(request), announcement, new_token, code_form
        )
        return render(
            request, "reminders/settings_body.jinja", {"section": section}, using="jinja2"
        )
    messages.add_message(request, level, announcement)
    if new_token:
        request.session[NEW_FEED_TOKEN] = new_token
    return redirect(reverse("accounts:settings") + SETTINGS_SECTION)


@require_safe  # calendar apps and link checkers ask HEAD first
def feed(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The learner's plan as iCalendar: for calendar apps, which send no cookie, only the token."""
    calendar_feed = get_object_or_404(CalendarFeed.objects.for_token(token))
    user = calendar_feed.user
    profile = Profile.objects.for_learner(user)
    language = profile.language_outside_browser()
    with timezone.override(zone_or_default(profile.time_zone)), translation.override(language):
        document = plan_calendar(
            user,
            base_url=request.build_absolute_uri("/").rstrip("/"),
            code_time=calendar_feed,
        )
    response = HttpResponse(document, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="parcours.ics"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def issue_feed(request: AuthenticatedHttpRequest) -> HttpResponse:
    _feed, token = CalendarFeed.issue_for(request.user)
    return back_to_settings(
        request,
        _("Your calendar has a new private address; the old one, if any, no longer works."),
        new_token=token,
    )


@login_required
@require_POST
def revoke_feed(request: AuthenticatedHttpRequest) -> HttpResponse:
    CalendarFeed.objects.filter(user=request.user).delete()
    return back_to_settings(request, _("Your calendar address no longer works."))


@login_required
@require_POST
def code_time(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The days and hour of the calendar's code time; the feed must exist (else 404)."""
    feed = get_object_or_404(CalendarFeed, user=request.user)
    form = CodeTimeForm(request.POST)
    if not form.is_valid():
        if not request.htmx:
            context = {"code_time": form}
            return render(request, "reminders/code_time.jinja", context, status=400, using="jinja2")
        announcement = _("Code time is unchanged: see the errors below.")
        return back_to_settings(request, announcement, messages.ERROR, code_form=form)
    feed.code_weekdays = form.weekdays_mask()
    feed.code_at = form.cleaned_data["code_at"]
    feed.save(update_fields=["code_weekdays", "code_at"])
    return back_to_settings(request, _("Your calendar's code time is saved."))


@login_required
@require_POST
def digest_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = DigestForm(request.POST)
    if not form.is_valid():
        return back_to_settings(request, _("Choose a weekday, or no digest."), messages.ERROR)
    weekday = form.cleaned_data["weekday"]
    if weekday is None:
        DigestSubscription.objects.filter(user=request.user).delete()
        return back_to_settings(request, _("You will receive no digest."))
    # One upsert statement: update_or_create's read-then-insert raced a concurrent unsubscribe.
    DigestSubscription.objects.bulk_create(
        [DigestSubscription(user=request.user, weekday=weekday)],
        update_conflicts=True,
        unique_fields=["user"],
        update_fields=["weekday"],
    )
    return back_to_settings(request, _("Your weekly digest is on."))


@login_required
@require_POST
def nudge_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = NudgeForm(request.POST)
    if not form.is_valid():
        return back_to_settings(request, _("Choose an hour, or no daily nudge."), messages.ERROR)
    hour = form.cleaned_data["hour"]
    if hour is None:
        NudgeSubscription.objects.filter(user=request.user).delete()
        return back_to_settings(request, _("You will receive no daily nudge."))
    # One upsert statement, as for the digest: no read-then-insert to race.
    NudgeSubscription.objects.bulk_create(
        [NudgeSubscription(user=request.user, hour=hour)],
        update_conflicts=True,
        unique_fields=["user"],
        update_fields=["hour"],
    )
    return back_to_settings(request, _("Your daily nudge is on."))


@csrf_exempt  # mail clients post the one-click unsubscribe (RFC 8058) with no cookie: the signed link is the proof
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm with a button; POST, from that button or a mail client, unsubscribes."""
    return unsubscribe_from(request, token, "digest", DigestSubscription, digest.UNSUBSCRIBE_SALT)


@csrf_exempt  # as the digest's: the mail client's one-click POST carries no cookie
@require_http_methods(["GET", "POST"])
def nudge_unsubscribe(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The daily nudge's one-click unsubscribe: its own link, which leaves the digest alone."""
    return unsubscribe_from(request, token, "nudge", NudgeSubscription, nudge.UNSUBSCRIBE_SALT)


def unsubscribe_from(
    request: HtmxHttpRequest,
    token: str,
    mail: str,
    subscription_model: type[DigestSubscription] | type[NudgeSubscription],
    salt: str,
) -> HttpResponse:
    """The unsubscribe page of one mail ("digest" or "nudge"): GET asks, POST unsubscribes."""
    # The page's three answers, the one given set below.
    answers = {"invalid": False, "done": False, "subscribed": False}
    context = {"mail": mail, "token": token, "action": request.path, **answers}
    try:
        user_id = learner_of_token(token, salt=salt)
    except (signing.BadSignature, KeyError, TypeError):
        return render(
            request, "reminders/unsubscribe.jinja", {**context, "invalid": True}, status=400
        )
    learner = get_object_or_404(get_user_model(), pk=user_id)
    subscribed = subscription_model.objects.filter(user=learner)
    if request.method == "POST":
        subscribed.delete()
        return render(request, "reminders/unsubscribe.jinja", {**context, "done": True})
    return render(
        request, "reminders/unsubscribe.jinja", {**context, "subscribed": subscribed.exists()}
    )
