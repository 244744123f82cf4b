"""The learner's plan as an iCalendar document (RFC 5545), built with the icalendar library.

Week n of the plan starts n - 1 weeks after the learner's start day. A stage's steps are spread
over its weeks, one evening each from the week's first day; the open-ended last stage goes in
the week after the plan. Code time follows what the calendar itself plans to watch each week
(the 12 h course is planned as a first sitting of 2 h, so its week asks for 6 h of code, not
36 h): three times that, shared between the days of the week the learner picked in settings,
from the hour they picked, a day never asking more than MOST_CODE_IN_A_DAY. UIDs stand for the
learner and the step (or the day), never the token nor the name the site was reached by: a
calendar that reads the feed again updates its events, even after the start day, the token, the
chosen days or the site's domain changed.
"""

import math
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext, ngettext
from icalendar import Calendar, Event

from lib.durations import duration
from progress.balance import GOAL
from progress.path import StepProgress, path_progress

WATCH_AT = time(18, 0)
# Longer resources are watched in sittings: the event is the first one, its text says the rest.
LONGEST_SITTING = 120  # minutes
UNKNOWN_DURATION = 60  # minutes planned for a resource of unknown length
CODE_ROUNDING = 15  # minutes
MOST_CODE_IN_A_DAY = 4 * 60  # as the today card asks at most (progress/today.py)


def planned_minutes(step) -> int:
    """Minutes of watching a step plans: its resource's length, or an hour when unknown."""
    if step.resource is None:
        return 0
    return step.resource.duration_minutes or UNKNOWN_DURATION


@dataclass(frozen=True)
class PlannedStep:
    step: StepProgress
    week: int
    day: date


def stage_weeks(stage, after_plan: int) -> range:
    """The weeks of the plan a stage covers; the open-ended stage gets the week after the plan."""
    first = stage.first_week or after_plan
    return range(first, (stage.last_week or first) + 1)


