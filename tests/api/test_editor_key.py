"""POST /api/v1/editor-key: the contract the `parcours` CLI writes ~/.wakatime.cfg from."""

import configparser
import re
import time

from editor.models import EditorKey
from tests.api.conftest import bearer
from tests.editor.conftest import BULK, basic, cli_heartbeat

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def test_it_issues_a_key_and_the_wakatime_cfg_block(client, write_token, learner):
    response = client.post("/api/v1/editor-key", headers=bearer(write_token))
    assert response.status_code == 201
    body = response.json()
    assert UUID4.match(body["api_key"])
    assert body["api_url"] == "http://testserver/editor/v1"
    assert body["wakatime_cfg"] == (
        f"[settings]\napi_url = http://testserver/editor/v1\napi_key = {body['api_key']}\n"
    )
    cfg = configparser.ConfigParser()
    cfg.read_string(body["wakatime_cfg"])
    assert cfg["settings"]["api_key"] == body["api_key"]
    assert (
        client.post(
            BULK,
            [cli_heartbeat(time.time())],
            content_type="application/json",
            headers=basic(body["api_key"]),
        ).status_code
        == 201
    )
    assert EditorKey.objects.filter(user=learner).count() == 1


def test_issuing_again_replaces_the_previous_key(client, write_token, learner):
    first = client.post("/api/v1/editor-key", headers=bearer(write_token)).json()["api_key"]
    second = client.post("/api/v1/editor-key", headers=bearer(write_token)).json()["api_key"]
    assert first != second
    beat = [cli_heartbeat(time.time())]
    assert (
        client.post(BULK, beat, content_type="application/json", headers=basic(first)).status_code
        == 401
    )
    assert EditorKey.objects.filter(user=learner).count() == 1


def test_a_read_only_token_may_not_issue_a_key(client, read_token, learner):
    response = client.post("/api/v1/editor-key", headers=bearer(read_token))
    assert response.status_code == 403
    assert not EditorKey.objects.exists()


def test_without_a_token_it_is_refused(client, learner):
    client.force_login(learner)
    assert client.post("/api/v1/editor-key").status_code == 401
    assert not EditorKey.objects.exists()
