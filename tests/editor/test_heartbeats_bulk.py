"""POST <api_url>/users/current/heartbeats.bulk: heartbeats become coded time."""

from datetime import UTC, datetime

import time_machine

from progress.models import CodingSession, Heartbeat, Profile
from tests.editor.conftest import BULK, ONE, cli_heartbeat, legacy_heartbeat

NOON = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def at(minutes):
    """A Unix time, minutes after noon UTC on 2 December 2026."""
    return NOON.timestamp() + minutes * 60


def editor_minutes(user):
    return {
        (s.day.isoformat(), s.editor_project): s.minutes
        for s in CodingSession.objects.for_learner(user).from_editor()
    }


@time_machine.travel(NOON.replace(hour=18), tick=False)
def test_it_answers_each_heartbeat_as_the_clients_parse_it(send, learner):
    """The answer is {"responses": [[{"data": …}, 201], …]}, one per heartbeat, in order."""
    beats = [cli_heartbeat(at(0)), cli_heartbeat(at(2), entity="HIDDEN.py", branch=None)]
    response = send(BULK, beats)
    assert response.status_code == 201
    responses = response.json()["responses"]
    assert [status for _data, status in responses] == [201, 201]
    assert responses[0][0]["data"]["entity"] == "/home/ada/kernels/reduce.cu"
    assert responses[1][0]["data"]["time"] == at(2)
    assert Heartbeat.objects.filter(user=learner).count() == 2


@time_machine.travel(NOON.replace(hour=18), tick=False)
def test_heartbeats_under_fifteen_minutes_apart_are_joined(send, learner):
    """Gaps under 15 minutes count, for the project of the earlier heartbeat; a longer gap does not."""
    minutes = [0, 2, 4, 14, 40, 42]  # 2 + 2 + 10, then 26 is a pause, then 2, and 1 to "notes"
    notes = [cli_heartbeat(at(m), project="notes") for m in (43, 45)]  # the last counts nothing
    send(BULK, [cli_heartbeat(at(m)) for m in minutes] + notes)
    assert editor_minutes(learner) == {("2026-12-02", "kernels"): 17, ("2026-12-02", "notes"): 2}
    session = CodingSession.objects.get(editor_project="kernels")
    assert session.is_from_editor and session.built == "kernels" and session.resource is None


@time_machine.travel(NOON.replace(hour=18), tick=False)
def test_the_same_bulk_resent_changes_nothing(send, learner):
    beats = [cli_heartbeat(at(m)) for m in (0, 5, 10)]
    send(BULK, beats)
    response = send(BULK, beats)
    assert response.status_code == 201
    assert editor_minutes(learner) == {("2026-12-02", "kernels"): 10}
    assert Heartbeat.objects.count() == 3


@time_machine.travel(NOON.replace(hour=18), tick=False)
def test_heartbeats_arriving_out_of_order_count_as_in_order(send, learner):
    send(BULK, [cli_heartbeat(at(10)), cli_heartbeat(at(0))])
    send(ONE, cli_heartbeat(at(5)))
    assert editor_minutes(learner) == {("2026-12-02", "kernels"): 10}


@time_machine.travel(NOON.replace(hour=18), tick=False)
def test_days_are_the_learners_in_their_time_zone(send, learner):
    """Montreal is UTC-5: 04:50 to 05:10 UTC are twenty minutes on two of the learner's days,
    cut at their midnight (05:00 UTC)."""
    Profile.objects.create(user=learner, time_zone="America/Montreal")
    early = datetime(2026, 12, 2, 4, 50, tzinfo=UTC).timestamp()
    send(BULK, [cli_heartbeat(early + m * 60) for m in (0, 5, 10, 15, 20)])
    assert editor_minutes(learner) == {("2026-12-01", "kernels"): 10, ("2026-12-02", "kernels"): 10}


@time_machine.travel(NOON.replace(hour=18), tick=False)
def test_a_gap_across_midnight_is_shared_by_its_two_days(send, learner):
    """23:57 then 00:03 in the learner's zone: three minutes on each day, whichever heartbeat
    arrives first; an evening that runs past midnight loses nothing."""
    Profile.objects.create(user=learner, time_zone="UTC")
    midnight = datetime(2026, 12, 2, tzinfo=UTC).timestamp()
    send(ONE, cli_heartbeat(midnight + 3 * 60))
    send(BULK, [cli_heartbeat(midnight - 3 * 60)])
    assert editor_minutes(learner) == {("2026-12-01", "kernels"): 3, ("2026-12-02", "kernels"): 3}


@time_machine.travel(NOON.replace(hour=18), tick=False)
def test_the_legacy_client_s_heartbeats_count_too(send, learner):
    response = send(BULK, [legacy_heartbeat(at(0)), legacy_heartbeat(at(3))])
    assert response.status_code == 201
    assert editor_minutes(learner) == {("2026-12-02", "kernels"): 3}


@time_machine.travel(NOON.replace(hour=18), tick=False)
def test_one_heartbeat_answers_its_data(send, learner):
    response = send(ONE, cli_heartbeat(at(0)))
    assert response.status_code == 201
    assert response.json()["data"]["project"] == "kernels"
    assert Heartbeat.objects.filter(user=learner).count() == 1


@time_machine.travel(NOON.replace(hour=18), tick=False)
def test_a_heartbeat_older_than_two_weeks_is_acknowledged_and_dropped(send, learner):
    """Its day may have lost heartbeats to pruning: recounting it would shrink a right total."""
    old = at(-15 * 24 * 60)
    response = send(BULK, [cli_heartbeat(old), cli_heartbeat(old + 120)])
    assert response.status_code == 201
    assert [status for _data, status in response.json()["responses"]] == [201, 201]
    assert not Heartbeat.objects.exists() and not CodingSession.objects.exists()


@time_machine.travel(NOON.replace(hour=18), tick=False)
def test_file_paths_and_branches_are_not_kept(send, learner):
    send(BULK, [cli_heartbeat(at(0), branch="secret-branch")])
    stored = Heartbeat.objects.values().get()
    assert "/home/ada" not in str(stored) and "secret-branch" not in str(stored)
