"""Bulks of one learner sent at once, some resent, count as if sent one by one (PostgreSQL only)."""

import pytest
from django.db import connection
from django.test import Client

from editor.models import EditorKey
from progress.models import CodingSession, EditorProject, Heartbeat
from tests.editor.conftest import BULK, an_hour_ago_for, basic, cli_heartbeat
from tests.factories import UserFactory
from tests.progress.test_concurrency import run_at_once

THREADS = 10

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite serialises every write, so bulks cannot race: set DATABASE_URL.",
    ),
    pytest.mark.django_db(transaction=True),
]


def test_ten_bulks_at_once_lose_nothing_and_count_nothing_twice():
    """Five bulks of five heartbeats a minute apart, each sent twice, all at once: 24 minutes
    of one project, one session, 25 heartbeats."""
    learner = UserFactory(username="ada")
    key = EditorKey.objects.issue(user=learner)
    start = an_hour_ago_for(minutes=25)
    bulks = [[cli_heartbeat(start + 60 * (5 * b + n)) for n in range(5)] for b in range(5)]
    clients = [Client() for _ in range(THREADS)]

    def send(index):
        return clients[index].post(
            BULK, bulks[index % 5], content_type="application/json", headers=basic(key)
        )

    responses = run_at_once(send, count=THREADS)

    assert [response.status_code for response in responses] == [201] * THREADS
    assert Heartbeat.objects.filter(user=learner).count() == 25
    assert EditorProject.objects.filter(user=learner).count() == 1
    [session] = CodingSession.objects.filter(user=learner)
    assert session.minutes == 24
