"""Bad heartbeats: each answered on its own with the field named; what clients send is taken."""

import time

import pytest

from progress.models import CodingSession, EditorProject, Heartbeat
from tests.editor.conftest import BULK, ONE, cli_heartbeat

NOW = time.time()
DAY = 24 * 3600
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("beat", "field"),
    [
        ("a string", "heartbeat"),
        (cli_heartbeat("yesterday"), "time"),
        (cli_heartbeat(True), "time"),
        (cli_heartbeat(None), "time"),
        (cli_heartbeat(NOW + DAY + 3600), "time"),
        (cli_heartbeat(946684799), "time"),
        (cli_heartbeat(10**309), "time"),  # 310 digits: float() of it overflows
        (cli_heartbeat(float("inf")), "time"),
        (cli_heartbeat(-(10**400)), "time"),
        (cli_heartbeat(NOW, entity="x" * 2049), "entity"),
        (cli_heartbeat(NOW, entity="é" * 1025), "entity"),
        (cli_heartbeat(NOW, entity=None), "entity"),
        (cli_heartbeat(NOW, entity=42), "entity"),
    ],
)
def test_a_bad_heartbeat_gets_its_own_400_and_the_others_are_kept(send, learner, beat, field):
    """As wakapi answers: the bulk is 201, each heartbeat answered in order, the bad one 400 with
    the field named; the good ones are kept and counted."""
    response = send(BULK, [cli_heartbeat(NOW - 120), beat, cli_heartbeat(NOW - 60)])
    assert response.status_code == 201
    first, bad, last = response.json()["responses"]
    assert (first[1], bad[1], last[1]) == (201, 400, 201)
    assert list(bad[0]["errors"]) == [field]
    assert bad[0]["error"].startswith(f"pulsation 1 : {field}: ")  # the site speaks French
    assert Heartbeat.objects.filter(user=learner).count() == 2
    assert CodingSession.objects.from_editor().get().minutes == 1


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("project", ["kernels"]),
        ("project", "a\x00b"),
        ("project", "p" * 201),
        ("language", 3),
        ("category", "c" * 33),
        ("lines", "x"),
        ("lines", 10**400),
        ("lineno", 4.5),
        ("cursorpos", True),
        ("is_write", "yes"),
        ("dependencies", "numpy"),
        ("dependencies", [1]),
        ("branch", 7),
        ("user_agent", {}),
    ],
)
def test_an_optional_field_that_cannot_be_read_is_dropped_not_fatal(send, learner, field, value):
    response = send(BULK, [cli_heartbeat(NOW - 60), cli_heartbeat(NOW, **{field: value})])
    assert response.status_code == 201
    (_, first), (answer, second) = response.json()["responses"]
    assert (first, second) == (201, 201)
    assert field not in answer["data"] or (field == "project" and answer["data"][field] != value)
    assert Heartbeat.objects.filter(user=learner).count() == 2


def test_numbers_sent_as_numeric_strings_are_read(send, learner):
    """wakatime 13 passes the plugins' --lineno and --cursorpos on as text."""
    beat = cli_heartbeat(str(NOW), lineno="42", cursorpos="7", lines="100")
    response = send(BULK, [beat])
    [[answer, status]] = response.json()["responses"]
    assert status == 201
    assert (answer["data"]["lineno"], answer["data"]["cursorpos"], answer["data"]["lines"]) == (
        42,
        7,
        100,
    )
    assert Heartbeat.objects.filter(user=learner).count() == 1


def test_a_file_name_that_is_not_utf_8_is_counted(send, learner):
    """The client sends its undecodable bytes as lone surrogates (caf\\xe9.cu as caf\\udce9.cu):
    the entity is digested as it is, a project name shows U+FFFD where it could not be read."""
    response = send(
        BULK,
        [
            cli_heartbeat(NOW - 120, entity="/home/ada/caf\udce9.cu", project="caf\udce9"),
            cli_heartbeat(NOW - 60, entity="/home/ada/caf\udce8.cu", project="caf\udce9"),
        ],
    )
    assert [status for _answer, status in response.json()["responses"]] == [201, 201]
    assert Heartbeat.objects.filter(user=learner).count() == 2
    assert EditorProject.objects.get(user=learner).name == "caf\ufffd"
    assert CodingSession.objects.from_editor().get().minutes == 1


def test_a_single_heartbeat_with_a_surrogate_in_every_text_field_is_kept(send, learner):
    beat = cli_heartbeat(NOW, entity="\ud800", language="C\udce9", category="\udfff")
    response = send(ONE, beat)
    assert response.status_code == 201
    assert Heartbeat.objects.get(user=learner).language == "C\ufffd"


def test_past_25_heartbeats_the_rest_are_not_answered_so_the_clients_send_them_again(send, learner):
    response = send(BULK, [cli_heartbeat(NOW - 3000 + 60 * n) for n in range(30)])
    assert response.status_code == 201
    assert len(response.json()["responses"]) == 25
    assert Heartbeat.objects.filter(user=learner).count() == 25


@pytest.mark.parametrize("body", [{"not": "an array"}, "[{not json", DEEP, "[1" + "0" * 400 + "]"])
def test_a_body_that_is_not_an_array_of_heartbeats_is_refused_whole(send, learner, body):
    response = send(BULK, body)
    if body == "[1" + "0" * 400 + "]":  # an array, of one heartbeat that is not an object
        assert response.json()["responses"][0][1] == 400
        return
    assert response.status_code == 400
    assert list(response.json()["errors"]) in (["heartbeats"], ["body"])
    assert not Heartbeat.objects.exists()
    assert not CodingSession.objects.exists() and not EditorProject.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        DEEP,
        f'{{"time": {NOW}, "entity": "/a.cu", "dependencies": {DEEP[::2]}}}',
        '{"time": 1' + "0" * 400 + ', "entity": "/a.cu"}',
    ],
)
def test_a_single_heartbeat_that_cannot_be_read_is_a_400_never_a_500(send, learner, body):
    response = send(ONE, body)
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert not Heartbeat.objects.exists()


def test_a_single_heartbeat_that_is_not_an_object_is_refused(send, learner):
    response = send(ONE, [cli_heartbeat(NOW)])
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["heartbeat"]
    assert not Heartbeat.objects.exists()


def test_a_body_over_the_upload_limit_is_refused_in_json(send, learner, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = send(BULK, [cli_heartbeat(NOW + second) for second in range(20)])
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["body"]
    assert not Heartbeat.objects.exists()


def test_get_is_not_allowed(client, editor_key, learner):
    from tests.editor.conftest import basic

    assert client.get(BULK, headers=basic(editor_key)).status_code == 405
