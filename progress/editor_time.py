"""Time from the editor: raw heartbeats become minutes per day and project, as WakaTime counts.

A learner's consecutive heartbeats less than JOIN_GAP apart are joined and the gap between them
counts, for the project of the earlier one; a longer gap is a pause and counts nothing. Days are
the learner's, in their time zone: a gap across midnight is cut there, each day keeping its part
(as WakaTime does), so an evening that runs past midnight loses nothing. Heartbeats at the same
instant count in the order they were received.

How it is kept, at a cost that does not follow the learner's history. Invariant: for each learner,
day and project, the EditorDay row holds exactly (in microseconds) what coded_by_day_and_project
gives over all of the learner's heartbeats, and the coding session from the editor of that day and
project shows it rounded to the minute (none under half a minute, or when the project is not
counted). A new heartbeat changes only the gaps next to it, so record_heartbeats reads the stored
heartbeats within JOIN_GAP of the new ones (each new one's window [t - JOIN_GAP, t + JOIN_GAP],
overlapping windows merged), counts each window with and without the new heartbeats, and adds the
difference to the EditorDay rows and sessions it touches. A gap from inside a window to outside it
is the same before and after, or counts nothing in both: a new heartbeat lies JOIN_GAP or more from
its window's edges. So a request reads at most the heartbeats of half an hour around each new one,
whatever the learner's history, and no day is counted again from the start; the same bulk resent,
or heartbeats arriving out of order, never change a total (a heartbeat already stored is not new).
The learner's row is locked while a request writes, so that two requests of one learner are counted
one after the other.
"""

import uuid
from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from progress.models import MINUTES_IN_A_DAY, CodingSession, EditorDay, EditorProject, Heartbeat

JOIN_GAP = timedelta(minutes=15)
# Raw heartbeats are kept this long, then pruned (prune_heartbeats). A heartbeat older than
# ACCEPTED_AGE is acknowledged and dropped: its day may already have lost heartbeats to pruning,
# and recomputing it from what is left would shrink a total that was right.
HEARTBEAT_RETENTION = timedelta(days=16)
ACCEPTED_AGE = timedelta(days=14)
MICROSECOND = timedelta(microseconds=1)
MINUTE = 60_000_000  # microseconds
# Projects one learner may have, far more than a learner codes in (docs/editor.md): heartbeats of
# a project beyond it count under the unnamed project, so that looping on project names cannot
# fill the table and the learner's pages (tests/editor/test_project_cap.py).
MAX_PROJECTS_PER_LEARNER = 200


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


def microseconds_by_day(start: datetime, end: datetime, zone: ZoneInfo):
    """(day, microseconds) for each of the learner's days the span from start to end covers."""
    while start < end:
        day = start.astimezone(zone).date()
        cut = min(end, day_bounds(day, zone)[1])
        yield day, (cut - start) // MICROSECOND
        start = cut


def coded_by_day_and_project(beats: list[Beat], zone: ZoneInfo) -> dict[tuple[date, str], int]:
    """Microseconds coded per (day, project), every day and project a heartbeat falls on included:
    each gap under JOIN_GAP to the next heartbeat counts for the project of the earlier one, on
    the day or days it covers. Beats at the same instant are taken in the order given."""
    beats = sorted(beats, key=lambda beat: beat.time)
    coded: dict[tuple[date, str], int] = defaultdict(int)
    for beat in beats:
        coded[(beat.time.astimezone(zone).date(), beat.project)] += 0
    for earlier, later in pairwise(beats):
        if later.time - earlier.time < JOIN_GAP:
            for day, part in microseconds_by_day(earlier.time, later.time, zone):
                coded[(day, earlier.project)] += part
    return dict(coded)


