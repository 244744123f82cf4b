"""Everything a learner entered, as one JSON document or a zip of CSV files (docs/export.md)."""

import csv
import io
import zipfile

from django.utils import timezone

from groups.models import Membership
from practice.models import Submission
from progress.editor_time import HEARTBEAT_RETENTION
from progress.models import (
    CodingSession,
    EditorProject,
    Heartbeat,
    Note,
    Profile,
    Viewing,
    Watch,
    WatchEvent,
)
from reminders.models import Digest, DigestSubscription, Nudge, NudgeSubscription

FORMAT = "parcours-export/1"

COLUMNS = {
    "account": ["username", "email", "date_joined"],
    "profile": [
        "gpu_card",
        "architecture",
        "started_on",
        "language",
        "time_zone",
        "records_viewing",
    ],
    "watches": ["resource", "logged_minutes", "finished_at", "skipped_at", "updated_at"],
    "watch_events": ["resource", "kind", "minutes", "logged_minutes", "at"],
    "viewings": [
        "resource",
        "started_at",
        "beat_at",
        "played_seconds",
        "duration_seconds",
        "ranges",
    ],
    "coding_sessions": [
        "day",
        "minutes",
        "built",
        "code_url",
        "resource",
        "chapter",
        "created_at",
        "source",
        "editor_project",
    ],
    "editor_projects": ["name", "resource", "chapter", "counted"],
    "editor_heartbeats": ["time", "project", "language", "category"],
    "notes": ["resource", "text", "updated_at"],
    "memberships": ["group", "role", "display_name", "shares", "joined_at"],
    "weekly_digest": ["weekday", "subscribed_at"],
    "digests": ["week", "sent_at"],
    "daily_nudge": ["hour", "subscribed_at"],
    "nudges": ["day", "status", "sent_at"],
    "exercises_passed": ["exercise", "first_passed_at", "submissions"],
}


def iso(value):
    return value.isoformat() if value is not None else None


def chapter_label(chapter):
    """A chapter as "part.chapter", e.g. "2.5"."""
    return f"{chapter.part.number}.{chapter.number}" if chapter else None


