"""The player's beats (progress/views/viewing.py): what was really played lands in one sitting per
viewing session; 95 % of the video played marks it watched, as the one-click does."""

import json
import uuid
from datetime import UTC, datetime

import pytest
import time_machine
from django.test import Client

from progress.models import Profile, Viewing, Watch, WatchEvent
from tests.factories import ResourceFactory

pytestmark = pytest.mark.django_db

START = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)
HOUR = 3600
EN = {"accept-language": "en"}


@pytest.fixture
def lecture(db):
    return ResourceFactory(
        slug="lecture",
        title="Reductions",
        duration_minutes=60,
        watch_url="https://youtu.be/09wntC6BT5o",
    )


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def beat(client, resource, key, ranges, duration=HOUR, **extra):
    body = {"viewing": str(key), "duration": duration, "ranges": ranges, **extra}
    return client.post(
        f"/resources/{resource.slug}/viewing/",
        json.dumps(body),
        content_type="application/json",
        headers=EN,
    )


# The player beats every 30 s; a test that plays most of an hour beats every 2 minutes (the server
# takes what was played since the last beat, whatever the interval): 30 requests instead of 120.
LONG_STEP = 120


def play(client, resource, key, start, end, clock, step=30, duration=HOUR):
    """Beats every `step` seconds of wall time while [start, end] plays at normal speed."""
    ranges, position = [], start
    response = beat(client, resource, key, [], duration)
    while position < end:
        clock.shift(step)
        position = min(position + step, end)
        ranges = [[start, position]]
        response = beat(client, resource, key, ranges, duration)
        assert response.status_code == 200, response.json()
    return response


def test_ten_minutes_played_land_in_one_sitting_of_ten_minutes(
    learner, learner_client, lecture, clock
):
    """Twenty beats of one session: one sitting, 10 minutes, the resume point at 10:00."""
    key = uuid.uuid4()
    response = play(learner_client, lecture, key, 0, 600, clock)
    assert response.json() | {"sitting": None} == {
        "recorded": True,
        "viewing": str(key),
        "session_seconds": 600,
        "watched_seconds": 600,
        "watched_minutes": 10,
        "sitting": None,
        "finished": False,
        "finished_now": False,
        "resume_seconds": 600,
        "announcement": "",
    }
    sitting = WatchEvent.objects.sittings().get()
    assert (sitting.user, sitting.logged_minutes, sitting.minutes) == (learner, 10, 10)
    assert response.json()["sitting"] == sitting.pk
    watch = Watch.objects.get(user=learner, resource=lecture)
    assert (watch.logged_minutes, watch.resume_seconds, watch.is_finished) == (10, 600, False)


def test_a_beat_sent_twice_counts_once(learner_client, lecture, clock):
    """The same ranges again add nothing: merging is idempotent."""
    key = uuid.uuid4()
    play(learner_client, lecture, key, 0, 300, clock)
    clock.shift(5)
    response = beat(learner_client, lecture, key, [[0, 300]])
    assert response.json()["session_seconds"] == 300
    assert WatchEvent.objects.sittings().get().logged_minutes == 5


def test_a_late_beat_after_a_newer_one_counts_nothing_twice(learner_client, lecture, clock):
    """Beat 3 arrives before beat 2: beat 2's ranges are already inside beat 3's."""
    key = uuid.uuid4()
    beat(learner_client, lecture, key, [])
    clock.shift(90)
    assert beat(learner_client, lecture, key, [[0, 90]]).status_code == 200
    clock.shift(1)
    response = beat(learner_client, lecture, key, [[0, 60]])
    assert response.status_code == 200
    assert response.json()["session_seconds"] == 90
    assert Viewing.objects.get().ranges == [[0, 90]]


