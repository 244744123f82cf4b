"""Every page's queries, in one table: the same fixed count at 1x and 10x data, for a visitor and
for a learner (and the curators' page for a curator). A page's own tests say what it shows; this
file alone says what it costs. Data is the seed plus `world`, written with bulk_create.

At 10x: 580 more resources in 58 series, each paired in the guide and tagged with an
architecture, 50 more steps on the suggested path, the learner and another each with 290
resources watched, 50 sittings, 600 coding sessions and 50 notes, 1,000 more learners of whom 10
have a history too, a group of 52 members who share their coding, 30 access tokens. The learner's
own sessions are 5,000 at 10x, a week apart modulo 1,000 days: they fall on every one of the last
1,000 days, a 1,000-day streak (at 1x, 60 sessions and none), so that a page whose queries or
rows follow the length of a streak fails here (issue 38, item 8).
"""

import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from api.models import AccessToken
from curriculum.models import Path, Resource
from groups import actions as group_actions
from groups.models import Membership
from practice.models import Exercise, Submission
from progress import actions
from progress.models import Profile, WatchEvent
from tests import bulk

pytestmark = pytest.mark.django_db

# (who, page, queries). Signed in, every page starts with the session and the user (2).
PAGES = [
    # The curriculum comes from structure.py, built once per process and revision: a visitor's
    # catalogue, guide or resource page reads only the revision token.
    ("visitor", "/resources/", 1),
    ("visitor", "/resources/?q=CUTLASS", 1),
    ("visitor", "/resources/?q=kernel&kind=lecture&guide=9", 1),
    ("visitor", "/resources/?state=watched", 1),
    ("visitor", "/resources/gpu-mode-15/", 1),
    ("visitor", "/resources/more-1/", 1),
    ("visitor", "/guide/", 1),
    ("visitor", "/", 0),
    ("visitor", "/path/", 1),
    ("visitor", "/share/{share_token}/", 8),
    # + the revision token, then the learner's watch rows (progress/catalogue.py).
    ("learner", "/resources/", 4),
    ("learner", "/resources/?q=CUTLASS", 4),
    ("learner", "/resources/?state=in_progress", 4),
    ("learner", "/resources/?state=nope&q=kernels", 4),
    # + the revision token, then the learner's rows for the page, one QuerySet each: the watch
    # row, the recording setting (for a video's player alone), the sittings, the minutes, the
    # latest sessions, the note (progress/resource_learner.py); + the exercises after the
    # resource, each passed or not (practice/pages.py).
    ("learner", "/resources/gpu-mode-15/", 10),
    ("learner", "/resources/more-1/", 9),
    ("learner", "/guide/", 3),
    # + the revision token, the profile, the watch rows, the minutes per resource (one UNION),
    # the minutes coded per day (the day's target and the streak), the exercise to check after a
    # lecture and its code time (progress/dashboard.py).
    ("learner", "/", 8),
    ("learner", "/path/", 8),
    # + the revision token, the learner's minutes per resource (balances and count of sessions),
    # one page of sessions, the editor's projects, the exercises passed with the minutes coded on
    # each one's resource (progress/coding_log.py).
    ("learner", "/coding/?page=2", 7),
    # + minutes coded per day, minutes watched per day, finished per kind (progress/stats.py),
    # the count of exercises passed.
    ("learner", "/stats/", 6),
    # + the revision token, the page's days (one UNION), their watching events, coding sessions
    # and submissions, the videos begun (progress/timeline.py).
    ("learner", "/history/", 8),
    # + one query: the learner with their profile, their reminders and the revision token
    # (accounts/settings_page.py).
    ("learner", "/settings/", 3),
    ("learner", "/settings/tokens/", 3),
    ("learner", "/settings/editor/", 3),
    ("learner", "/settings/share/", 3),
    ("learner", "/groups/", 4),
    # + the revision token, the members with their profiles and figures, their days with code and
    # finished architecture talks, this week's shared sessions, the exercises passed by those who
    # share their coding (groups/board.py).
    ("learner", "/groups/{group}/", 7),
    ("learner", "/groups/{group}/manage/", 6),
    # + the exercise with its resource, the learner's latest submissions of it, whether one passed.
    ("learner", "/practice/{exercise}/", 5),
    ("learner", "/share/{share_token}/", 10),
    ("curator", "/curators/progress/", 14),
]


