"""Time from the editor: raw heartbeats become minutes per day and project, as WakaTime counts.

A learner's consecutive heartbeats less than JOIN_GAP apart are joined and the gap between them
counts, for the project of the earlier one; a longer gap is a pause and counts nothing. Days are
the learner's, in their time zone: a gap across midnight is cut there, each day keeping its part
(as WakaTime does), so an evening that runs past midnight loses nothing. A day's total is always
recomputed from that day's heartbeats and those within JOIN_GAP of it, so a bulk sent twice or
heartbeats arriving out of order never change it.
"""

import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.db import transaction

from lib.time_zone import zone_or_default
from progress.models import MINUTES_IN_A_DAY, CodingSession, EditorProject, Heartbeat, Profile

JOIN_GAP = timedelta(minutes=15)
# Raw heartbeats are kept this long, then pruned (prune_heartbeats). A heartbeat older than
# ACCEPTED_AGE is acknowledged and dropped: its day may already have lost heartbeats to pruning,
# and recomputing it from what is left would shrink a total that was right.
HEARTBEAT_RETENTION = timedelta(days=16)
ACCEPTED_AGE = timedelta(days=14)


@dataclass(frozen=True)
class Beat:
    """What counting needs of a heartbeat: when, and in which project."""

    time: datetime
    project: str


