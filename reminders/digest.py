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

from lib.time_zone import zone_or_default
from progress.balance import Balance, balances, week_bounds
from progress.models import CodingSession, Profile, WatchEvent
from progress.path import path_progress
from progress.stats import coding_minutes_by_day, streaks
from reminders.models import Digest, DigestSubscription

UNSUBSCRIBE_SALT = "reminders.unsubscribe"


def unsubscribe_token(user, salt: str = UNSUBSCRIBE_SALT) -> str:
    """A signed token that names the learner: it unsubscribes them, signed in or not.

    Each mail has its salt (the daily nudge has its own), so one mail's link stops only that mail.
    """
    return signing.dumps({"learner": user.pk}, salt=salt)


def learner_of_token(token: str, salt: str = UNSUBSCRIBE_SALT) -> int:
    """The learner's id in a token made by unsubscribe_token; BadSignature if it was altered."""
    return signing.loads(token, salt=salt)["learner"]


def unsubscribe_url(user) -> str:
    return settings.SITE_URL + reverse("reminders:unsubscribe", args=[unsubscribe_token(user)])


class BracketedURLHeader(str):
    """A header whose value is one angle-bracketed URL (RFC 2369), written on the wire as it is.

    Python's e-mail folding turns a word longer than a line (the signed unsubscribe URL is
    about 120 characters) into RFC 2047 encoded-words, which RFC 2369 and RFC 8058 readers do
    not decode: they would find no URL. The e-mail package keeps a value that has a name and a
    fold() method as it is, so this one stays on one line (RFC 5322 allows 998 octets).
    """

    name: str
    url: str

    def __new__(cls, name: str, url: str):
        value = f"<{url}>"
        if not value.isascii() or len(value.splitlines()) != 1 or len(name) + len(value) > 996:
            raise ValueError(f"{name} takes one ASCII URL that fits on a line")
        header = super().__new__(cls, value)
        header.name, header.url = name, url
        return header

    def __getnewargs__(self):  # copied with the message (the locmem backend deep-copies it)
        return (self.name, self.url)

    def fold(self, *, policy):
        return f"{self.name}: {self}{policy.linesep}"


def one_click_unsubscribe_headers(url: str) -> dict:
    """The headers that let a mail client unsubscribe with one POST to url (RFC 2369, RFC 8058)."""
    return {
        "List-Unsubscribe": BracketedURLHeader("List-Unsubscribe", url),
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


@dataclass(frozen=True)
class DigestContent:
    """What one digest says: last week (never before the account existed), this week so far, and
    the dashboard's advice (code first when code is owed)."""

    monday: date  # of the week reported on: the one before the digest's
    last_week: Balance
    overall: Balance
    next_up: object  # progress.path.StepProgress or None
    current_streak: int
    longest_streak: int
    joined: date = date.min  # the day the account was made, in the learner's zone
    this_week: Balance | None = None  # from the digest's Monday (or sign-up) to now
    code_first: bool = False  # the dashboard's next up is code: the rule is short
    code_owed: int = 0  # minutes of code owed (this week or overall, the larger)
    practised: object = None  # progress.path.ResourceState watched last, or None

    @property
    def sunday(self):
        return self.monday + timedelta(days=6)

    @property
    def this_monday(self):
        return self.monday + timedelta(days=7)

    @property
    def reports_last_week(self):
        """Last week is reported only if the account existed by its Sunday."""
        return self.joined <= self.sunday

    @property
    def joined_last_week(self):
        """Signed up during the week reported: it is counted from the day of sign-up."""
        return self.monday < self.joined <= self.sunday

    @property
    def joined_this_week(self):
        return self.joined >= self.this_monday

    @property
    def is_first_digest(self):
        """Signed up after last week: only this week so far is reported."""
        return not self.reports_last_week

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
    """The digest sent in the week starting on week, about the week before it and this one so far."""
    today = timezone.localdate()
    monday = week - timedelta(days=7)
    watched, coded = week_minutes(user, monday)
    this_week, overall = balances(user, today)
    current, longest = streaks(coding_minutes_by_day(user), today)
    progress = path_progress(user, today=today)
    return DigestContent(
        monday=monday,
        last_week=Balance(watched=watched, coded=coded, this_week=False),
        overall=overall,
        next_up=progress.next_up,
        current_streak=current,
        longest_streak=longest,
        joined=timezone.localdate(user.date_joined),
        this_week=this_week,
        code_first=progress.next_is_coding,
        code_owed=progress.code_owed,
        practised=progress.last_watched,
    )


def digest_message(digest: Digest) -> EmailMultiAlternatives:
    """The digest as a plain-text and HTML e-mail, with one-click unsubscribe headers (RFC 8058)."""
    user = digest.user
    profile = Profile.objects.for_learner(user)
    language = profile.language_outside_browser()
    unsubscribe = unsubscribe_url(user)
    with translation.override(language), timezone.override(zone_or_default(profile.time_zone)):
        content = digest_content(user, digest.week)
        context = {
            "learner": user,
            "digest": content,
            "overall_sentence": content.overall.in_words(),
            "site_url": settings.SITE_URL,
            "unsubscribe_url": unsubscribe,
            "settings_url": settings.SITE_URL + reverse("accounts:settings"),
            "language": language,
        }
        subject = " ".join(render_to_string("reminders/digest_subject.txt.jinja", context).split())
        text = render_to_string("reminders/digest.txt.jinja", context)
        html = render_to_string("reminders/digest.html.jinja", {**context, "subject": subject})
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        to=[user.email],
        headers=one_click_unsubscribe_headers(unsubscribe),
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
