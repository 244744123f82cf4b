"""Every page's queries, in one table: the same fixed count at 1x and 10x data, for a visitor and
for a learner (and the curators' page for a curator). A page's own tests say what it shows; this
file alone says what it costs. Data is the seed plus `world`, written with bulk_create.

At 10x: 580 more resources in 58 series, each paired in the guide and tagged with an
architecture, 50 more steps on the suggested path, the learner and another each with 290
resources watched, 50 sittings, 600 coding sessions and 50 notes, 1,000 more learners of whom 10
have a history too, a group of 52 members who share their coding, 30 access tokens.
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
    ("visitor", "/share/{share_token}/", 6),
    # + the revision token and the learner's watch rows in one statement (progress/catalogue.py).
    ("learner", "/resources/", 3),
    ("learner", "/resources/?q=CUTLASS", 3),
    ("learner", "/resources/?state=in_progress", 3),
    ("learner", "/resources/?state=nope&q=kernels", 3),
    # + one statement: the learner's rows for the page (watch row, recording setting, sittings,
    # minutes, latest sessions, note) and the revision token (progress/resource_learner.py).
    ("learner", "/resources/gpu-mode-15/", 3),
    ("learner", "/resources/more-1/", 3),
    ("learner", "/guide/", 3),
    # + one statement: revision token, profile, watch rows, minutes, coding days (progress/history.py).
    ("learner", "/", 3),
    ("learner", "/path/", 3),
    # + one statement: revision token, the learner's totals, one page of sessions, the editor's
    # projects (progress/coding_log.py).
    ("learner", "/coding/?page=2", 3),
    # + one statement: minutes coded and watched by day, finished per kind (progress/stats.py).
    ("learner", "/stats/", 3),
    # + one statement: revision token, the profile and the reminders' state (accounts/settings_page.py).
    ("learner", "/settings/", 3),
    ("learner", "/settings/tokens/", 3),
    ("learner", "/settings/editor/", 3),
    ("learner", "/settings/share/", 3),
    ("learner", "/groups/", 4),
    # + the members with their profiles and the revision token, then every member's figures and
    # this week's shared sessions in one statement (groups/board_figures.py).
    ("learner", "/groups/{group}/", 4),
    ("learner", "/groups/{group}/manage/", 6),
    ("learner", "/share/{share_token}/", 8),
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
    return {"group": group.slug, "share_token": share_token}


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
# (change, path under the resource, htmx, htmx's headers, queries on PostgreSQL, on SQLite). Session and
# user, then the change. On PostgreSQL it is one statement (a data-modifying WITH updates or
# inserts the watch row and logs its event) whether it changes something or not, made with the
# resource of the curriculum the process holds (structure.py) and checking in the same statement
# that the revision token is still the one it was built at: no query of its own for the token.
# SQLite has no such WITH: the token, then a transaction of several (savepoint, locked read,
# insert, read, update, event).
CLICKS = [
    ("watched", "watched", False, {}, 3, 10),
    ("watched again (a double click)", "watched", False, {}, 3, 6),
    ("not watched", "not-watched", False, {}, 3, 8),
    ("watched, htmx", "watched", True, {}, 3, 8),
    ("watched again, htmx", "watched", True, {}, 3, 6),
    ("not watched, htmx", "not-watched", True, {}, 3, 8),
    # The answer is the controls the form is in, from any page: nothing more is read.
    ("watched, htmx, from the path", "watched", True, {"HX-Target": "step-1-watch"}, 3, 8),
    ("not watched, htmx, from its page", "not-watched", True, {"HX-Target": "watch-x-watch"}, 3, 8),
]

# The pages' refreshes after a watch change (static/js/blocks_follow.js): (page, queries). Session
# and user, then the dashboard's one statement; the resource page's revision token and the
# learner's rows for the resource in one statement; the catalogue's one statement (the revision
# token and the watch rows), for the series' counts.
REFRESHES = [("/", 3), ("/resources/gpu-mode-12/", 4), ("/resources/", 3)]


def test_every_click_costs_the_same_queries_at_1x_and_10x(learner, world):
    """Each click is counted once the process holds the curriculum (structure.py)."""
    client = Client()
    client.force_login(learner)
    client.get("/resources/")
    measured, statuses = {}, {}
    for change, action, htmx, sent, _postgresql, _sqlite in CLICKS:
        headers = {"HX-Request": "true", **sent} if htmx else {}
        with CaptureQueriesContext(connection) as queries:
            response = client.post(f"/resources/gpu-mode-12/{action}/", headers=headers)
        measured[change] = len(queries.captured_queries)
        statuses[change] = response.status_code
    column = 4 if connection.vendor == "postgresql" else 5
    assert measured == {row[0]: row[column] for row in CLICKS}
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
    # the resource's history, the events' minutes (one UPDATE), the watch row (and for a deletion
    # the sitting's viewing and the sitting); then the learner's rows in one statement.
    ("a sitting corrected", 11, 11),
    ("a sitting deleted", 13, 13),
    # the resource, the session by its key, then inserted (a savepoint); then the dashboard's one
    # statement for the card.
    ("the today card's tap", 8, 8),
    # the resource, the form's check of its minutes and the session saved once (two
    # savepoints), then the learner's rows for the block in one statement.
    ("a coding session from the resource page", 10, 10),
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
