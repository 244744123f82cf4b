"""Migration 0003 recovers each sitting's minutes entered from the history of changes it kept."""

import importlib
from types import SimpleNamespace

migration = importlib.import_module("progress.migrations.0005_watchevent_logged_minutes")


def event(kind, minutes):
    return SimpleNamespace(kind=kind, minutes=minutes)


def entered(events, duration, logged_total):
    return [
        minutes for _event, minutes in migration.sitting_minutes(events, duration, logged_total)
    ]


def test_sittings_before_any_click_are_their_change():
    """Unfinished: a sitting's change in minutes watched is what was entered."""
    events = [event("sitting", 90), event("sitting", 120)]
    assert entered(events, 720, 210) == [90, 120]


def test_a_sitting_after_marking_watched_gets_back_what_it_added_beyond_the_duration():
    """Finished at 12 h with 700 logged, a 60-minute sitting changed watched by 40 only."""
    events = [event("sitting", 700), event("finished", 20), event("sitting", 40)]
    assert entered(events, 720, 760) == [700, 60]


def test_sittings_that_changed_nothing_share_the_rest_of_the_logged_minutes():
    """Two sittings hidden under a one-click finish share what Watch.logged_minutes holds."""
    events = [event("finished", 720), event("sitting", 0), event("sitting", 0)]
    assert entered(events, 720, 91) == [45, 46]
