"""The editor key: sent as WakaTime's clients send it; unknown, replaced or revoked → 401."""

import base64

from editor.models import EditorKey
from progress.models import Heartbeat
from tests.editor.conftest import BULK, basic, cli_heartbeat


def post(client, headers, beats):
    return client.post(BULK, beats, content_type="application/json", headers=headers)


def test_the_key_is_accepted_in_every_shape_the_clients_send(client, editor_key, now, learner):
    shapes = [
        basic(editor_key),
        basic(f"waka_{editor_key}"),
        basic(editor_key.upper()),
        {"Authorization": "Basic " + base64.b64encode(f"{editor_key}:".encode()).decode()},
        {"Authorization": "Basic " + base64.b64encode(f"ada:{editor_key}".encode()).decode()},
        {"Authorization": f"Bearer {editor_key}"},
        {"Authorization": f"Bearer waka_{editor_key}"},
    ]
    for second, headers in enumerate(shapes):
        assert post(client, headers, [cli_heartbeat(now - second)]).status_code == 201
    assert Heartbeat.objects.filter(user=learner).count() == len(shapes)


def test_an_unknown_or_malformed_key_gets_401_and_nothing_is_kept(client, editor_key, now):
    for headers in [
        {},
        basic("5f0c4d6e-1a2b-4c3d-8e9f-0a1b2c3d4e5f"),
        basic("not-a-uuid"),
        {"Authorization": "Basic !!!"},
        {"Authorization": "Token " + editor_key},
    ]:
        response = post(client, headers, [cli_heartbeat(now)])
        assert response.status_code == 401
        assert response["WWW-Authenticate"].startswith("Basic")
        assert "error" in response.json()
    assert not Heartbeat.objects.exists()


def test_a_replaced_key_no_longer_works(client, editor_key, learner, now):
    new_key = EditorKey.objects.issue(user=learner)
    assert post(client, basic(editor_key), [cli_heartbeat(now)]).status_code == 401
    assert post(client, basic(new_key), [cli_heartbeat(now)]).status_code == 201
    assert EditorKey.objects.filter(user=learner).count() == 1


def test_a_revoked_key_gets_401(client, editor_key, learner, now):
    EditorKey.objects.filter(user=learner).delete()
    assert post(client, basic(editor_key), [cli_heartbeat(now)]).status_code == 401


def test_an_inactive_learner_s_key_gets_401(client, editor_key, learner, now):
    learner.is_active = False
    learner.save()
    assert post(client, basic(editor_key), [cli_heartbeat(now)]).status_code == 401


def test_the_key_is_stored_as_a_digest(editor_key):
    stored = EditorKey.objects.values_list("token_hash", flat=True).get()
    assert editor_key not in stored and len(stored) == 64


def test_past_the_rate_limit_a_key_gets_429_with_retry_after(
    client, editor_key, other_learner, redis_cache, settings, now
):
    """Counted in heartbeats, per key: a bulk of three counts three; a second learner's key keeps
    its own count."""
    settings.EDITOR_RATE_LIMIT = 4
    settings.EDITOR_RATE_PERIOD = 60
    bulk = [cli_heartbeat(now - second) for second in range(3)]
    assert post(client, basic(editor_key), bulk).status_code == 201
    assert post(client, basic(editor_key), [cli_heartbeat(now - 4)]).status_code == 201
    response = post(client, basic(editor_key), [cli_heartbeat(now - 5)])
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert Heartbeat.objects.count() == 4
    other_key = EditorKey.objects.issue(user=other_learner)
    assert post(client, basic(other_key), [cli_heartbeat(now)]).status_code == 201


def test_a_use_is_recorded(client, editor_key, now):
    assert EditorKey.objects.get().last_used_at is None
    post(client, basic(editor_key), [cli_heartbeat(now)])
    assert EditorKey.objects.get().last_used_at is not None
