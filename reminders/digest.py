"""The weekly digest: what a learner watched and coded last week, what the 1:3 rule says, what is next.

Everything is computed in the learner's time zone and written in their language, whatever the
worker's own settings; links start with SITE_URL, since no request is there to name the site.
"""

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db.models import Sum
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from progress.balance import Balance, balances, week_bounds
from progress.models import CodingSession, Profile, WatchEvent
from progress.path import path_progress
from progress.stats import coding_minutes_by_day, streaks
from progress.time_zone import zone_or_default
from reminders.models import Digest, DigestSubscription

UNSUBSCRIBE_SALT = "reminders.unsubscribe"


def unsubscribe_token(user) -> str:
    """A signed token that names the learner: it unsubscribes them, signed in or not."""
    return signing.dumps({"learner": user.pk}, salt=UNSUBSCRIBE_SALT)


def learner_of_token(token: str) -> int:
    """The learner's id in a token made by unsubscribe_token; BadSignature if it was altered."""
    return signing.loads(token, salt=UNSUBSCRIBE_SALT)["learner"]


def unsubscribe_url(user) -> str:
    return settings.SITE_URL + reverse("reminders:unsubscribe", args=[unsubscribe_token(user)])


@dataclass(frozen=True)
class DigestContent:
    """What one digest says."""

    monday: date  # of the week reported on: the one before the digest's
    last_week: Balance
    overall: Balance
    next_up: object  # progress.path.StepProgress or None
    current_streak: int
    longest_streak: int

    @property
    def sunday(self):
        return self.monday + timedelta(days=6)

    @property
    def is_empty(self):
        return not self.last_week.watched and not self.last_week.coded


def week_minutes(user, monday: date) -> tuple[int, int]:
    """Minutes watched and coded in the week starting on monday (current time zone), two queries."""
    start, end = week_bounds(monday)
    watched = WatchEvent.objects.filter(user=user, at__gte=start, at__lt=end).aggregate(
        total=Sum("minutes", default=0)
    )["total"]
    coded = (
        CodingSession.objects.for_learner(user)
        .in_week(monday)
        .aggregate(total=Sum("minutes", default=0))["total"]
    )
    return max(watched, 0), coded


def digest_content(user, week: date) -> DigestContent:
    """The digest sent in the week starting on week, about the week before it."""
    today = timezone.localdate()
    monday = week - timedelta(days=7)
    watched, coded = week_minutes(user, monday)
    _this_week, overall = balances(user, today)
    current, longest = streaks(coding_minutes_by_day(user), today)
    return DigestContent(
        monday=monday,
        last_week=Balance(watched=watched, coded=coded, this_week=False),
        overall=overall,
        next_up=path_progress(user, today=today).next_up,
        current_streak=current,
        longest_streak=longest,
    )


def digest_message(digest: Digest) -> EmailMultiAlternatives:
    """The digest as a plain-text and HTML e-mail, with one-click unsubscribe headers (RFC 8058)."""
    user = digest.user
    profile = Profile.objects.for_learner(user)
    language = profile.language or settings.LANGUAGE_CODE
    unsubscribe = unsubscribe_url(user)
    with translation.override(language), timezone.override(zone_or_default(profile.time_zone)):
        context = {
            "learner": user,
            "digest": digest_content(user, digest.week),
            "site_url": settings.SITE_URL,
            "unsubscribe_url": unsubscribe,
            "settings_url": settings.SITE_URL + reverse("accounts:settings"),
            "language": language,
        }
        subject = render_to_string("reminders/digest_subject.txt", context)
        text = render_to_string("reminders/digest.txt", context)
        html = render_to_string("reminders/digest.html", context)
    message = EmailMultiAlternatives(
        subject=" ".join(subject.split()),
        body=text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def due_learners(now: datetime) -> list[tuple[int, date]]:
    """(learner id, Monday of their week) for each subscriber whose digest time has come, one query.

    A digest is due on the learner's weekday from DIGEST_HOUR on, in their time zone.
    """
    rows = (
        DigestSubscription.objects.filter(user__is_active=True)
        .exclude(user__email="")
        .values_list("user_id", "weekday", "user__profile__time_zone")
    )
    due = []
    for user_id, weekday, zone_name in rows:
        local = now.astimezone(zone_or_default(zone_name or ""))
        if local.weekday() == weekday and local.hour >= settings.DIGEST_HOUR:
            due.append((user_id, local.date() - timedelta(days=local.weekday())))
    return due
