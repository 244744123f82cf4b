"""The settings page's reminders section as a view model: the calendar feed, its code time, the
digest's day and the nudge's hour (templates/reminders/_settings.jinja prints it, on the
settings page and alone when an htmx form of the section answers)."""

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.db import connection
from django.urls import reverse
from django.utils import translation
from markupsafe import Markup

from lib.form_fields import NO_CHOICE, FieldGroup, chosen_in, field_group, input_html
from lib.http import AuthenticatedHttpRequest
from lib.raw_rows import time_of
from reminders.forms import CodeTimeForm, DigestForm, NudgeForm
from reminders.models import CalendarFeed, DigestSubscription, NudgeSubscription

# Only the feed's digest is stored: a new token waits here for the page after a no-JS redirect.
NEW_FEED_TOKEN = "reminders_new_feed_token"
# What the section reads of the learner: these columns of the rows these joins add to a
# statement's `learner` (with its id), alone or within the settings page's one statement.
STATE = (
    "calendar_feed__token_hash",
    "calendar_feed__code_weekdays",
    "calendar_feed__code_at",
    "digest_subscription__weekday",
    "nudge_subscription__hour",
)
STATE_COLUMNS = "feed.token_hash, feed.code_weekdays, feed.code_at, digest.weekday, nudge.hour"
STATE_JOINS = f"""
  LEFT JOIN {CalendarFeed._meta.db_table} AS feed ON feed.user_id = learner.id
  LEFT JOIN {DigestSubscription._meta.db_table} AS digest ON digest.user_id = learner.id
  LEFT JOIN {NudgeSubscription._meta.db_table} AS nudge ON nudge.user_id = learner.id"""
STATE_SQL = f"SELECT {STATE_COLUMNS} FROM (SELECT %(user)s AS id) AS learner {STATE_JOINS}"


@dataclass(frozen=True, slots=True)
class DayBox:
    """A weekday's checkbox of the code time, in its label."""

    box: Markup
    label: str


@dataclass(frozen=True, slots=True)
class CodeTime:
    """The form of the calendar's code time: its days, then the hour it starts."""

    days_label: str
    days_error: str
    days: tuple[DayBox, ...]
    at: FieldGroup
    at_help: str  # written as text, as the section always wrote it


@dataclass(frozen=True, slots=True)
class RemindersSection:
    has_feed: bool
    feed_url: str  # only when the address was just made: Parcours keeps no copy of it
    webcal_url: str
    code_time: CodeTime | None
    digest: tuple[FieldGroup, ...]
    nudge: tuple[FieldGroup, ...]
    announcement: str


def code_time_of(form: CodeTimeForm) -> CodeTime:
    days = form["days"]
    return CodeTime(
        days_label=str(days.label),
        days_error=str(days.errors[0]) if days.errors else "",
        days=tuple(
            DayBox(box=Markup(input_html(day.data)), label=str(day.choice_label)) for day in days
        ),
        at=field_group(form["code_at"]),
        at_help=str(form["code_at"].help_text),
    )


# The digest's day and the nudge's hour, written once per language with no option chosen: each
# request chooses the learner's.
_BLANK_CHOICES: dict[str | None, tuple[FieldGroup, FieldGroup]] = {}


def blank_choices() -> tuple[FieldGroup, FieldGroup]:
    language = translation.get_language()
    choices = _BLANK_CHOICES.get(language)
    if choices is None:
        digest = DigestForm(initial={"weekday": NO_CHOICE})["weekday"]
        nudge = NudgeForm(initial={"hour": NO_CHOICE})["hour"]
        choices = _BLANK_CHOICES[language] = field_group(digest), field_group(nudge)
    return choices


# The code time's form, written once per language with no day ticked (and every day ticked,
# apart) and this hour: each request ticks the feed's days and writes its hour.
HOUR_SLOT = datetime.time(1, 23)
WEEKDAYS = DigestSubscription.Weekday.values  # the code time's days, in the order of their boxes
_BLANK_CODE_TIMES: dict[str | None, tuple[CodeTime, CodeTime]] = {}


def blank_code_times() -> tuple[CodeTime, CodeTime]:
    language = translation.get_language()
    code_times = _BLANK_CODE_TIMES.get(language)
    if code_times is None:
        unticked, ticked = (
            code_time_of(CodeTimeForm(initial={"days": days, "code_at": HOUR_SLOT}))
            for days in ([], list(WEEKDAYS))
        )
        code_times = _BLANK_CODE_TIMES[language] = unticked, ticked
    return code_times


def code_time_of_feed(feed: CalendarFeed) -> CodeTime:
    """The code time's form as CodeTimeForm.for_feed(feed) prints it."""
    unticked, ticked = blank_code_times()
    chosen = set(feed.code_days)
    hour = f'value="{HOUR_SLOT:%H:%M}"', f'value="{feed.code_at:%H:%M}"'
    return replace(
        unticked,
        days=tuple(
            box if day in chosen else blank
            for day, blank, box in zip(WEEKDAYS, unticked.days, ticked.days, strict=True)
        ),
        at=replace(unticked.at, widget=Markup(str.replace(unticked.at.widget, *hour))),
    )


def state_from(columns: tuple) -> dict[str, Any]:
    """The section's state from its STATE_COLUMNS in a raw row, as the ORM would give them."""
    state = dict(zip(STATE, columns, strict=True))
    state["calendar_feed__code_at"] = time_of(state["calendar_feed__code_at"])
    return state


def state_of(request: AuthenticatedHttpRequest) -> Mapping[str, Any]:
    """The section's state of the signed-in learner, in one statement."""
    with connection.cursor() as cursor:
        cursor.execute(STATE_SQL, {"user": request.user.pk})
        return state_from(cursor.fetchone())


def reminders_section(
    request: AuthenticatedHttpRequest,
    state: Mapping[str, Any],
    announcement: str = "",
    new_token: str | None = None,
    code_form: CodeTimeForm | None = None,
) -> RemindersSection:
    """What the section shows: whether there is a feed (its address only when just made), when
    its code time goes, the digest's day and the nudge's hour, from the learner's state."""
    has_feed = state.get("calendar_feed__token_hash") is not None
    code_time = None
    if code_form is not None:
        code_time = code_time_of(code_form)
    elif has_feed:
        feed = CalendarFeed(
            code_weekdays=state["calendar_feed__code_weekdays"],
            code_at=state["calendar_feed__code_at"],
        )
        code_time = code_time_of_feed(feed)
    token = new_token or request.session.pop(NEW_FEED_TOKEN, None)
    feed_url = (
        request.build_absolute_uri(reverse("reminders:feed", args=[token]))
        if token and has_feed
        else ""
    )
    digest, nudge = blank_choices()
    return RemindersSection(
        has_feed=has_feed,
        feed_url=feed_url,
        webcal_url=feed_url.replace("https://", "webcal://", 1).replace("http://", "webcal://", 1),
        code_time=code_time,
        digest=(chosen_in(digest, state.get("digest_subscription__weekday")),),
        nudge=(chosen_in(nudge, state.get("nudge_subscription__hour")),),
        announcement=announcement,
    )
