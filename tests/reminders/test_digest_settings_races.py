"""Subscribing and unsubscribing the digest at once ends in one state, every answer a redirect."""

import pytest
from django.db import connection
from django.urls import reverse

from reminders.models import DigestSubscription
from tests.factories import UserFactory
from tests.progress.test_concurrency import run_at_once, signed_in_clients

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="races need PostgreSQL (set DATABASE_URL)"
    ),
    pytest.mark.django_db(transaction=True),
]


def test_thirty_subscribes_and_unsubscribes_at_once_answer_cleanly():
    learner = UserFactory(username="ada")
    clients = signed_in_clients(learner, count=30)
    url = reverse("reminders:digest_settings")

    def choose(index):
        weekday = "" if index % 3 == 0 else str(index % 7)
        return clients[index].post(url, {"weekday": weekday})

    responses = run_at_once(choose, count=30)

    assert [response.status_code for response in responses] == [302] * 30
    assert DigestSubscription.objects.filter(user=learner).count() <= 1
