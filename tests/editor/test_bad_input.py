"""Bad heartbeats: 400 with a JSON error naming the field, and nothing written."""

import time

import pytest

from progress.models import CodingSession, EditorProject, Heartbeat
from tests.editor.conftest import BULK, ONE, cli_heartbeat

NOW = time.time()
DAY = 24 * 3600


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"not": "an array"}, "heartbeats"),
        ([cli_heartbeat(NOW)] * 1001, "heartbeats"),
        (["a string"], "heartbeat"),
        ([cli_heartbeat("1733250000")], "time"),
        ([cli_heartbeat(True)], "time"),
        ([cli_heartbeat(None)], "time"),
        ([cli_heartbeat(NOW + DAY + 3600)], "time"),
        ([cli_heartbeat(946684799)], "time"),
        ([cli_heartbeat(NOW, entity="x" * 2049)], "entity"),
        ([cli_heartbeat(NOW, entity="é" * 1025)], "entity"),
        ([cli_heartbeat(NOW, entity=None)], "entity"),
        ([cli_heartbeat(NOW, entity=42)], "entity"),
        ([cli_heartbeat(NOW, project=["kernels"])], "project"),
        ([cli_heartbeat(NOW, project="a\x00b")], "project"),
        ([cli_heartbeat(NOW, project="p" * 201)], "project"),
        ([cli_heartbeat(NOW, language=3)], "language"),
        ([cli_heartbeat(NOW, category="c" * 33)], "category"),
        ([cli_heartbeat(NOW, lines="100")], "lines"),
        ([cli_heartbeat(NOW, lineno=4.5)], "lineno"),
        ([cli_heartbeat(NOW, cursorpos=True)], "cursorpos"),
        ([cli_heartbeat(NOW, is_write="yes")], "is_write"),
        ([cli_heartbeat(NOW, dependencies="numpy")], "dependencies"),
        ([cli_heartbeat(NOW, dependencies=[1])], "dependencies"),
        ([cli_heartbeat(NOW, branch=7)], "branch"),
        ([cli_heartbeat(NOW, user_agent={})], "user_agent"),
    ],
)
def test_a_bad_bulk_is_refused_whole_with_the_field_named(send, learner, body, field):
    """One bad heartbeat among good ones: the bulk is refused and nothing is kept."""
    response = send(BULK, [cli_heartbeat(NOW - 60), *body] if isinstance(body, list) else body)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == [field]
    assert f"{field}: " in response.json()["error"]
    assert not Heartbeat.objects.exists()
    assert not CodingSession.objects.exists() and not EditorProject.objects.exists()


def test_malformed_json_is_refused(client, send, learner):
    response = send(BULK, "[{not json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["body"]
    assert not Heartbeat.objects.exists()


def test_a_single_heartbeat_that_is_not_an_object_is_refused(send, learner):
    response = send(ONE, [cli_heartbeat(NOW)])
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["heartbeat"]
    assert not Heartbeat.objects.exists()


def test_the_error_says_which_heartbeat(send, learner):
    response = send(BULK, [cli_heartbeat(NOW), cli_heartbeat(NOW, lines="x")])
    assert response.json()["error"].startswith("pulsation 1 : lines: ")  # the site speaks French


def test_a_body_over_the_upload_limit_is_refused_in_json(send, learner, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = send(BULK, [cli_heartbeat(NOW + second) for second in range(20)])
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["body"]
    assert not Heartbeat.objects.exists()


def test_get_is_not_allowed(client, editor_key, learner):
    from tests.editor.conftest import basic

    assert client.get(BULK, headers=basic(editor_key)).status_code == 405
