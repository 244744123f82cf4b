"""Fifty simultaneous requests for one learner lose nothing and duplicate nothing (PostgreSQL only).

Each thread drives the whole Django stack with its own test Client and its own database
connection, so the requests race where it matters, in the database. The live server would add a
socket and an HTTP parser per request and prove nothing more about the rows.
"""

import string
import threading
import uuid
from contextlib import contextmanager
from itertools import pairwise

import psycopg
import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import get_random_string

from progress.models import CodingSession, Watch, WatchEvent
from tests.factories import ResourceFactory, UserFactory

THREADS = 50

# Any number: the key of the advisory lock that lets one race run at a time on the server.
RACE_LOCK = 4_000_050

# The marks of every race test (also tests/progress/test_sitting_concurrency.py and
# test_viewing_concurrency.py).
RACES = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite serialises every write with one database lock, so requests cannot race:"
        " these tests need PostgreSQL (set DATABASE_URL).",
    ),
    pytest.mark.django_db(transaction=True),
]
pytestmark = RACES


def signed_in_clients(user, count=THREADS):
    """One test Client per thread, each with its own session of the same learner: one sign-in, then
    its session row copied under new keys in one statement (a sign-in per client cost ~30 ms of
    signal handlers and commits, which these races do not test)."""
    first = Client()
    first.force_login(user)
    cookie = settings.SESSION_COOKIE_NAME
    signed_in = Session.objects.get(session_key=first.cookies[cookie].value)
    copies = Session.objects.bulk_create(
        Session(
            session_key=get_random_string(32, string.ascii_lowercase + string.digits),
            session_data=signed_in.session_data,
            expire_date=signed_in.expire_date,
        )
        for _ in range(count - 1)
    )
    clients = [first]
    for session in copies:
        client = Client()
        client.cookies[cookie] = session.session_key
        clients.append(client)
    return clients


@contextmanager
def one_race_at_a_time():
    """Hold the server-wide race lock: a race holds 50 connections, and two at once (one per
    xdist worker) would pass PostgreSQL's default limit of 100 clients. Advisory locks are per
    database and each worker has its own test database, so the lock is taken in "postgres"."""
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or None,
        user=settings["USER"],
        password=settings["PASSWORD"],
        dbname="postgres",
        autocommit=True,
    ) as lock:
        lock.execute("SELECT pg_advisory_lock(%s)", [RACE_LOCK])
        yield  # closing the connection releases the lock


def run_at_once(work, count=THREADS):
    """Call work(index) in count threads released together; the responses, or the first error."""
    barrier = threading.Barrier(count)
    responses = [None] * count
    errors = []

    def run(index):
        try:
            barrier.wait(timeout=30)
            responses[index] = work(index)
        except Exception as error:  # a 500 raises in the test Client: keep it for the assertion
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    with one_race_at_a_time():
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert not errors, errors[0]
    return responses


def coding_session_data(resource, key):
    return {
        "day": timezone.localdate().isoformat(),
        "minutes": "45",
        "built": "A reduction kernel",
        "code_url": "",
        "resource": str(resource.pk),
        "chapter": "",
        "idempotency_key": key,
    }


def test_fifty_submits_of_one_coding_session_form_save_one_session():
    """The same form posted 50 times at once (same key): one row, every answer a redirect."""
    learner = UserFactory(username="ada")
    resource = ResourceFactory()
    clients = signed_in_clients(learner)
    data = coding_session_data(resource, str(uuid.uuid4()))
    url = reverse("progress:coding_log")

    responses = run_at_once(lambda index: clients[index].post(url, data))

    assert [response.status_code for response in responses] == [302] * THREADS
    assert CodingSession.objects.filter(user=learner).count() == 1


def test_fifty_submits_from_the_resource_page_save_one_session():
    """The resource page's inline form, double-clicked 50 times over htmx: one row, no error."""
    learner = UserFactory(username="ada")
    resource = ResourceFactory()
    clients = signed_in_clients(learner)
    data = coding_session_data(resource, str(uuid.uuid4()))
    url = reverse("progress:coding_session_add", args=[resource.slug])

    responses = run_at_once(
        lambda index: clients[index].post(url, data, headers={"HX-Request": "true"})
    )

    assert [response.status_code for response in responses] == [200] * THREADS
    assert CodingSession.objects.filter(user=learner, resource=resource).count() == 1


def post_in_turn(client, *urls):
    """POST to each URL in order with one client; the status codes."""
    return [client.post(url).status_code for url in urls]


def watch_history(user, resource):
    """The learner's one Watch row, and their events' kinds and minutes in the order logged."""
    watches = list(Watch.objects.filter(user=user, resource=resource).select_related("resource"))
    events = WatchEvent.objects.filter(user=user, resource=resource).order_by("pk")
    return watches, list(events.values_list("kind", "minutes"))


def test_fifty_clicks_on_watched_at_once_finish_once():
    """One Watch row, one "finished" event carrying the duration, every answer a redirect."""
    learner = UserFactory(username="ada")
    resource = ResourceFactory(duration_minutes=60)
    clients = signed_in_clients(learner)
    url = reverse("progress:mark_watched", args=[resource.slug])

    responses = run_at_once(lambda index: clients[index].post(url))

    assert [response.status_code for response in responses] == [302] * THREADS
    watches, events = watch_history(learner, resource)
    assert len(watches) == 1 and watches[0].is_finished
    assert events == [("finished", 60)]


def test_fifty_unmark_and_remark_pairs_at_once_keep_the_minutes_consistent():
    """Un-marking and re-marking race 50 times: one row, events alternate, their sum is the state."""
    learner = UserFactory(username="ada")
    resource = ResourceFactory(duration_minutes=60)
    clients = signed_in_clients(learner)
    clients[0].post(reverse("progress:mark_watched", args=[resource.slug]))
    urls = [
        reverse(name, args=[resource.slug])
        for name in ("progress:mark_not_watched", "progress:mark_watched")
    ]

    statuses = run_at_once(lambda index: post_in_turn(clients[index], *urls))

    assert statuses == [[302, 302]] * THREADS
    watches, events = watch_history(learner, resource)
    assert len(watches) == 1
    kinds = [kind for kind, _minutes in events]
    assert all(a != b for a, b in pairwise(kinds)), kinds
    assert sum(minutes for _kind, minutes in events) == watches[0].watched_minutes
    assert WatchEvent.objects.filter(user=learner).total_minutes() == (
        Watch.objects.filter(user=learner).total_watched_minutes()
    )


def test_fifty_sittings_of_ten_minutes_at_once_add_up_to_500():
    """No lost update: 50 concurrent 10-minute sittings make 500 minutes, in the row and the events."""
    learner = UserFactory(username="ada")
    course = ResourceFactory(kind="course", duration_minutes=720)
    clients = signed_in_clients(learner)
    url = reverse("progress:log_sitting", args=[course.slug])

    responses = run_at_once(lambda index: clients[index].post(url, {"minutes": "10"}))

    assert [response.status_code for response in responses] == [302] * THREADS
    watches, events = watch_history(learner, course)
    assert len(watches) == 1
    assert (watches[0].logged_minutes, watches[0].is_finished) == (500, False)
    assert events == [("sitting", 10)] * THREADS
    assert WatchEvent.objects.filter(user=learner).total_minutes() == 500
