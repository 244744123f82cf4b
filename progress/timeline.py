"""The learner's history as /history/ shows it: what they watched and coded, newest first, by
their day, and the videos to continue at the top (templates/progress/history.jinja prints it).

A page holds DAYS_PER_PAGE days with something in them, whatever each holds, read in a fixed
number of queries however long the history: the page's days (one UNION), then that span's
watching events, coding sessions and exercise submissions, and the videos begun.
"""

import datetime
from dataclasses import dataclass

from django.db.models import Exists, F, OuterRef
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.formats import date_format, time_format

from curriculum import structure
from lib.durations import duration, video_time
from lib.urls import url_with
from practice.models import Submission
from progress.balance import start_of_day
from progress.coding_log import NOTHING, practised_labels
from progress.models import CodingSession, Viewing, Watch, WatchEvent
from progress.path import ResourceState

DAYS_PER_PAGE = 14


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing the learner did, as its line says it (the `entry` macro)."""

    kind: str  # a WatchEvent kind, "played" (a sitting the player recorded), "coded",
    # "passed" or "submitted"
    time: str  # "14:05"; "" for a coding session, which has a day and no hour
    title: str
    url: str
    minutes: str  # "45 min", "" when the kind has none
    detail: str  # what was built; a submission's verdict


@dataclass(frozen=True, slots=True)
class Day:
    """A day of the learner's with something in it, its entries newest first."""

    iso: str
    weekday: str
    date: str
    is_today: bool
    is_yesterday: bool
    entries: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class Continue:
    """A video begun and neither finished nor skipped, with where its player resumes."""

    title: str
    page_url: str
    resume_url: str  # the player, a few seconds before the resume point; the page without one
    resume_at: str  # "10:49", "" when the player has no resume point
    watched: str
    planned: str  # "" when the length is unknown


@dataclass(frozen=True, slots=True)
class HistoryPage:
    to_continue: tuple[Continue, ...]
    days: tuple[Day, ...]
    number: int
    previous: int | None
    next: int | None


def page_number(value: str | None) -> int:
    """The page asked for in the address: not a number, or below 1, is the first."""
    try:
        number = int(value or 1)
    except ValueError:
        return 1
    return max(number, 1)


def history_page(user, page: str | None, today: datetime.date | None = None) -> HistoryPage:
    """The learner's history, the page asked for (DAYS_PER_PAGE days with something in them)."""
    today = today or timezone.localdate()
    number = page_number(page)
    curriculum = structure.current()
    labels = curriculum.built(practised_labels)
    start = (number - 1) * DAYS_PER_PAGE
    days = list(active_days(user)[start : start + DAYS_PER_PAGE + 1])
    shown = sorted(days[:DAYS_PER_PAGE], reverse=True)
    entries = _entries(user, shown, labels) if shown else {}
    return HistoryPage(
        to_continue=_to_continue(user, curriculum),
        days=tuple(
            Day(
                iso=day.isoformat(),
                weekday=date_format(day, "l"),
                date=date_format(day, "DATE_FORMAT"),
                is_today=day == today,
                is_yesterday=day == today - datetime.timedelta(days=1),
                entries=tuple(
                    entry for _at, entry in sorted(entries[day], key=_instant, reverse=True)
                ),
            )
            for day in shown
        ),
        number=number,
        previous=number - 1 if number > 1 else None,
        next=number + 1 if len(days) > DAYS_PER_PAGE else None,
    )


def _instant(item):
    return item[0]


def active_days(user):
    """The learner's days with something watched, coded or submitted, newest first (their day:
    the current time zone's)."""
    watched = WatchEvent.objects.for_learner(user).annotate(on=TruncDate("at")).values("on")
    coded = CodingSession.objects.for_learner(user).annotate(on=F("day")).values("on")
    submitted = Submission.objects.for_learner(user).annotate(on=TruncDate("created")).values("on")
    return (
        watched.order_by()
        .union(coded.order_by(), submitted.order_by())
        .order_by("-on")
        .values_list("on", flat=True)
    )


def _entries(user, days: list[datetime.date], labels) -> dict[datetime.date, list]:
    """Every entry of the days from the first to the last of days, by day, each with the instant
    that orders it, in three queries."""
    first, last = days[-1], days[0]
    since, until = start_of_day(first), start_of_day(last + datetime.timedelta(days=1))
    by_day: dict[datetime.date, list] = {day: [] for day in days}

    def add(day, at, entry):
        if day in by_day:
            by_day[day].append((at, entry))

    played = Viewing.objects.filter(sitting=OuterRef("pk"))
    events = (
        WatchEvent.objects.for_learner(user)
        .filter(at__gte=since, at__lt=until)
        .annotate(played=Exists(played))
        .values("kind", "at", "resource_id", "logged_minutes", "played")
    )
    for event in events:
        at = timezone.localtime(event["at"])
        practised = labels.get(("resource", event["resource_id"]), NOTHING)
        kind, minutes = event["kind"], ""
        if kind == WatchEvent.Kind.SITTING:
            kind = "played" if event["played"] else kind
            minutes = duration(event["logged_minutes"])
        entry = Entry(kind, time_format(at), practised.title, practised.url, minutes, "")
        add(at.date(), at, entry)
    sessions = CodingSession.objects.for_learner(user).filter(day__gte=first, day__lte=last)
    for session in sessions.row_values().annotate(at=F("created_at")):
        practised = labels.get(("resource", session["resource_id"])) or labels.get(
            ("chapter", session["chapter_id"]), NOTHING
        )
        entry = Entry(
            "coded", "", practised.title, practised.url, duration(session["minutes"]),
            session["built"],
        )  # fmt: skip
        add(session["day"], session["at"], entry)
    submissions = (
        Submission.objects.for_learner(user)
        .filter(created__gte=since, created__lt=until)
        .select_related("exercise")
        .defer("code", "message", "case", "exercise__statement", "exercise__starter")
    )
    for submission in submissions:
        at = timezone.localtime(submission.created)
        passed = submission.verdict == Submission.Verdict.PASSED
        entry = Entry(
            "passed" if passed else "submitted",
            time_format(at),
            str(submission.exercise),
            url_with("practice:exercise", submission.exercise.slug),
            "",
            "" if passed else submission.get_verdict_display(),
        )
        add(at.date(), at, entry)
    return by_day


def _to_continue(user, curriculum) -> tuple[Continue, ...]:
    """Every video begun and neither finished nor skipped, the one played last first."""
    rows = []
    for watch in Watch.objects.for_learner(user).to_continue():
        resource = curriculum.by_pk.get(watch.resource_id)
        if resource is None or resource.is_followed:
            continue
        watch.resource = resource
        state = ResourceState(resource=resource, watch=watch)
        seconds = state.resume_seconds
        player = f"{state.page_url}#player" if resource.has_video else state.page_url
        rows.append(
            Continue(
                title=str(resource),
                page_url=state.page_url,
                resume_url=state.resume_url if seconds else player,
                resume_at=video_time(seconds) if seconds else "",
                watched=duration(state.watched_minutes),
                planned=duration(resource.duration_minutes),
            )
        )
    return tuple(rows)