def test_replaying_counts_once_and_skipped_seconds_do_not_count(learner_client, lecture, clock):
    """0 to 5 min, then seek to 20 min and play 2 min, then replay 0 to 5 min: 7 minutes."""
    key = uuid.uuid4()
    beat(learner_client, lecture, key, [])
    clock.shift(300)
    beat(learner_client, lecture, key, [[0, 300]])
    clock.shift(120)
    beat(learner_client, lecture, key, [[0, 300], [1200, 1320]])
    clock.shift(300)
    response = beat(learner_client, lecture, key, [[0, 300], [1200, 1320]])
    assert response.json()["session_seconds"] == 420
    assert Viewing.objects.get().ranges == [[0, 300], [1200, 1320]]
    assert WatchEvent.objects.sittings().get().logged_minutes == 7


def test_a_second_session_counts_only_what_the_first_did_not_play(
    learner, learner_client, lecture, clock
):
    """Reload, replay the first 10 minutes and go on to 15: the new sitting holds 5 minutes."""
    play(learner_client, lecture, uuid.uuid4(), 0, 600, clock)
    response = play(learner_client, lecture, uuid.uuid4(), 0, 900, clock)
    assert response.json()["watched_seconds"] == 900
    sittings = WatchEvent.objects.sittings().in_order()
    assert [sitting.logged_minutes for sitting in sittings] == [10, 5]
    assert Watch.objects.get(user=learner).watched_minutes == 15


def test_95_percent_played_marks_it_watched_as_the_one_click_does(
    learner, learner_client, lecture, clock
):
    """57 of 60 minutes over two sessions: watched, with the one-click's event; undo works."""
    play(learner_client, lecture, uuid.uuid4(), 0, 1800, clock, step=LONG_STEP)
    response = play(learner_client, lecture, uuid.uuid4(), 1800, 3420, clock, step=LONG_STEP)
    assert response.json()["finished_now"] is True
    assert response.json()["announcement"] == "“Reductions” is watched: you played 95 % of it."
    watch = Watch.objects.get(user=learner, resource=lecture)
    assert watch.is_finished and watch.watched_minutes == 60
    kinds = list(WatchEvent.objects.in_order().values_list("kind", "minutes"))
    assert kinds == [("sitting", 30), ("sitting", 27), ("finished", 3)]
    assert WatchEvent.objects.total_minutes() == 60
    learner_client.post(f"/resources/{lecture.slug}/not-watched/")
    watch.refresh_from_db()
    assert (watch.is_finished, watch.watched_minutes, watch.pk) == (False, 57, watch.pk)
    assert Watch.objects.count() == 1


def test_94_percent_played_is_not_watched(learner, learner_client, lecture, clock):
    play(learner_client, lecture, uuid.uuid4(), 0, 3384, clock, step=LONG_STEP)
    assert not Watch.objects.get(user=learner).is_finished


def test_a_session_that_reached_the_end_resumes_from_the_top(
    learner, learner_client, lecture, clock
):
    play(learner_client, lecture, uuid.uuid4(), 0, HOUR, clock, step=LONG_STEP)
    assert Watch.objects.get(user=learner).resume_seconds == 0


def test_an_automatic_sitting_is_corrected_and_deleted_like_a_typed_one(
    learner, learner_client, lecture, clock
):
    """Its minutes change through the sitting's own form; deleting it takes its viewing along."""
    play(learner_client, lecture, uuid.uuid4(), 0, 600, clock)
    sitting = WatchEvent.objects.sittings().get()
    learner_client.post(f"/sittings/{sitting.pk}/edit/", {"minutes": "8"})
    assert Watch.objects.get(user=learner).watched_minutes == 8
    learner_client.post(f"/sittings/{sitting.pk}/delete/")
    assert Watch.objects.get(user=learner).watched_minutes == 0
    assert not Viewing.objects.exists() and not WatchEvent.objects.sittings().exists()


def test_an_automatic_sitting_is_exported_and_counted_like_a_typed_one(
    learner, learner_client, lecture, clock
):
    """Ten minutes played and ten typed: the export lists two sittings alike, both watched."""
    play(learner_client, lecture, uuid.uuid4(), 0, 600, clock)
    learner_client.post(f"/resources/{lecture.slug}/sittings/", {"minutes": "10"})
    export = json.loads(learner_client.get("/settings/export.json").content)
    events = [
        (e["resource"], e["kind"], e["minutes"], e["logged_minutes"])
        for e in export["watch_events"]
    ]
    assert events == [("lecture", "sitting", 10, 10), ("lecture", "sitting", 10, 10)]
    assert Watch.objects.get(user=learner).watched_minutes == 20


