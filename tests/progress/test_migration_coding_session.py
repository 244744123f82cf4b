"""Migration 0008 renames Practice to CodingSession: every row stays, with its id, and the
database still refuses a second save of the same form."""

import datetime
import uuid

import pytest
from django.db import IntegrityError, transaction

from progress.models import CodingSession
from tests.factories import ResourceFactory, UserFactory
from tests.migrations import latest, migrate

BEFORE = [("progress", "0007_learner_days_are_validated")]
AFTER = [("progress", "0008_practice_is_codingsession")]


@pytest.mark.django_db(transaction=True)
def test_the_sessions_saved_as_practice_are_the_learners_coding_sessions():
    learner = UserFactory(username="ada")
    resource = ResourceFactory()
    key = uuid.uuid4()
    try:
        old_apps = migrate(BEFORE)
        saved = old_apps.get_model("progress", "Practice").objects.create(
            user_id=learner.pk,
            resource_id=resource.pk,
            day=datetime.date(2026, 11, 2),
            minutes=90,
            built="A reduction kernel",
            idempotency_key=key,
        )
        migrate(AFTER)
    finally:
        migrate(latest())
    session = learner.coding_sessions.get()
    assert (session.pk, session.minutes, session.built) == (saved.pk, 90, "A reduction kernel")
    with pytest.raises(IntegrityError), transaction.atomic():
        CodingSession.objects.create(
            user=learner,
            resource=resource,
            day=session.day,
            minutes=5,
            built="x",
            idempotency_key=key,
        )
