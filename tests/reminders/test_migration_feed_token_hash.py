"""Migration 0002 hashes the calendar tokens already given out: those addresses keep working."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.migrations import latest, migrate

BEFORE = [("reminders", "0001_initial")]
AFTER = [("reminders", "0002_calendar_feed_token_hash")]


@pytest.mark.django_db(transaction=True)
def test_an_address_given_before_the_migration_still_opens_the_feed_and_is_not_stored():
    """The token a calendar app holds finds its feed by digest; no column holds it any more."""
    learner = UserFactory(username="ada")
    try:
        old_apps = migrate(BEFORE)
        old_apps.get_model("reminders", "CalendarFeed").objects.create(
            user_id=learner.pk, token="given-before-the-migration"
        )
        new_apps = migrate(AFTER)
        row = new_apps.get_model("reminders", "CalendarFeed").objects.values().get()
    finally:
        migrate(latest())
    response = Client().get(reverse("reminders:feed", args=["given-before-the-migration"]))
    assert response.status_code == 200
    assert "given-before-the-migration" not in [str(value) for value in row.values()]
