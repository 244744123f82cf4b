import csv
import io
import json
import zipfile
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from groups import actions
from tests.factories import (
    ArchitectureFactory,
    ChapterFactory,
    CodingSessionFactory,
    NoteFactory,
    PartFactory,
    ProfileFactory,
    ResourceFactory,
    WatchEventFactory,
    WatchFactory,
)

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")


@pytest.fixture
def history(learner, other_learner):
    """A learner who entered one of everything, and another learner with private data."""
    own_group = actions.create_group(owner=learner, name="Kernel club", display_name="Ada L.")
    graces_group = actions.create_group(owner=other_learner, name="Warp", display_name="Grace")
    invitation, _token = actions.create_link(group=graces_group, days=7, max_uses=2)
    joined = actions.join(user=learner, invitation=invitation, display_name="Ada", shares="coding")
    hopper = ArchitectureFactory(slug="hopper")
    lecture = ResourceFactory(slug="lecture-1")
    chapter = ChapterFactory(part=PartFactory(number=2), number=5)
    ProfileFactory(
        user=learner,
        architecture=hopper,
        started_on=date(2025, 1, 6),
        language="en",
        time_zone="Asia/Tokyo",
    )
    watch = WatchFactory(
        user=learner,
        resource=lecture,
        logged_minutes=30,
        finished_at=datetime(2025, 1, 7, 20, 0, tzinfo=PARIS),
    )
    event = WatchEventFactory(
        user=learner,
        resource=lecture,
        kind="sitting",
        minutes=30,
        logged_minutes=30,
        at=watch.finished_at,
    )
    session = CodingSessionFactory(
        user=learner,
        day=date(2025, 1, 8),
        minutes=95,
        built="A tiled <matmul> — «é»",
        code_url="https://example.com/code",
        resource=lecture,
        chapter=chapter,
    )
    note = NoteFactory(user=learner, resource=lecture, text="line one\nline two")
    NoteFactory(user=other_learner, resource=lecture, text="Grace's secret")
    CodingSessionFactory(user=other_learner, built="Grace's kernel")
    return {
        "watch": watch,
        "event": event,
        "session": session,
        "note": note,
        "memberships": [own_group.memberships.get(user=learner), joined],
    }


def test_the_json_export_has_the_format_tag_and_downloads(learner_client, history):
    """The JSON export is an attachment whose document names its format."""
    response = learner_client.get(reverse("accounts:export_json"))
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="parcours-export-')
    document = json.loads(response.content)
    assert document["format"] == "parcours-export/1"
    assert set(document) == {
        "format",
        "exported_at",
        "account",
        "profile",
        "watches",
        "watch_events",
        "viewings",
        "coding_sessions",
        "editor_projects",
        "editor_heartbeats",
        "kept_from_the_editor",
        "notes",
        "memberships",
        "weekly_digest",
        "digests",
        "daily_nudge",
        "nudges",
        "exercises_passed",
    }


def test_the_json_export_round_trips_every_field_the_learner_entered(
    learner_client, learner, history
):
    """Every value read back from the JSON equals what is in the database."""
    document = json.loads(learner_client.get(reverse("accounts:export_json")).content)
    watch, event, session, note = (history[k] for k in ("watch", "event", "session", "note"))
    assert document["account"]["username"] == learner.username
    assert document["account"]["email"] == learner.email
    assert document["profile"] == {
        "gpu_card": None,
        "architecture": "hopper",
        "started_on": "2025-01-06",
        "language": "en",
        "time_zone": "Asia/Tokyo",
        "records_viewing": True,
    }
    [exported_watch] = document["watches"]
    assert exported_watch["resource"] == "lecture-1"
    assert exported_watch["logged_minutes"] == 30
    assert datetime.fromisoformat(exported_watch["finished_at"]) == watch.finished_at
    [exported_event] = document["watch_events"]
    assert exported_event | {"at": None} == {
        "resource": "lecture-1",
        "kind": "sitting",
        "minutes": event.minutes,
        "logged_minutes": event.logged_minutes,
        "at": None,
    }
    assert datetime.fromisoformat(exported_event["at"]) == event.at
    [exported_session] = document["coding_sessions"]
    assert date.fromisoformat(exported_session["day"]) == session.day
    assert exported_session["minutes"] == session.minutes
    assert exported_session["built"] == session.built
    assert exported_session["code_url"] == session.code_url
    assert exported_session["resource"] == "lecture-1"
    assert exported_session["chapter"] == "2.5"
    assert datetime.fromisoformat(exported_session["created_at"]) == session.created_at
    [exported_note] = document["notes"]
    assert exported_note["resource"] == "lecture-1"
    assert exported_note["text"] == note.text
    assert document["memberships"] == [
        {
            "group": membership.group.name,
            "role": membership.role,
            "display_name": membership.display_name,
            "shares": membership.shares,
            "joined_at": membership.joined_at.isoformat(),
        }
        for membership in history["memberships"]
    ]