def export_rows(user):
    """Each kind of data the learner entered, as lists of plain dicts keyed by COLUMNS."""
    profile = Profile.objects.select_related("architecture", "gpu_card").filter(user=user).first()
    return {
        "account": [
            {
                "username": user.get_username(),
                "email": user.email,
                "date_joined": iso(user.date_joined),
            }
        ],
        "profile": [
            {
                "gpu_card": profile.gpu_card.slug if profile.gpu_card else None,
                "architecture": profile.architecture.slug if profile.architecture else None,
                "started_on": iso(profile.started_on),
                "language": profile.language,
                "time_zone": profile.time_zone,
                "records_viewing": profile.records_viewing,
            }
        ]
        if profile
        else [],
        "watches": [
            {
                "resource": watch.resource.slug,
                "logged_minutes": watch.logged_minutes,
                "finished_at": iso(watch.finished_at),
                "skipped_at": iso(watch.skipped_at),
                "updated_at": iso(watch.updated_at),
            }
            for watch in Watch.objects.filter(user=user).select_related("resource").order_by("pk")
        ],
        "watch_events": [
            {
                "resource": event.resource.slug,
                "kind": event.kind,
                "minutes": event.minutes,
                "logged_minutes": event.logged_minutes,
                "at": iso(event.at),
            }
            for event in WatchEvent.objects.filter(user=user)
            .select_related("resource")
            .order_by("at", "pk")
        ],
        "viewings": [
            {
                "resource": viewing.resource.slug,
                "started_at": iso(viewing.started_at),
                "beat_at": iso(viewing.beat_at),
                "played_seconds": viewing.played_seconds,
                "duration_seconds": viewing.duration_seconds,
                "ranges": viewing.ranges,
            }
            for viewing in Viewing.objects.for_learner(user)
            .select_related("resource")
            .order_by("started_at", "pk")
        ],
        "coding_sessions": [
            {
                "day": iso(session.day),
                "minutes": session.minutes,
                "built": session.built,
                "code_url": session.code_url,
                "resource": session.resource.slug if session.resource else None,
                "chapter": chapter_label(session.chapter),
                "created_at": iso(session.created_at),
                "source": session.source,
                "editor_project": session.editor_project,
            }
            for session in CodingSession.objects.for_learner(user)
            .select_related("resource", "chapter__part")
            .order_by("day", "created_at", "pk")
        ],
        "editor_projects": [
            {
                "name": project.name,
                "resource": project.resource.slug if project.resource else None,
                "chapter": chapter_label(project.chapter),
                "counted": project.counted,
            }
            for project in EditorProject.objects.for_learner(user).for_list()
        ],
        "editor_heartbeats": [
            {"time": iso(at), "project": project, "language": language, "category": category}
            for at, project, language, category in Heartbeat.objects.for_learner(user)
            .order_by("time", "pk")
            .values_list("time", "project", "language", "category")
        ],
        "notes": [
            {"resource": note.resource.slug, "text": note.text, "updated_at": iso(note.updated_at)}
            for note in Note.objects.for_learner(user).select_related("resource").order_by("pk")
        ],
        "memberships": [
            {
                "group": membership.group.name,
                "role": membership.role,
                "display_name": membership.display_name,
                "shares": membership.shares,
                "joined_at": iso(membership.joined_at),
            }
            for membership in Membership.objects.filter(user=user)
            .select_related("group")
            .by_seniority()
        ],
        "weekly_digest": [
            {"weekday": weekday, "subscribed_at": iso(subscribed_at)}
            for weekday, subscribed_at in DigestSubscription.objects.filter(user=user).values_list(
                "weekday", "subscribed_at"
            )
        ],
        "digests": [
            {"week": iso(week), "sent_at": iso(sent_at)}
            for week, sent_at in Digest.objects.filter(user=user)
            .order_by("week")
            .values_list("week", "sent_at")
        ],
        "daily_nudge": [
            {"hour": hour, "subscribed_at": iso(subscribed_at)}
            for hour, subscribed_at in NudgeSubscription.objects.filter(user=user).values_list(
                "hour", "subscribed_at"
            )
        ],
        "nudges": [
            {"day": iso(day), "status": status, "sent_at": iso(sent_at)}
            for day, status, sent_at in Nudge.objects.filter(user=user)
            .order_by("day")
            .values_list("day", "status", "sent_at")
        ],
        "exercises_passed": [
            {"exercise": slug, "first_passed_at": iso(first), "submissions": count}
            for slug, first, count in Submission.objects.for_learner(user)
            .passed_with_counts()
            .values_list("exercise__slug", "first_passed_at", "submissions")
        ],
    }


def export_document(user):
    """The JSON export: the format tag, when it was made, then every kind of data."""
    rows = export_rows(user)
    profile = rows.pop("profile")
    account = rows.pop("account")
    rows["weekly_digest"] = rows["weekly_digest"][0] if rows["weekly_digest"] else None
    rows["daily_nudge"] = rows["daily_nudge"][0] if rows["daily_nudge"] else None
    return {
        "format": FORMAT,
        "exported_at": iso(timezone.now()),
        "account": account[0],
        "profile": profile[0] if profile else None,
        **rows,
        "kept_from_the_editor": KEPT_FROM_THE_EDITOR,
    }


# What the export says of the editor's heartbeats (docs/editor.md, "What is kept").
KEPT_FROM_THE_EDITOR = {
    "heartbeats": "time, project, language and category of each heartbeat; the file's path only "
    "as a SHA-256 digest (to drop repeats), the branch not at all",
    "heartbeats_kept_days": HEARTBEAT_RETENTION.days,
    "totals": "coding_sessions with source 'editor': one per day and project, kept like the others",
}


# Spreadsheets run a cell that starts with one of these as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value):
    """A CSV cell a spreadsheet shows as text: a quote before a leading formula character.

    Numbers are left alone, so negative minutes stay numbers; JSON keeps every value exact.
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def export_zip(user):
    """The CSV export: a zip holding one CSV file per kind of data, with a header row each."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for kind, rows in export_rows(user).items():
            text = io.StringIO()
            writer = csv.DictWriter(text, fieldnames=COLUMNS[kind], lineterminator="\n")
            writer.writeheader()
            writer.writerows(
                {field: spreadsheet_safe(value) for field, value in row.items()} for row in rows
            )
            archive.writestr(f"{kind}.csv", text.getvalue())
    return buffer.getvalue()
