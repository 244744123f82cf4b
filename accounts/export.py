"""Everything a learner entered, as one JSON document or a zip of CSV files (see README, "Export format")."""

import csv
import io
import zipfile

from django.utils import timezone

from groups.models import Membership
from progress.models import CodingSession, Note, Profile, Watch, WatchEvent

FORMAT = "parcours-export/1"

COLUMNS = {
    "account": ["username", "email", "date_joined"],
    "profile": ["gpu_card", "architecture", "started_on", "language", "time_zone"],
    "watches": ["resource", "logged_minutes", "finished_at", "updated_at"],
    "watch_events": ["resource", "kind", "minutes", "logged_minutes", "at"],
    "coding_sessions": ["day", "minutes", "built", "code_url", "resource", "chapter", "created_at"],
    "notes": ["resource", "text", "updated_at"],
    "memberships": ["group", "role", "display_name", "shares", "joined_at"],
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
            }
        ]
        if profile
        else [],
        "watches": [
            {
                "resource": watch.resource.slug,
                "logged_minutes": watch.logged_minutes,
                "finished_at": iso(watch.finished_at),
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
        "coding_sessions": [
            {
                "day": iso(session.day),
                "minutes": session.minutes,
                "built": session.built,
                "code_url": session.code_url,
                "resource": session.resource.slug if session.resource else None,
                "chapter": chapter_label(session.chapter),
                "created_at": iso(session.created_at),
            }
            for session in CodingSession.objects.for_learner(user)
            .select_related("resource", "chapter__part")
            .order_by("day", "created_at", "pk")
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
    }


def export_document(user):
    """The JSON export: the format tag, when it was made, then every kind of data."""
    rows = export_rows(user)
    profile = rows.pop("profile")
    account = rows.pop("account")
    return {
        "format": FORMAT,
        "exported_at": iso(timezone.now()),
        "account": account[0],
        "profile": profile[0] if profile else None,
        **rows,
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