def whole_minutes(microseconds: int) -> int:
    """Time rounded to the nearest minute (half a minute up), as the coding log shows it."""
    return (microseconds + MINUTE // 2) // MINUTE


def windows(instants) -> list[tuple[datetime, datetime]]:
    """The spans within JOIN_GAP of these instants, bounds included, merged where they meet."""
    spans: list[tuple[datetime, datetime]] = []
    for instant in sorted(instants):
        if spans and instant - JOIN_GAP <= spans[-1][1]:
            spans[-1] = (spans[-1][0], instant + JOIN_GAP)
        else:
            spans.append((instant - JOIN_GAP, instant + JOIN_GAP))
    return spans


@dataclass(frozen=True)
class HeartbeatIn:
    """A heartbeat as the editor sent it, checked, with only what Parcours keeps of it."""

    time: datetime
    entity_digest: str
    project: str = ""
    language: str = ""
    category: str = ""


def _lock_learner(user) -> None:
    """Hold the learner's row until the transaction ends: two requests of one learner are counted
    one after the other, the second seeing the first's heartbeats."""
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk"))


def within_project_cap(user, heartbeats: list[HeartbeatIn]) -> list[HeartbeatIn]:
    """The heartbeats, those of a project the learner would have beyond MAX_PROJECTS_PER_LEARNER
    moved to the unnamed project: their time still counts, and no project row is made for them.

    Under the learner's lock (record_heartbeats), so that two bulks count one after the other.
    """
    names = {beat.project for beat in heartbeats} - {""}
    if not names:
        return heartbeats
    known = set(EditorProject.objects.filter(user=user).values_list("name", flat=True))
    new = sorted(names - known)
    room = max(MAX_PROJECTS_PER_LEARNER - len(known - {""}), 0)
    refused = set(new[room:])
    if not refused:
        return heartbeats
    return [replace(beat, project="") if beat.project in refused else beat for beat in heartbeats]


@transaction.atomic
def record_heartbeats(*, user, heartbeats: list[HeartbeatIn], zone: ZoneInfo) -> None:
    """Keep the heartbeats (a repeat is ignored) and add what they change to the learner's time,
    in a fixed number of queries whatever the learner's history (see the module's invariant)."""
    if not heartbeats:
        return
    _lock_learner(user)
    heartbeats = within_project_cap(user, heartbeats)
    spans = windows(beat.time for beat in heartbeats)
    near = Q()
    for start, end in spans:
        near |= Q(time__gte=start, time__lte=end)
    stored = list(
        Heartbeat.objects.for_learner(user)
        .filter(near)
        .order_by("time", "pk")
        .values_list("time", "entity_digest", "project")
    )
    seen = {(at, digest) for at, digest, _project in stored}
    new = []
    for beat in heartbeats:
        if (beat.time, beat.entity_digest) not in seen:
            seen.add((beat.time, beat.entity_digest))
            new.append(beat)
    if not new:
        return
    Heartbeat.objects.bulk_create(
        [Heartbeat(user=user, **vars(beat)) for beat in new], ignore_conflicts=True
    )
    change: dict[tuple[date, str], int] = defaultdict(int)
    for start, end in spans:
        before = [Beat(at, project) for at, _digest, project in stored if start <= at <= end]
        arrived = [Beat(beat.time, beat.project) for beat in new if start <= beat.time <= end]
        for key, microseconds in coded_by_day_and_project(before + arrived, zone).items():
            change[key] += microseconds
        for key, microseconds in coded_by_day_and_project(before, zone).items():
            change[key] -= microseconds
    change = {key: value for key, value in change.items() if value}
    projects = _projects(user, {beat.project for beat in new} | {name for _, name in change})
    _add_time(user, change, projects)


def _projects(user, names: set[str]) -> dict[str, EditorProject]:
    """The learner's projects of these names, created on first sight."""
    learners = EditorProject.objects.for_learner(user)
    projects = {p.name: p for p in learners.filter(name__in=names)}
    if names - set(projects):
        EditorProject.objects.bulk_create(
            [EditorProject(user=user, name=name) for name in names - set(projects)],
            ignore_conflicts=True,
        )
        projects = {p.name: p for p in learners.filter(name__in=names)}
    return projects


def _add_time(user, change: dict[tuple[date, str], int], projects) -> None:
    """Add change (microseconds per day and project) to the learner's EditorDay rows, and show
    the new totals in their coding sessions."""
    if not change:
        return
    days = EditorDay.objects.filter(
        user=user, day__in={day for day, _ in change}, project__in={name for _, name in change}
    )
    totals = {(row.day, row.project): row.microseconds for row in days}
    totals = {key: totals.get(key, 0) + value for key, value in change.items()}
    EditorDay.objects.bulk_create(
        [EditorDay(user=user, day=day, project=name, microseconds=value)
         for (day, name), value in totals.items()],
        update_conflicts=True,
        unique_fields=["user", "day", "project"],
        update_fields=["microseconds"],
    )  # fmt: skip
    _write_sessions(
        user,
        {
            key: min(whole_minutes(value), MINUTES_IN_A_DAY) if projects[key[1]].counted else 0
            for key, value in totals.items()
        },
        projects,
    )


def _write_sessions(user, minutes: dict[tuple[date, str], int], projects) -> None:
    """Make the learner's editor sessions of these (day, project) show these minutes (0: no
    session), in at most four queries."""
    existing = {
        (session.day, session.editor_project): session
        for session in CodingSession.objects.for_learner(user)
        .from_editor()
        .filter(day__in={day for day, _ in minutes}, editor_project__in={n for _, n in minutes})
        if (session.day, session.editor_project) in minutes
    }
    changed = [
        session
        for key, session in existing.items()
        if minutes[key] and _set_total(session, minutes[key], projects[key[1]])
    ]
    if changed:
        CodingSession.objects.bulk_update(changed, ["minutes", "resource", "chapter"])
    gone = [session.pk for key, session in existing.items() if not minutes[key]]
    if gone:
        CodingSession.objects.filter(pk__in=gone).delete()
    created = [
        _editor_session(user, day, projects[name], value)
        for (day, name), value in minutes.items()
        if value and (day, name) not in existing
    ]
    if created:
        CodingSession.objects.bulk_create(created)


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
    _lock_learner(project.user)  # a heartbeat of this project is counted before or after
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
        days = EditorDay.objects.filter(user=project.user, project=project.name)
        minutes = {
            (row.day, project.name): min(whole_minutes(row.microseconds), MINUTES_IN_A_DAY)
            for row in days
        }
        _write_sessions(project.user, minutes, {project.name: project})