def planned_steps(progress) -> list[PlannedStep]:
    """Every step of the path with its week of the plan and its day, in path order."""
    started_on = progress.profile.started_on
    after_plan = progress.week.total + 1
    planned = []
    for stage_progress in progress.stages:
        weeks = stage_weeks(stage_progress.stage, after_plan)
        steps = stage_progress.steps
        per_week: dict[int, int] = {}
        for index, step in enumerate(steps):
            week = weeks[index * len(weeks) // len(steps)]
            offset = per_week.get(week, 0)
            per_week[week] = offset + 1
            day = started_on + timedelta(weeks=week - 1, days=offset % 7)
            planned.append(PlannedStep(step=step, week=week, day=day))
    return planned


def watched_in_event(step) -> int:
    """The minutes of watching a step's event plans: a long resource's first sitting only."""
    minutes = planned_minutes(step)
    return min(minutes, LONGEST_SITTING) if minutes else 0


def code_minutes_by_week(planned: list[PlannedStep]) -> dict[int, int]:
    """Minutes of code each week of the plan asks for: three times what its events plan to watch."""
    by_week: dict[int, int] = {}
    for item in planned:
        by_week[item.week] = by_week.get(item.week, 0) + GOAL * watched_in_event(item.step)
    return by_week


def code_days_of_week(monday: date, weekdays: list[int]) -> list[date]:
    """The days of the plan's week starting on monday (any weekday) that are among weekdays."""
    days = (monday + timedelta(days=offset) for offset in range(7))
    return sorted(day for day in days if day.weekday() in weekdays)


def block_minutes(week_minutes: int, days: int) -> int:
    """A day's share of the week's code, rounded up to a quarter of an hour, at most 4 h."""
    share = math.ceil(week_minutes / days / CODE_ROUNDING) * CODE_ROUNDING
    return min(share, MOST_CODE_IN_A_DAY)


def spaced(text: str) -> str:
    """text with its non-breaking spaces as plain ones, to compare a note with a length."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def at(day: date, moment: time, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, moment, tzinfo=zone)


def event_uid(user, kind: str, key) -> str:
    """The UID of the learner's event of this kind ("step" or "code") and key (step id, day).

    An HMAC under the site's secret key: it names no database row and no host, so subscribing
    through two names or moving the site keeps every event once (a new SECRET_KEY renews them).
    """
    mac = salted_hmac("reminders.feed.uid", f"{user.pk}:{kind}:{key}", algorithm="sha256")
    return f"{kind}-{mac.hexdigest()[:32]}@parcours"


def step_event(item: PlannedStep, *, user, zone, base_url, now) -> Event:
    step = item.step
    event = Event()
    title = step.title
    event.add("uid", event_uid(user, "step", step.step.pk))
    event.add("dtstamp", now)
    event.add("summary", f"✓ {title}" if step.is_done else title)
    minutes = planned_minutes(step)
    event.add("dtstart", at(item.day, WATCH_AT, zone))
    event.add("duration", timedelta(minutes=min(minutes or UNKNOWN_DURATION, LONGEST_SITTING)))
    lines = []
    length = (
        duration(minutes) if step.resource is not None and step.resource.duration_minutes else ""
    )
    note = step.step.note or ""
    # The length once: a note such as "1 h" or "12 h, in several sittings" already says it.
    if length and not spaced(note).startswith(spaced(length)):
        lines.append(gettext("Length: %(length)s") % {"length": length})
    if note:
        lines.append(note)
    lines.extend(
        f"{pairing.get_timing_display().capitalize()} · {pairing.place}"
        for pairing in step.pairings
    )
    if step.architecture_unknown:
        lines.append(gettext("Say which GPU you have in your settings to get its talk."))
    if step.is_done:
        lines.append(gettext("Watched."))
    if step.resource is not None:
        url = base_url + step.resource.get_absolute_url()
        event.add("url", url)
        lines.append(url)
    event.add("description", "\n".join(lines))
    event.add("categories", ["Parcours"])
    return event


def code_event(
    week: int,
    day: date,
    minutes: int,
    week_total: int,
    days: int,
    *,
    user,
    start,
    zone,
    base_url,
    now,
) -> Event:
    event = Event()
    event.add("uid", event_uid(user, "code", day.isoformat()))
    event.add("dtstamp", now)
    event.add("summary", gettext("Code time (1:3 rule)"))
    event.add("dtstart", at(day, start, zone))
    event.add("duration", timedelta(minutes=minutes))
    event.add(
        "description",
        ngettext(
            "Week %(week)s of your plan: %(total)s of code on %(days)s day, three hours of code for each hour of video.",
            "Week %(week)s of your plan: %(total)s of code over %(days)s days, three hours of code for each hour of video.",
            days,
        )
        % {"week": week, "total": duration(week_total), "days": days},
    )
    event.add("url", base_url + reverse("progress:coding_log"))
    event.add("categories", ["Parcours"])
    return event


def plan_calendar(user, *, base_url: str, code_time) -> bytes:
    """The learner's plan as an iCalendar document, in their time zone and language; code_time
    (the learner's CalendarFeed) says on which days and from what hour code time goes."""
    progress = path_progress(user)
    zone = timezone.get_current_timezone()
    now = timezone.now()
    calendar = Calendar()
    calendar.add("prodid", "-//Parcours//Plan//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", gettext("Parcours: my plan"))
    calendar.add("x-wr-timezone", str(zone))
    calendar.add("refresh-interval", timedelta(hours=6), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", "PT6H")
    planned = planned_steps(progress) if progress.path else []
    for item in planned:
        calendar.add_component(step_event(item, user=user, zone=zone, base_url=base_url, now=now))
    assert progress.profile is not None  # path_progress reads it
    started_on = progress.profile.started_on
    for week, minutes in sorted(code_minutes_by_week(planned).items()):
        days = code_days_of_week(started_on + timedelta(weeks=week - 1), code_time.code_days)
        if not minutes or not days:
            continue
        for day in days:
            calendar.add_component(
                code_event(
                    week,
                    day,
                    block_minutes(minutes, len(days)),
                    minutes,
                    len(days),
                    user=user,
                    start=code_time.code_at,
                    zone=zone,
                    base_url=base_url,
                    now=now,
                )
            )
    calendar.add_missing_timezones()
    return calendar.to_ical()