def test_nothing_is_recorded_when_the_learner_turned_it_off(
    learner, learner_client, lecture, clock
):
    """409 with a JSON error; no row at all."""
    Profile.objects.for_learner(learner)
    Profile.objects.filter(user=learner).update(records_viewing=False)
    response = beat(learner_client, lecture, uuid.uuid4(), [[0, 30]])
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "recording_off"
    assert not Viewing.objects.exists() and not Watch.objects.exists()


def test_a_learner_without_a_profile_yet_is_recorded(learner, learner_client, lecture, clock):
    """Recording is on until the learner turns it off (accounts made by createsuperuser have no
    profile)."""
    Profile.objects.filter(user=learner).delete()
    response = beat(learner_client, lecture, uuid.uuid4(), [[0, 30]])
    assert response.status_code == 200
    assert Viewing.objects.get(user=learner).ranges == [[0, 30]]


def test_another_learners_session_of_the_same_key_is_never_touched(
    learner, other_learner, learner_client, lecture, clock
):
    """Grace's session and sitting stay as they were when Ada sends a beat with Grace's key."""
    key = uuid.uuid4()
    grace = Client()
    grace.force_login(other_learner)
    play(grace, lecture, key, 0, 600, clock)
    before = [list(model.objects.values()) for model in (Viewing, WatchEvent, Watch)]
    response = play(learner_client, lecture, key, 0, 120, clock)
    assert response.json()["session_seconds"] == 120
    assert Viewing.objects.filter(user=other_learner).get().ranges == [[0, 600]]
    for model, rows in zip((Viewing, WatchEvent, Watch), before, strict=True):
        assert [row for row in model.objects.values() if row["user_id"] == other_learner.pk] == rows


def test_a_key_of_another_video_is_refused(learner_client, lecture, clock):
    other = ResourceFactory(slug="other", watch_url="https://youtu.be/LuhJEEJQgUM")
    key = uuid.uuid4()
    beat(learner_client, lecture, key, [[0, 10]])
    response = beat(learner_client, other, key, [[0, 10]])
    assert (response.status_code, response.json()["error"]["field"]) == (400, "viewing")


BAD_BEATS = [
    ({"ranges": [[0, HOUR + 5]]}, "ranges"),
    ({"ranges": [[-5, 10]]}, "ranges"),
    ({"ranges": [[30, 10]]}, "ranges"),
    ({"ranges": [["0", 10]]}, "ranges"),
    ({"ranges": [[True, 10]]}, "ranges"),
    ({"ranges": [[0, 10, 20]]}, "ranges"),
    ({"ranges": [[0, 10]] * 501}, "ranges"),
    ({"ranges": "0-10"}, "ranges"),
    ({"ranges": [[0, 120]]}, "ranges"),  # two minutes in the first beat: more than wall time
    ({"duration": -1}, "duration"),
    ({"duration": 0}, "duration"),
    ({"duration": "3600"}, "duration"),
    ({"duration": True}, "duration"),
    ({"duration": 25 * HOUR}, "duration"),
    ({"viewing": "not-a-uuid"}, "viewing"),
    ({"viewing": 12}, "viewing"),
    ({"duration": 10**309}, "duration"),  # 310 digits: float() of it overflows
    ({"duration": float("inf")}, "duration"),
    ({"ranges": [[0, 10**400]]}, "ranges"),
    ({"ranges": [[-(10**400), 10]]}, "ranges"),
]


