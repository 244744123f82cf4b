"""`manage.py prune_signin_log` keeps the sign-in log for SIGNIN_LOG_DAYS, and failure counts for their window."""

import datetime as dt
import io

import pytest
import time_machine
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db
START = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)


def prune():
    output = io.StringIO()
    call_command("prune_signin_log", stdout=output)
    return output.getvalue()


def sign_in(password=PASSWORD, username="ada"):
    Client().post(reverse("login"), {"username": username, "password": password})


@pytest.fixture
def failure_log(settings):
    settings.AXES_ENABLE_ACCESS_FAILURE_LOG = True


def test_rows_younger_than_the_retention_stay(learner, failure_log):
    """29 days after a sign-in and a failure, both are still in the log."""
    with time_machine.travel(START, tick=False) as clock:
        sign_in()
        sign_in(password="wrong")
        clock.shift(dt.timedelta(days=29))
        assert prune() == (
            "Deleted 0 sign-ins and 0 failed sign-ins older than 30 days, "
            "and 1 expired failure counts.\n"
        )
    assert AccessLog.objects.count() == 1
    assert AccessFailureLog.objects.count() == 1


def test_rows_older_than_the_retention_are_deleted(learner, other_learner, failure_log):
    """31 days later the old sign-ins and failures go; a sign-in of yesterday stays."""
    with time_machine.travel(START, tick=False) as clock:
        sign_in()
        sign_in(password="wrong")
        clock.shift(dt.timedelta(days=30))
        sign_in(username="grace")  # axes itself drops the expired failure count on a sign-in
        clock.shift(dt.timedelta(days=1))
        assert prune() == (
            "Deleted 1 sign-ins and 1 failed sign-ins older than 30 days, "
            "and 0 expired failure counts.\n"
        )
    assert list(AccessLog.objects.values_list("username", flat=True)) == ["grace"]
    assert not AccessFailureLog.objects.exists()


def test_a_failure_count_inside_its_window_is_kept(learner):
    """A failure ten minutes old still counts toward a lockout: pruning keeps it."""
    with time_machine.travel(START, tick=False) as clock:
        sign_in(password="wrong")
        clock.shift(dt.timedelta(minutes=10))
        prune()
    assert AccessAttempt.objects.get().failures_since_start == 1


def test_the_retention_follows_the_setting(learner, settings):
    """SIGNIN_LOG_DAYS=7 deletes a sign-in of eight days ago."""
    settings.SIGNIN_LOG_DAYS = 7
    with time_machine.travel(START, tick=False) as clock:
        sign_in()
        clock.shift(dt.timedelta(days=8))
        assert prune().startswith("Deleted 1 sign-ins and 0 failed sign-ins older than 7 days")
    assert not AccessLog.objects.exists()
