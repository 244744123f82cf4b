"""prune_heartbeats deletes raw heartbeats past 16 days and keeps the totals made from them."""

import io
from datetime import timedelta

from django.core.management import call_command
from django.utils import timezone

from progress.models import CodingSession, Heartbeat
from tests.editor.conftest import BULK, cli_heartbeat


def test_it_deletes_old_heartbeats_and_keeps_the_coded_time(send, learner, time_machine):
    ten_days_ago = timezone.now() - timedelta(days=10)
    send(BULK, [cli_heartbeat(ten_days_ago.timestamp() + 60 * m) for m in range(0, 7, 3)])
    send(BULK, [cli_heartbeat(timezone.now().timestamp() - 60 * m) for m in (1, 3)])
    time_machine.move_to(timezone.now() + timedelta(days=7))
    out = io.StringIO()
    call_command("prune_heartbeats", stdout=out)
    assert out.getvalue() == "Deleted 3 heartbeats older than 16 days.\n"
    assert Heartbeat.objects.count() == 2
    assert sorted(CodingSession.objects.values_list("minutes", flat=True)) == [2, 6]
