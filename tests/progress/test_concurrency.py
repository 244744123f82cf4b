"""Fifty simultaneous requests for one learner lose nothing and duplicate nothing (PostgreSQL only).

Each thread drives the whole Django stack with its own test Client and its own database
connection, so the requests race where it matters, in the database. The live server would add a
socket and an HTTP parser per request and prove nothing more about the rows.
"""

import threading
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from progress.models import Practice
from tests.factories import ResourceFactory, UserFactory

THREADS = 50

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite serialises every write with one database lock, so requests cannot race:"
        " these tests need PostgreSQL (set DATABASE_URL).",
    ),
    pytest.mark.django_db(transaction=True),
]


def signed_in_clients(user, count=THREADS):
    """One test Client per thread, each with its own session of the same learner."""
    clients = []
    for _ in range(count):
        client = Client()
        client.force_login(user)
        clients.append(client)
    return clients


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
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors[0]
    return responses


def practice_data(resource, key):
    return {
        "day": timezone.localdate().isoformat(),
        "minutes": "45",
        "built": "A reduction kernel",
        "code_url": "",
        "resource": str(resource.pk),
        "chapter": "",
        "idempotency_key": key,
    }


def test_fifty_submits_of_one_practice_form_save_one_session():
    """The same form posted 50 times at once (same key): one row, every answer a redirect."""
    learner = UserFactory(username="ada")
    resource = ResourceFactory()
    clients = signed_in_clients(learner)
    data = practice_data(resource, str(uuid.uuid4()))
    url = reverse("progress:practice")

    responses = run_at_once(lambda index: clients[index].post(url, data))

    assert [response.status_code for response in responses] == [302] * THREADS
    assert Practice.objects.filter(user=learner).count() == 1


def test_fifty_submits_from_the_resource_page_save_one_session():
    """The resource page's inline form, double-clicked 50 times over htmx: one row, no error."""
    learner = UserFactory(username="ada")
    resource = ResourceFactory()
    clients = signed_in_clients(learner)
    data = practice_data(resource, str(uuid.uuid4()))
    url = reverse("progress:practice_add", args=[resource.slug])

    responses = run_at_once(
        lambda index: clients[index].post(url, data, headers={"HX-Request": "true"})
    )

    assert [response.status_code for response in responses] == [200] * THREADS
    assert Practice.objects.filter(user=learner, resource=resource).count() == 1