@pytest.fixture(params=[1, 10], ids=["1x", "10x"])
def world(request, seed, learner, other_learner, curator):
    """The seed, then scale times: more catalogue, more path, and histories for many learners."""
    scale = request.param
    gpu = bulk.architecture("bulk-gpu")
    more = bulk.resources(58 * scale, "more", keywords="CUTLASS, kernel", architecture=gpu)
    bulk.steps(Path.objects.suggested(), more[: 5 * scale], f"More, x{scale}")
    chapter = bulk.chapter(scale)
    half = len(more) // 2
    others = bulk.users(100 * scale, "other")
    for user in (learner, other_learner, *others[:scale]):
        bulk.watched(user, more[:half])
        bulk.sittings(user, more[half : half + 5 * scale], 30)
        if user == learner and scale > 1:
            bulk.coding_sessions(user, 5_000, more, chapter, days=1_000)
        else:
            bulk.coding_sessions(user, 60 * scale, more, chapter)
        bulk.notes(user, more[: 5 * scale])
    Profile.objects.filter(user=learner).update(architecture=gpu)
    Profile.objects.get_or_create(user=learner, defaults={"architecture": gpu})
    group = group_actions.create_group(owner=learner, name="Kernels", display_name="Ada")
    Membership.objects.bulk_create(
        Membership(group=group, user=user, display_name=user.username, shares="coding")
        for user in (other_learner, *others[: 5 * scale])
    )
    for number in range(3 * scale):
        AccessToken.objects.create_for(user=learner, name=f"token {number}", scope="read")
    _link, share_token = group_actions.share(user=learner, display_name="Ada")
    exercise = Exercise.objects.create(
        slug="vector-add", title_fr="Addition", resource=more[0], folder="vector-add"
    )
    Submission.objects.bulk_create(
        Submission(learner=user, exercise=exercise, code="pass", verdict="failed")
        for user in (learner, other_learner)
        for _ in range(5 * scale)
    )
    # Exercises passed, one per resource of the first 3 * scale, by the learner and the members.
    passed = [
        Exercise.objects.create(
            slug=f"passed-{number}", title_fr=f"Réussi {number}", resource=resource, folder="x"
        )
        for number, resource in enumerate(more[1 : 1 + 3 * scale])
    ]
    Submission.objects.bulk_create(
        Submission(learner=user, exercise=one, code="pass", verdict="passed")
        for user in (learner, other_learner, *others[: 5 * scale])
        for one in passed
    )
    return {"group": group.slug, "share_token": share_token, "exercise": exercise.slug}


def test_every_page_costs_the_same_queries_at_1x_and_10x(learner, curator, world):
    """Each page is asked twice: the first request builds this process's copy of the curriculum,
    the second is counted. One world per scale, every page of the table measured on it."""
    clients = {"visitor": Client(), "learner": Client(), "curator": Client()}
    clients["learner"].force_login(learner)
    clients["curator"].force_login(curator)
    measured, statuses = {}, {}
    for who, page, _queries in PAGES:
        url = page.format(**world)
        clients[who].get(url)
        with CaptureQueriesContext(connection) as queries:
            response = clients[who].get(url)
        measured[who, page] = len(queries.captured_queries)
        statuses[who, page] = response.status_code
    assert measured == {(who, page): queries for who, page, queries in PAGES}
    assert set(statuses.values()) == {200}


# One-click changes, made in turn on one lecture of the seed that nobody has watched:
# (change, path under the resource, htmx, htmx's headers, queries). Session, user and the revision
# token, then the change's transaction (savepoint, insert-or-ignore the watch row for a finish,
# the conditional update, the row, the event when the update changed it, release): the same
# statements on SQLite and PostgreSQL.
CLICKS = [
    ("watched", "watched", False, {}, 9),
    ("watched again (a double click)", "watched", False, {}, 8),
    ("not watched", "not-watched", False, {}, 8),
    ("watched, htmx", "watched", True, {}, 9),
    ("watched again, htmx", "watched", True, {}, 8),
    ("not watched, htmx", "not-watched", True, {}, 8),
    # The answer is the controls the form is in, from any page: nothing more is read.
    ("watched, htmx, from the path", "watched", True, {"HX-Target": "step-1-watch"}, 9),
    ("not watched, htmx, from its page", "not-watched", True, {"HX-Target": "watch-x-watch"}, 8),
    # A skip: the same transaction, its insert-or-ignore always made.
    ("skipped", "skipped", False, {}, 9),
    ("skipped again (a double click)", "skipped", False, {}, 8),
    ("not skipped, htmx", "not-skipped", True, {}, 8),
]

