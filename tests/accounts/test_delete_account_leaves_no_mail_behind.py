"""After an account is deleted, no table holds the learner's address or username: not the task
queue either, where a failed send's error and a waiting retry of their digest used to stay."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from reminders.models import Digest, DigestSubscription, Nudge
from reminders.tasks import send_digest, send_nudge
from tests.factories import PASSWORD, UserFactory
from tests.reminders.helpers import run_worker, send_digests
from tests.reminders.smtp import mailer_settings, start_smtp_server

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="Every table is read as text with PostgreSQL's row-to-text cast.",
    ),
    pytest.mark.django_db(transaction=True),
]

USERNAME = "ada-lovelace-1815"
EMAIL = "ada.lovelace.1815@example.org"
MONDAY_MORNING = datetime(2026, 1, 19, 9, 0, tzinfo=ZoneInfo("Europe/Paris"))


def tables_naming(*words):
    """{table: rows} for every table of the database with a row whose text holds one of words."""
    found = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            quoted = connection.ops.quote_name(table)
            for word in words:
                cursor.execute(
                    f"SELECT count(*) FROM {quoted} AS r WHERE r::text ILIKE %s", [f"%{word}%"]
                )
                if count := cursor.fetchone()[0]:
                    found[table] = found.get(table, 0) + count
    return found


@pytest.fixture
def refused_digest(settings, client):
    """Ada's digest refused by the SMTP server (550 naming her address), its retry waiting."""
    controller = start_smtp_server()
    controller.handler.refused.add(EMAIL)
    settings.MAILERS = mailer_settings(controller)
    ada = UserFactory(username=USERNAME, email=EMAIL)
    DigestSubscription.objects.create(user=ada, weekday=0)
    with time_machine.travel(MONDAY_MORNING, tick=False):
        send_digests()
        run_worker()
    controller.stop()
    client.force_login(ada)
    return ada


def test_before_deletion_the_queue_and_the_digest_name_the_learner(refused_digest):
    """The scan can fail: the refusal is on the digest row, the retry in the queue."""
    assert Digest.objects.get().last_error.count(EMAIL) >= 1
    assert sorted(DBTaskResult.objects.values_list("status", flat=True)) == ["FAILED", "READY"]
    assert {"auth_user", "reminders_digest"} <= set(tables_naming(EMAIL, USERNAME))


def test_the_failed_task_in_the_queue_does_not_quote_the_smtp_error(refused_digest):
    """The queue keeps a failed task's error past the learner: it names the digest, not the address."""
    failed = DBTaskResult.objects.get(status="FAILED")
    assert failed.exception_class_path == "reminders.tasks.MailNotSent"
    assert "SMTPRecipientsRefused" in failed.traceback
    assert EMAIL not in failed.traceback


def test_after_deletion_no_table_names_the_learner_and_no_retry_waits(refused_digest, client):
    """Every table read as text: no address, no username; the queued retry of their digest is gone."""
    response = client.post(reverse("accounts:delete_account"), {"password": PASSWORD})
    assert response.status_code == 302
    assert tables_naming(EMAIL, USERNAME) == {}
    assert not DBTaskResult.objects.exists()


def test_a_queued_nudge_goes_with_the_account_and_others_stay(client):
    """The daily nudge's task goes too; another learner's waiting tasks are left alone."""
    ada, grace = UserFactory(username=USERNAME, email=EMAIL), UserFactory(username="grace")
    send_nudge.enqueue(Nudge.objects.create(user=ada, day="2026-01-19").pk)
    kept = [
        send_nudge.enqueue(Nudge.objects.create(user=grace, day="2026-01-19").pk).id,
        send_digest.enqueue(Digest.objects.create(user=grace, week="2026-01-19").pk).id,
    ]
    client.force_login(ada)
    client.post(reverse("accounts:delete_account"), {"password": PASSWORD})
    assert sorted(str(pk) for pk in DBTaskResult.objects.values_list("pk", flat=True)) == sorted(
        str(pk) for pk in kept
    )
