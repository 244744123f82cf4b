"""The learner's plan as an iCalendar document (RFC 5545), built with the icalendar library.

Week n of the plan starts n - 1 weeks after the learner's start day. A stage's steps are spread
over its weeks, one evening each from the week's first day; the open-ended last stage goes in
the week after the plan. Each week also gets a "code time" block every day, sized so that the
week's code is three times its share of the planned watching (the 1:3 rule). UIDs name the learner and the
step (or the week and day), never the token: a calendar that reads the feed again updates its
events, even after the start day or the token changed.
"""

import math
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from icalendar import Calendar, Event

from curriculum.templatetags.curriculum import duration
from progress.balance import GOAL
from progress.path import path_progress

WATCH_AT = time(18, 0)
CODE_AT = time(20, 0)
# Longer resources are watched in sittings: the event is the first one, its text says the rest.
LONGEST_SITTING = 120  # minutes
UNKNOWN_DURATION = 60  # minutes planned for a resource of unknown length
CODE_ROUNDING = 15  # minutes


def planned_minutes(step) -> int:
    """Minutes of watching a step plans: its resource's length, or an hour when unknown."""
    if step.resource is None:
        return 0
    return step.resource.duration_minutes or UNKNOWN_DURATION


@dataclass(frozen=True)
class PlannedStep:
    step: object  # progress.path.StepProgress
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
        per_week = {}
        for index, step in enumerate(steps):
            week = weeks[index * len(weeks) // len(steps)]
            offset = per_week.get(week, 0)
            per_week[week] = offset + 1
            day = started_on + timedelta(weeks=week - 1, days=offset % 7)
            planned.append(PlannedStep(step=step, week=week, day=day))
    return planned


def code_minutes_by_week(progress) -> dict[int, int]:
    """Minutes of code each week of the plan asks for: three times its share of watching."""
    after_plan = progress.week.total + 1
    by_week = {}
    for stage_progress in progress.stages:
        weeks = stage_weeks(stage_progress.stage, after_plan)
        watching = sum(planned_minutes(step) for step in stage_progress.steps)
        for week in weeks:
            by_week[week] = by_week.get(week, 0) + GOAL * watching // len(weeks)
    return by_week


def daily_block(week_minutes: int) -> int:
    """A seventh of the week's code, rounded up to a quarter of an hour."""
    return math.ceil(week_minutes / 7 / CODE_ROUNDING) * CODE_ROUNDING


def at(day: date, moment: time, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, moment, tzinfo=zone)


def step_event(item: PlannedStep, *, zone, base_url, uid_suffix, now) -> Event:
    step = item.step
    event = Event()
    title = step.title
    event.add("uid", f"step-{step.step.pk}-{uid_suffix}")
    event.add("dtstamp", now)
    event.add("summary", f"✓ {title}" if step.is_done else title)
    minutes = planned_minutes(step)
    event.add("dtstart", at(item.day, WATCH_AT, zone))
    event.add("duration", timedelta(minutes=min(minutes or UNKNOWN_DURATION, LONGEST_SITTING)))
    lines = []
    if step.resource is not None and step.resource.duration_minutes:
        lines.append(gettext("Length: %(length)s") % {"length": duration(minutes)})
    if step.step.note:
        lines.append(step.step.note)
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
    week: int, offset: int, day: date, minutes: int, *, zone, base_url, uid_suffix, now
) -> Event:
    event = Event()
    event.add("uid", f"code-{week}-{offset}-{uid_suffix}")
    event.add("dtstamp", now)
    event.add("summary", gettext("Code time (1:3 rule)"))
    event.add("dtstart", at(day, CODE_AT, zone))
    event.add("duration", timedelta(minutes=minutes))
    event.add(
        "description",
        gettext("Week %(week)s of your plan: three hours of code for each hour of video.")
        % {"week": week},
    )
    event.add("url", base_url + reverse("progress:coding_log"))
    event.add("categories", ["Parcours"])
    return event


def plan_calendar(user, *, base_url: str, host: str) -> bytes:
    """The learner's plan as an iCalendar document, in their time zone and language."""
    progress = path_progress(user)
    zone = timezone.get_current_timezone()
    now = timezone.now()
    uid_suffix = f"learner-{user.pk}@{host}"
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
        calendar.add_component(
            step_event(item, zone=zone, base_url=base_url, uid_suffix=uid_suffix, now=now)
        )
    started_on = progress.profile.started_on
    code_by_week = code_minutes_by_week(progress) if progress.path else {}
    for week, minutes in sorted(code_by_week.items()):
        if not minutes:
            continue
        monday = started_on + timedelta(weeks=week - 1)
        for offset in range(7):
            calendar.add_component(
                code_event(
                    week,
                    offset,
                    monday + timedelta(days=offset),
                    daily_block(minutes),
                    zone=zone,
                    base_url=base_url,
                    uid_suffix=uid_suffix,
                    now=now,
                )
            )
    calendar.add_missing_timezones()
    return calendar.to_ical()
