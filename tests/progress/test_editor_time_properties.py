"""The invariant of progress/editor_time.py: however heartbeats arrive (in bulks, out of order,
resent), each learner's exact time per day and project is what a count of all their heartbeats
from the start gives, and their coding sessions show it rounded."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from progress.editor_time import (
    Beat,
    HeartbeatIn,
    coded_by_day_and_project,
    record_heartbeats,
    whole_minutes,
)
from progress.models import CodingSession, EditorDay, Heartbeat
from tests.factories import UserFactory

ZONE = ZoneInfo("Europe/Paris")
# 23:00 in Paris on 1 December 2026: the heartbeats run across the learner's midnight.
START = datetime(2026, 12, 1, 22, 0, tzinfo=UTC)

heartbeat = st.builds(
    lambda seconds, entity, project: HeartbeatIn(
        time=START + timedelta(seconds=seconds),
        entity_digest=f"{entity:064d}",
        project=project,
    ),
    # Gaps around 15 minutes, equal instants and repeats all come up in two hours of seconds.
    st.integers(min_value=0, max_value=2 * 3600).map(lambda s: s - s % 7),
    st.integers(min_value=0, max_value=2),
    st.sampled_from(["kernels", "notes"]),
)
bulks = st.lists(st.lists(heartbeat, min_size=1, max_size=25), min_size=1, max_size=8)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(bulks=bulks)
def test_time_added_bulk_by_bulk_is_the_count_of_every_heartbeat_from_the_start(db, bulks):
    learner = UserFactory()
    for bulk in bulks:
        record_heartbeats(user=learner, heartbeats=bulk, zone=ZONE)
    stored = Heartbeat.objects.for_learner(learner).order_by("time", "pk")
    expected = coded_by_day_and_project(
        [Beat(at, project) for at, project in stored.values_list("time", "project")], ZONE
    )
    kept = {
        (row.day, row.project): row.microseconds
        for row in EditorDay.objects.filter(user=learner)
        if row.microseconds
    }
    assert kept == {key: value for key, value in expected.items() if value}
    sessions = {
        (s.day, s.editor_project): s.minutes
        for s in CodingSession.objects.for_learner(learner).from_editor()
    }
    assert sessions == {
        key: whole_minutes(value) for key, value in expected.items() if whole_minutes(value)
    }