def day_bounds(day: date, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """The instants a learner's day starts and ends (excluded), in their zone."""
    start = datetime.combine(day, time.min, tzinfo=zone)
    end = datetime.combine(day + timedelta(days=1), time.min, tzinfo=zone)
    return start, end


def days_of(instants, zone: ZoneInfo) -> set[date]:
    """The learner's days whose totals heartbeats at these instants change: their own, and the
    day before or after when a gap to a neighbour across midnight may join them."""
    return {
        (instant + shift).astimezone(zone).date()
        for instant in instants
        for shift in (-JOIN_GAP, timedelta(0), JOIN_GAP)
    }


def seconds_by_day(start: datetime, end: datetime, zone: ZoneInfo):
    """(day, seconds) for each of the learner's days the span from start to end covers."""
    while start < end:
        day = start.astimezone(zone).date()
        cut = min(end, day_bounds(day, zone)[1])
        yield day, (cut - start).total_seconds()
        start = cut


def seconds_by_day_and_project(beats: list[Beat], zone: ZoneInfo) -> dict[tuple[date, str], float]:
    """Seconds coded per (day, project): each gap under JOIN_GAP to the next heartbeat counts for
    the project of the earlier heartbeat, on the day or days it covers."""
    beats = sorted(beats, key=lambda beat: beat.time)
    seconds: dict[tuple[date, str], float] = defaultdict(float)
    for beat in beats:
        seconds[(beat.time.astimezone(zone).date(), beat.project)] += 0.0
    for earlier, later in pairwise(beats):
        if later.time - earlier.time < JOIN_GAP:
            for day, part in seconds_by_day(earlier.time, later.time, zone):
                seconds[(day, earlier.project)] += part
    return dict(seconds)


def whole_minutes(seconds: float) -> int:
    """Seconds rounded to the nearest minute, as the coding log shows them."""
    return int(seconds / 60 + 0.5)


@dataclass(frozen=True)
class HeartbeatIn:
    """A heartbeat as the editor sent it, checked, with only what Parcours keeps of it."""

    time: datetime
    entity_digest: str
    project: str = ""
    language: str = ""
    category: str = ""


def _lock_learner(user) -> None:
    """Hold the learner's row until the transaction ends: two bulks of one learner are counted
    one after the other, the second seeing the first's heartbeats."""
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk"))


@transaction.atomic
def record_heartbeats(*, user, heartbeats: list[HeartbeatIn], zone: ZoneInfo) -> None:
    """Keep the heartbeats (a repeat is ignored) and recount the days they fall on."""
    if not heartbeats:
        return
    _lock_learner(user)
    Heartbeat.objects.bulk_create(
        [Heartbeat(user=user, **vars(beat)) for beat in heartbeats], ignore_conflicts=True
    )
    _recount_days(user, days_of((beat.time for beat in heartbeats), zone), zone)


def _recount_days(user, days: set[date], zone: ZoneInfo) -> None:
    """Rewrite the learner's time from the editor on these days from the raw heartbeats."""
    start, end = day_bounds(min(days), zone)[0], day_bounds(max(days), zone)[1]
    rows = Heartbeat.objects.for_learner(user).between(start - JOIN_GAP, end + JOIN_GAP)
    beats = [Beat(at, project) for at, project in rows.values_list("time", "project")]
    seconds = {
        key: value
        for key, value in seconds_by_day_and_project(beats, zone).items()
        if key[0] in days
    }
    projects = _projects(user, {project for _day, project in seconds})
    totals = {
        key: min(whole_minutes(value), MINUTES_IN_A_DAY)
        for key, value in seconds.items()
        if projects[key[1]].counted and whole_minutes(value) >= 1
    }
    _write_totals(user, days, totals, projects)


def _projects(user, names: set[str]) -> dict[str, EditorProject]:
    """The learner's projects of these names, created on first sight."""
    EditorProject.objects.bulk_create(
        [EditorProject(user=user, name=name) for name in names], ignore_conflicts=True
    )
    return {p.name: p for p in EditorProject.objects.for_learner(user).filter(name__in=names)}


def _write_totals(user, days, totals: dict[tuple[date, str], int], projects) -> None:
    """Make the learner's editor sessions on these days equal totals, in at most four queries."""
    existing = {
        (session.day, session.editor_project): session
        for session in CodingSession.objects.for_learner(user).from_editor().filter(day__in=days)
    }
    changed = []
    for key, session in existing.items():
        project = projects.get(key[1])
        if key in totals and _set_total(session, totals[key], project):
            changed.append(session)
    CodingSession.objects.bulk_update(changed, ["minutes", "resource", "chapter"])
    gone = [session.pk for key, session in existing.items() if key not in totals]
    if gone:
        CodingSession.objects.filter(pk__in=gone).delete()
    CodingSession.objects.bulk_create(
        [
            _editor_session(user, day, projects[name], minutes)
            for (day, name), minutes in totals.items()
            if (day, name) not in existing
        ]
    )


def _set_total(session: CodingSession, minutes: int, project: EditorProject) -> bool:
    """Give the session its new minutes and its project's tie; True when anything changed."""
    before = (session.minutes, session.resource_id, session.chapter_id)
    session.minutes = minutes
    session.resource_id, session.chapter_id = project.resource_id, project.chapter_id
    return before != (session.minutes, session.resource_id, session.chapter_id)


def _editor_session(user, day: date, project: EditorProject, minutes: int) -> CodingSession:
    return CodingSession(
        user=user,
        day=day,
        minutes=minutes,
        built=project.name,
        editor_project=project.name,
        source=CodingSession.Source.EDITOR,
        resource_id=project.resource_id,
        chapter_id=project.chapter_id,
        idempotency_key=uuid.uuid4(),
    )


@transaction.atomic
def tie_editor_project(*, project: EditorProject, resource=None, chapter=None, counted=True):
    """Tie a project to a resource or a chapter (or to nothing), or stop counting its time; the
    project's sessions follow at once."""
    # Read from the database: a ModelForm has already set the new values on project.
    stored = EditorProject.objects.select_for_update().filter(pk=project.pk)
    was_counted = stored.values_list("counted", flat=True).get()
    project.resource, project.chapter, project.counted = resource, chapter, counted
    project.save(update_fields=["resource", "chapter", "counted"])
    sessions = CodingSession.objects.for_learner(project.user).from_editor()
    sessions = sessions.filter(editor_project=project.name)
    if not counted:
        sessions.delete()
    elif was_counted:
        sessions.update(resource=resource, chapter=chapter)
    else:
        _recount_project(project)


def _recount_project(project: EditorProject) -> None:
    """Count again the days the project has heartbeats on (those still kept)."""
    name = Profile.objects.filter(user=project.user).values_list("time_zone", flat=True).first()
    zone = zone_or_default(name or "")
    times = Heartbeat.objects.for_learner(project.user).filter(project=project.name)
    days = days_of(times.values_list("time", flat=True), zone)
    if days:
        _recount_days(project.user, days, zone)