@pytest.mark.parametrize(("change", "field"), BAD_BEATS)
def test_a_bad_beat_is_refused_naming_its_field_and_writes_nothing(
    learner_client, lecture, clock, change, field
):
    body = {"viewing": str(uuid.uuid4()), "duration": HOUR, "ranges": [[0, 10]], **change}
    response = learner_client.post(
        "/resources/lecture/viewing/", json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["recorded"] is False
    assert response.json()["error"]["field"] == field
    assert response.json()["error"]["code"] == "bad_beat" and response.json()["error"]["message"]
    assert not Viewing.objects.exists() and not WatchEvent.objects.exists()
    assert not Watch.objects.exists()


def test_a_refused_beat_says_why_in_the_learners_language(learner_client, lecture, clock):
    """A range past the end, in French: the message names the video's length."""
    body = {"viewing": str(uuid.uuid4()), "duration": HOUR, "ranges": [[0, HOUR + 5]]}
    response = learner_client.post(
        "/resources/lecture/viewing/",
        json.dumps(body),
        content_type="application/json",
        headers={"accept-language": "fr"},
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "bad_beat",
        "field": "ranges",
        "message": "Chaque plage doit aller en avant, de 0 à la durée de la vidéo (3600 s).",
    }
    assert not Watch.objects.exists()


DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_FIELD = b'{"viewing": "6f1c1d52-2a55-4c64-9a39-5a7c7d1f0b11", "ranges": ' + DEEP + b"}"


@pytest.mark.parametrize("body", [b"", b"not json", b"[1, 2]", b"\xff", DEEP, DEEP_FIELD])
def test_a_body_that_is_not_a_json_object_is_refused(learner_client, lecture, body):
    response = learner_client.post(
        "/resources/lecture/viewing/", body, content_type="application/json"
    )
    assert (response.status_code, response.json()["error"]["field"]) == (400, "body")
    assert not Watch.objects.exists()


def test_more_played_than_wall_time_since_the_last_beat_is_refused(learner_client, lecture, clock):
    """30 s after a beat, 3 more minutes cannot have played even at 2x: 400, the session unchanged."""
    key = uuid.uuid4()
    play(learner_client, lecture, key, 0, 60, clock)
    clock.shift(30)
    response = beat(learner_client, lecture, key, [[0, 300]])
    assert (response.status_code, response.json()["error"]["field"]) == (400, "ranges")
    assert Viewing.objects.get().ranges == [[0, 60]]
    assert WatchEvent.objects.sittings().get().logged_minutes == 1


def test_twice_the_speed_is_allowed(learner_client, lecture, clock):
    """At 2x, 60 s of video per 30 s of wall time."""
    key = uuid.uuid4()
    beat(learner_client, lecture, key, [])
    for second in range(60, 601, 60):
        clock.shift(30)
        assert beat(learner_client, lecture, key, [[0, second]]).status_code == 200
    assert Viewing.objects.get().played_seconds == 600


@pytest.mark.parametrize("slug", ["no-such-resource", "elsewhere"])
def test_an_unknown_resource_or_one_without_a_video_is_refused(learner_client, lecture, slug):
    ResourceFactory(slug="elsewhere", watch_url="https://www.nvidia.com/on-demand/x/")
    response = beat(learner_client, ResourceFactory.build(slug=slug), uuid.uuid4(), [[0, 10]])
    assert (response.status_code, response.json()["error"]["field"]) == (400, "resource")
    assert not Watch.objects.exists()


def test_it_requires_the_csrf_header(learner, lecture):
    """Without the token the beat is refused; with the X-CSRFToken header it is recorded."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(learner)
    client.get("/resources/lecture/")
    body = json.dumps({"viewing": str(uuid.uuid4()), "duration": HOUR, "ranges": [[0, 10]]})
    url = "/resources/lecture/viewing/"
    refused = client.post(url, body, content_type="application/json")
    assert refused.status_code == 403
    assert not Viewing.objects.exists()
    token = client.cookies["csrftoken"].value
    accepted = client.post(
        url, body, content_type="application/json", headers={"X-CSRFToken": token}
    )
    assert accepted.status_code == 200
    assert Viewing.objects.count() == 1


def test_beats_beyond_the_rate_are_refused(learner_client, lecture, clock):
    """31 beats in a minute: the last is answered 429 and changes nothing."""
    key = uuid.uuid4()
    for _ in range(30):
        assert beat(learner_client, lecture, key, [[0, 10]]).status_code == 200
    response = beat(learner_client, lecture, key, [[0, 20]])
    assert response.status_code == 429
    assert Viewing.objects.get().ranges == [[0, 10]]


# The statements of a beat through the view, the signed-in floor's two (session, learner) included.
TYPICAL_BEAT_QUERIES = 9
MINUTE_BEAT_QUERIES = 11


def _session_after_earlier_ones(client, resource, clock, earlier_sessions):
    """A session that played 90 s (a sitting of 2 minutes) after earlier sessions and their
    sittings, 30 s ago."""
    for index in range(earlier_sessions):
        play(client, resource, uuid.uuid4(), index * 120, index * 120 + 90, clock)
    key = uuid.uuid4()
    play(client, resource, key, 2400, 2490, clock)
    clock.shift(30)
    return key


@pytest.mark.parametrize("earlier_sessions", [1, 10])
def test_a_typical_beat_runs_the_same_few_queries_whatever_the_history(
    learner, learner_client, lecture, clock, django_assert_num_queries, earlier_sessions
):
    """30 s more played, its sitting's minutes unchanged (120 s are still 2 minutes): the beat
    most sent while a video plays."""
    key = _session_after_earlier_ones(learner_client, lecture, clock, earlier_sessions)
    with django_assert_num_queries(TYPICAL_BEAT_QUERIES):
        response = beat(learner_client, lecture, key, [[2400, 2520]])
    assert response.json()["session_seconds"] == 120
    assert Watch.objects.get(user=learner).resume_seconds == 2520
    assert Viewing.objects.get(key=key).ranges == [[2400, 2520]]


def test_a_beat_sent_again_writes_no_resume_point(
    learner, learner_client, lecture, clock, django_assert_num_queries
):
    """The resume point has not moved: the watch row is left as it is, one statement fewer."""
    key = _session_after_earlier_ones(learner_client, lecture, clock, 1)
    with django_assert_num_queries(TYPICAL_BEAT_QUERIES - 1):
        response = beat(learner_client, lecture, key, [[2400, 2490]])
    assert response.json()["resume_seconds"] == 2490
    assert Watch.objects.get(user=learner).resume_seconds == 2490


@pytest.mark.parametrize("earlier_sessions", [1, 10])
def test_a_beat_that_adds_a_minute_runs_the_same_queries_whatever_the_history(
    learner, learner_client, lecture, clock, django_assert_num_queries, earlier_sessions
):
    """90 s more played: the sitting grows from 2 to 3 minutes, and the totals are recounted."""
    key = _session_after_earlier_ones(learner_client, lecture, clock, earlier_sessions)
    logged_before = Watch.objects.get(user=learner).logged_minutes
    with django_assert_num_queries(MINUTE_BEAT_QUERIES):
        response = beat(learner_client, lecture, key, [[2400, 2580]])
    assert response.json()["session_seconds"] == 180
    watch = Watch.objects.get(user=learner)
    assert (watch.logged_minutes, watch.resume_seconds) == (logged_before + 1, 2580)
    assert Viewing.objects.get(key=key).sitting.logged_minutes == 3


def test_the_export_holds_each_viewing_session_and_its_ranges(
    learner, learner_client, other_learner, lecture, clock
):
    """What the player recorded is the learner's data: in the JSON and the CSV export, with the
    ranges played; another learner's viewing, never."""
    import csv
    import io
    import zipfile

    key = uuid.uuid4()
    play(learner_client, lecture, key, 0, 300, clock)
    other = Client()
    other.force_login(other_learner)
    play(other, lecture, uuid.uuid4(), 600, 660, clock)

    document = learner_client.get("/settings/export.json").json()
    assert document["viewings"] == [
        {
            "resource": "lecture",
            "started_at": START.isoformat(),
            "beat_at": (START.replace(minute=5)).isoformat(),
            "played_seconds": 300,
            "duration_seconds": HOUR,
            "ranges": [[0, 300]],
        }
    ]
    archive = zipfile.ZipFile(io.BytesIO(learner_client.get("/settings/export.zip").content))
    [row] = csv.DictReader(io.StringIO(archive.read("viewings.csv").decode()))
    assert (row["resource"], row["played_seconds"], json.loads(row["ranges"])) == (
        "lecture",
        "300",
        [[0, 300]],
    )