def test_the_export_never_holds_another_learners_data(learner_client, history):
    """Grace's note and session are not in Ada's export, JSON or CSV."""
    json_text = learner_client.get(reverse("accounts:export_json")).content.decode()
    archive = zipfile.ZipFile(
        io.BytesIO(learner_client.get(reverse("accounts:export_csv")).content)
    )
    csv_text = "".join(archive.read(name).decode() for name in archive.namelist())
    for text in (json_text, csv_text):
        assert "Grace" not in text


def test_the_csv_export_is_a_zip_with_one_file_per_kind(learner_client, history):
    """account, profile, watches, watch_events, coding_sessions and notes, each with a header row."""
    response = learner_client.get(reverse("accounts:export_csv"))
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert sorted(archive.namelist()) == [
        "account.csv",
        "coding_sessions.csv",
        "daily_nudge.csv",
        "digests.csv",
        "editor_heartbeats.csv",
        "editor_projects.csv",
        "exercises_passed.csv",
        "memberships.csv",
        "notes.csv",
        "nudges.csv",
        "profile.csv",
        "viewings.csv",
        "watch_events.csv",
        "watches.csv",
        "weekly_digest.csv",
    ]
    [session] = list(csv.DictReader(io.StringIO(archive.read("coding_sessions.csv").decode())))
    assert session["built"] == "A tiled <matmul> — «é»"
    assert session["chapter"] == "2.5" and session["minutes"] == "95"
    [note] = list(csv.DictReader(io.StringIO(archive.read("notes.csv").decode())))
    assert note["text"] == "line one\nline two"
    [event] = list(csv.DictReader(io.StringIO(archive.read("watch_events.csv").decode())))
    assert (event["kind"], event["logged_minutes"]) == ("sitting", "30")
    memberships = list(csv.DictReader(io.StringIO(archive.read("memberships.csv").decode())))
    assert [
        (row["group"], row["role"], row["display_name"], row["shares"]) for row in memberships
    ] == [
        ("Kernel club", "owner", "Ada L.", "progress"),
        ("Warp", "member", "Ada", "coding"),
    ]
    joined_at = [datetime.fromisoformat(row["joined_at"]) for row in memberships]
    assert joined_at == [membership.joined_at for membership in history["memberships"]]


def test_a_learner_with_nothing_gets_empty_lists_and_headers(learner_client):
    """No profile, no rows: the shapes stay the same."""
    document = json.loads(learner_client.get(reverse("accounts:export_json")).content)
    assert document["profile"] is None
    assert document["coding_sessions"] == [] and document["notes"] == []
    assert document["memberships"] == []
    assert document["daily_nudge"] is None and document["nudges"] == []
    assert document["weekly_digest"] is None and document["digests"] == []
    archive = zipfile.ZipFile(
        io.BytesIO(learner_client.get(reverse("accounts:export_csv")).content)
    )
    assert archive.read("coding_sessions.csv").decode().startswith("day,minutes,built,")
    assert archive.read("memberships.csv").decode() == "group,role,display_name,shares,joined_at\n"


def test_the_export_issues_a_fixed_number_of_queries(
    learner_client, history, django_assert_num_queries
):
    """Session, user, then one query per kind of data."""
    with django_assert_num_queries(16):
        learner_client.get(reverse("accounts:export_json"))


