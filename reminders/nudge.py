"""The daily nudge: one short mail at the hour a learner picked, on a day when code is owed and
nothing is coded yet, at most one a day.

Both conditions are progress/today.py's, in the learner's time zone: the hourly command checks
them before it queues the day's nudge, and the worker again before it sends (code logged in
between, from a form, the CLI or the editor, stops it).
"""

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from lib.time_zone import zone_or_default
from progress.models import Profile
from progress.today import Today, today_for
from reminders.digest import one_click_unsubscribe_headers, unsubscribe_token
from reminders.models import Nudge, NudgeSubscription

UNSUBSCRIBE_SALT = "reminders.nudge.unsubscribe"
# The picked hour and the two after it: a run the timer missed (a restart) still nudges, late
# at most by this much; never in the night after.
HOURS_LATE_AT_MOST = 3


def unsubscribe_url(user) -> str:
    token = unsubscribe_token(user, salt=UNSUBSCRIBE_SALT)
    return settings.SITE_URL + reverse("reminders:nudge_unsubscribe", args=[token])


def wants_nudge(today: Today) -> bool:
    """Today owes code and nothing is coded yet (typed, one tap, CLI or editor)."""
    return today.owes_code and not today.keeps_streak


@dataclass(frozen=True)
class Due:
    """A subscriber whose nudge hour has come, and their date and zone then."""

    user: User
    day: date
    zone: ZoneInfo


def due_subscribers(now: datetime) -> list[Due]:
    """Subscribers whose hour has come (within HOURS_LATE_AT_MOST) and who have no nudge of
    their day yet, in two queries."""
    subscriptions = (
        NudgeSubscription.objects.filter(user__is_active=True)
        .exclude(user__email="")
        .select_related("user")
        .annotate(zone_name=F("user__profile__time_zone"))
        .order_by("user_id")
    )
    due = []
    for subscription in subscriptions:
        zone = zone_or_default(subscription.zone_name or "")
        local = now.astimezone(zone)
        if 0 <= local.hour - subscription.hour < HOURS_LATE_AT_MOST:
            due.append(Due(user=subscription.user, day=local.date(), zone=zone))
    if not due:
        return []
    nudged = set(
        Nudge.objects.filter(
            user_id__in=[each.user.pk for each in due], day__in={each.day for each in due}
        ).values_list("user_id", "day")
    )
    return [each for each in due if (each.user.pk, each.day) not in nudged]


def reason_not_to_send(nudge: Nudge, today: Today) -> str:
    """Why the worker does not send this nudge now, or "" when it goes."""
    if not NudgeSubscription.objects.filter(user_id=nudge.user_id).exists():
        return "unsubscribed"
    if today.day != nudge.day:
        return "the day is over"
    if today.keeps_streak:
        return "code logged today"
    if not today.owes_code:
        return "no code owed today"
    return ""


def learners_today(user, now: datetime | None = None) -> tuple[Today, Profile]:
    """The learner's day now, and the profile that gives their language and zone."""
    profile = Profile.objects.for_learner(user)
    return today_for(user, now=now, zone=zone_or_default(profile.time_zone)), profile


def nudge_message(user, today: Today, profile: Profile) -> EmailMessage:
    """The nudge as a short plain-text e-mail, with one-click unsubscribe headers (RFC 8058)."""
    language = profile.language_outside_browser()
    unsubscribe = unsubscribe_url(user)
    with translation.override(language), timezone.override(zone_or_default(profile.time_zone)):
        context = {
            "learner": user,
            "today": today,
            "today_url": settings.SITE_URL + reverse("progress:home") + "#today",
            "unsubscribe_url": unsubscribe,
            "settings_url": settings.SITE_URL + reverse("accounts:settings"),
        }
        subject = render_to_string("reminders/nudge_subject.txt.jinja", context)
        text = render_to_string("reminders/nudge.txt.jinja", context)
    return EmailMessage(
        subject=" ".join(subject.split()),
        body=text,
        to=[user.email],
        headers=one_click_unsubscribe_headers(unsubscribe),
    )