# The pages' refreshes after a watch change (static/js/blocks_follow.js): (page, queries). Session
# and user, then the dashboard's six reads (as for the page); the resource page's
# revision token and the learner's watch row, sittings and minutes for the blocks it refreshes; the catalogue's revision
# token and watch rows, for the series' counts.
REFRESHES = [("/", 8), ("/resources/gpu-mode-12/", 6), ("/resources/", 4)]


def test_every_click_costs_the_same_queries_at_1x_and_10x(learner, world):
    """Each click is counted once the process holds the curriculum (structure.py)."""
    client = Client()
    client.force_login(learner)
    client.get("/resources/")
    measured, statuses = {}, {}
    for change, action, htmx, sent, _queries in CLICKS:
        headers = {"HX-Request": "true", **sent} if htmx else {}
        with CaptureQueriesContext(connection) as queries:
            response = client.post(f"/resources/gpu-mode-12/{action}/", headers=headers)
        measured[change] = len(queries.captured_queries)
        statuses[change] = response.status_code
    assert measured == {row[0]: row[4] for row in CLICKS}
    assert statuses == {change: 200 if htmx else 302 for change, _, htmx, *_ in CLICKS}


def test_every_refresh_after_a_click_costs_the_same_queries_at_1x_and_10x(learner, world):
    """Each page's refresh is counted once the process holds the curriculum (structure.py)."""
    client = Client()
    client.force_login(learner)
    client.get("/resources/")
    client.post("/resources/gpu-mode-12/watched/", headers={"HX-Request": "true"})
    measured = {}
    for page, _queries in REFRESHES:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(page, {"changed": "gpu-mode-12"}, headers={"HX-Request": "true"})
        assert response.status_code == 200
        assert "hx-swap-oob" in response.content.decode()
        measured[page] = len(queries.captured_queries)
    assert measured == dict(REFRESHES)


# The writes that answer their own block with htmx (progress/views/events.py), on a lecture of
# the seed: (write, queries on PostgreSQL, on SQLite). Session and user, then:
WRITES = [
    # the sitting with its resource; in a transaction the sitting again, the watch row locked,
    # the resource's history, the events' minutes that changed (one UPDATE, none when none did,
    # as for this deletion), the watch row (and for a deletion the sitting's viewing and the
    # sitting); then the learner's sittings of the resource.
    ("a sitting corrected", 11, 11),
    ("a sitting deleted", 12, 12),
    # the resource, the session by its key, then inserted (a savepoint); then the dashboard's six
    # reads for the card (the page is built whole).
    ("the today card's tap", 13, 13),
    # the resource, the form's check of its minutes and the session saved once (two
    # savepoints), then the learner's minutes and latest sessions for the block.
    ("a coding session from the resource page", 11, 11),
]


def test_every_write_answering_its_block_costs_the_same_queries_at_1x_and_10x(learner, world):
    """Each write is counted once the process holds the curriculum (structure.py)."""
    lecture = Resource.objects.get(slug="gpu-mode-12")
    client = Client()
    client.force_login(learner)
    client.get("/resources/")
    actions.mark_watched(user=learner, resource=lecture)
    for minutes in (30, 40, 50):
        actions.log_sitting(user=learner, resource=lecture, minutes=minutes)
    sittings = WatchEvent.objects.for_learner(learner).filter(resource=lecture).sittings()
    first, second, _third = sittings.order_by("pk")
    day = timezone.localdate().isoformat()
    writes = {
        "a sitting corrected": (f"/sittings/{first.pk}/edit/", {"minutes": "45"}, "sittings"),
        "a sitting deleted": (f"/sittings/{second.pk}/delete/", {}, "sittings"),
        "the today card's tap": (
            "/resources/gpu-mode-12/coded-today/",
            {"minutes": "30", "idempotency_key": uuid.uuid4()},
            "today",
        ),
        "a coding session from the resource page": (
            "/resources/gpu-mode-12/coding/",
            {"day": day, "minutes": "60", "built": "A scan", "idempotency_key": uuid.uuid4()},
            "coding-gpu-mode-12",
        ),
    }
    htmx = {"HX-Request": "true", "HX-Current-URL": "http://testserver/resources/gpu-mode-12/"}
    measured = {}
    for write, (address, posted, target) in writes.items():
        with CaptureQueriesContext(connection) as queries:
            response = client.post(address, posted, headers=htmx | {"HX-Target": target})
        assert response.status_code == 200, write
        assert "hx-swap-oob" not in response.content.decode()
        measured[write] = len(queries.captured_queries)
    column = 1 if connection.vendor == "postgresql" else 2
    assert measured == {row[0]: row[column] for row in WRITES}