def test_anonymous_visitors_get_no_export(client, history):
    """Exports need an account."""
    assert client.get(reverse("accounts:export_json")).status_code == 302
    assert client.get(reverse("accounts:export_csv")).status_code == 302


def test_the_daily_nudge_and_the_days_it_went_are_exported(learner_client, learner, other_learner):
    """The hour asked for and each day's nudge, in JSON and CSV; another learner's, never."""
    from reminders.models import Nudge, NudgeSubscription

    subscription = NudgeSubscription.objects.create(user=learner, hour=18)
    Nudge.objects.create(
        user=learner,
        day=date(2025, 1, 8),
        status=Nudge.Status.SENT,
        sent_at=datetime(2025, 1, 8, 18, 5, tzinfo=PARIS),  # exported in UTC
    )
    Nudge.objects.create(user=learner, day=date(2025, 1, 9), status=Nudge.Status.SKIPPED)
    Nudge.objects.create(user=other_learner, day=date(2025, 1, 7), status=Nudge.Status.SENT)
    document = json.loads(learner_client.get(reverse("accounts:export_json")).content)
    assert document["daily_nudge"] == {
        "hour": 18,
        "subscribed_at": subscription.subscribed_at.isoformat(),
    }
    assert document["nudges"] == [
        {"day": "2025-01-08", "status": "sent", "sent_at": "2025-01-08T17:05:00+00:00"},
        {"day": "2025-01-09", "status": "skipped", "sent_at": None},
    ]
    archive = zipfile.ZipFile(
        io.BytesIO(learner_client.get(reverse("accounts:export_csv")).content)
    )
    rows = list(csv.DictReader(io.StringIO(archive.read("nudges.csv").decode())))
    assert [(row["day"], row["status"], row["sent_at"]) for row in rows] == [
        ("2025-01-08", "sent", "2025-01-08T17:05:00+00:00"),
        ("2025-01-09", "skipped", ""),
    ]
    assert archive.read("daily_nudge.csv").decode().startswith("hour,subscribed_at\n18,")


def test_the_export_says_when_the_player_s_recording_is_off(learner_client, learner):
    """The learner's choice about the player is theirs too: in the JSON and in profile.csv."""
    ProfileFactory(user=learner, records_viewing=False)
    document = json.loads(learner_client.get(reverse("accounts:export_json")).content)
    assert document["profile"]["records_viewing"] is False
    archive = zipfile.ZipFile(
        io.BytesIO(learner_client.get(reverse("accounts:export_csv")).content)
    )
    [profile] = list(csv.DictReader(io.StringIO(archive.read("profile.csv").decode())))
    assert profile["records_viewing"] == "False"


def test_the_weekly_digest_and_the_weeks_it_went_are_exported(
    learner_client, learner, other_learner
):
    """The weekday asked for and each week's digest, in JSON and CSV; another learner's, never."""
    from reminders.models import Digest, DigestSubscription

    subscription = DigestSubscription.objects.create(user=learner, weekday=4)
    Digest.objects.create(
        user=learner, week=date(2025, 1, 13), sent_at=datetime(2025, 1, 17, 9, 0, tzinfo=PARIS)
    )
    Digest.objects.create(user=learner, week=date(2025, 1, 20))
    Digest.objects.create(user=other_learner, week=date(2025, 1, 6))
    document = json.loads(learner_client.get(reverse("accounts:export_json")).content)
    assert document["weekly_digest"] == {
        "weekday": 4,
        "subscribed_at": subscription.subscribed_at.isoformat(),
    }
    assert document["digests"] == [
        {"week": "2025-01-13", "sent_at": "2025-01-17T08:00:00+00:00"},
        {"week": "2025-01-20", "sent_at": None},
    ]
    archive = zipfile.ZipFile(
        io.BytesIO(learner_client.get(reverse("accounts:export_csv")).content)
    )
    rows = list(csv.DictReader(io.StringIO(archive.read("digests.csv").decode())))
    assert [(row["week"], row["sent_at"]) for row in rows] == [
        ("2025-01-13", "2025-01-17T08:00:00+00:00"),
        ("2025-01-20", ""),
    ]
    assert archive.read("weekly_digest.csv").decode().startswith("weekday,subscribed_at\n4,")
