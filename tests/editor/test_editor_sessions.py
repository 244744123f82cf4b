"""Time from the editor is listed with the typed sessions but recounted, never edited by hand."""

import time

from progress.models import CodingSession
from tests.api.conftest import bearer
from tests.editor.conftest import BULK, cli_heartbeat

EN = {"accept-language": "en"}


def editor_session(send):
    send(BULK, [cli_heartbeat(time.time() - 600 + 60 * minute) for minute in range(6)])
    return CodingSession.objects.from_editor().get()


def test_the_coding_log_marks_editor_time_and_offers_no_edit(send, learner_client):
    session = editor_session(send)
    html = learner_client.get("/coding/", headers=EN).content.decode()
    row = html.split(f'id="session-{session.pk}"')[1].split("</tr>")[0]
    assert "from the editor" in row and "kernels" in row
    assert f"/coding/{session.pk}/edit/" not in row


def test_the_edit_and_delete_pages_do_not_know_editor_time(send, learner_client):
    session = editor_session(send)
    assert learner_client.get(f"/coding/{session.pk}/edit/").status_code == 404
    assert learner_client.post(f"/coding/{session.pk}/delete/").status_code == 404
    assert CodingSession.objects.get(pk=session.pk).minutes == 5


def test_the_api_refuses_to_patch_or_delete_editor_time(send, client, write_token):
    session = editor_session(send)
    url = f"/api/v1/sessions/{session.pk}"
    patched = client.patch(
        url, {"minutes": 50}, content_type="application/json", headers=bearer(write_token)
    )
    assert patched.status_code == 422 and patched.json()["error"] == "from_editor"
    assert client.delete(url, headers=bearer(write_token)).status_code == 422
    assert CodingSession.objects.get(pk=session.pk).minutes == 5
