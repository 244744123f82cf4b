"""Done when: a heartbeat sent by a WakaTime client appears as coded time on the dashboard, in
the balance, and through the API like any coding session."""

import time

from progress import actions
from tests.api.conftest import bearer
from tests.editor.conftest import BULK, cli_heartbeat, in_bulks

EN = {"accept-language": "en"}


def test_the_dashboard_shows_time_from_the_editor(send, learner, learner_client, seed_path):
    actions.mark_watched(user=learner, resource=seed_path.start)
    start = time.time() - 3 * 3600
    for bulk in in_bulks([cli_heartbeat(start + 60 * minute) for minute in range(0, 91, 2)]):
        send(BULK, bulk)
    html = learner_client.get("/", headers=EN).content.decode()
    balance = html.split('id="balance"')[1].split("</section>")[0]
    assert "You watched 1\u00a0h and coded 1\u00a0h\u00a030 this week" in balance
    assert "You watched 1\u00a0h and coded 1\u00a0h\u00a030 in all" in balance


def test_the_api_reads_editor_time_as_a_coding_session(send, learner, client, write_token):
    send(BULK, [cli_heartbeat(time.time() - 600 + 60 * minute) for minute in range(6)])
    sessions = client.get("/api/v1/sessions", headers=bearer(write_token)).json()
    assert [(s["minutes"], s["built"], s["resource"], s["source"]) for s in sessions] == [
        (5, "kernels", None, "editor")
    ]
    summary = client.get("/api/v1/summary", headers=bearer(write_token)).json()
    assert summary["overall"]["coded_minutes"] == 5


def test_the_export_holds_editor_time_and_says_what_is_kept(send, learner, learner_client):
    send(
        BULK,
        [cli_heartbeat(time.time() - 600 + 60 * minute, branch="secret") for minute in range(6)],
    )
    document = learner_client.get("/settings/export.json").json()
    assert [
        (s["source"], s["editor_project"], s["minutes"]) for s in document["coding_sessions"]
    ] == [("editor", "kernels", 5)]
    assert document["editor_projects"] == [
        {"name": "kernels", "resource": None, "chapter": None, "counted": True}
    ]
    assert len(document["editor_heartbeats"]) == 6
    assert document["kept_from_the_editor"]["heartbeats_kept_days"] == 16
    assert "/home/ada" not in str(document["editor_heartbeats"]) and "secret" not in str(
        document["editor_heartbeats"]
    )
