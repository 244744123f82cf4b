"""`parcours editor`: the ~/.wakatime.cfg block that points WakaTime editor plugins at the site.

The first test runs against the live site's POST /api/v1/editor-key (the editor app) and sends a
heartbeat with the key written; the others use a stand-in for answers the live site cannot be
made to give (a damaged file, a refusal)."""

import configparser
import json
import stat
import time
import urllib.request

import pytest

from api.models import AccessToken
from editor.models import EditorKey
from tests.cli.conftest import one_line_error, run, save_config
from tests.editor.conftest import basic, cli_heartbeat
from tests.factories import UserFactory

TOKEN = "pat_0123456789ab_secret-of-the-learner"
KEY = "6f1c2e3a-1b2c-4d5e-8f90-123456789abc"


@pytest.fixture
def home(tmp_path, stand_in):
    save_config(tmp_path, stand_in.url, TOKEN)
    api_url = stand_in.url + "/api/v1/editor"
    stand_in.answer(
        "POST",
        "/api/v1/editor-key",
        201,
        body={
            "api_url": api_url,
            "api_key": KEY,
            "wakatime_cfg": f"[settings]\napi_url = {api_url}\napi_key = {KEY}\n",
        },
    )
    return tmp_path


def test_editor_write_against_the_site_gives_a_key_its_editor_api_accepts(
    live_server, transactional_db, tmp_path
):
    ada = UserFactory(username="ada")
    _token, clear = AccessToken.objects.create_for(user=ada, name="laptop", scope="write")
    assert run("login", "--url", live_server.url, home=tmp_path, stdin=clear + "\n").returncode == 0
    (tmp_path / ".wakatime.cfg").write_text("[settings]\ndebug = true\n")
    result = run("editor", "--write", home=tmp_path)
    assert result.returncode == 0, result.stderr
    cfg = configparser.ConfigParser()
    cfg.read(tmp_path / ".wakatime.cfg")
    assert cfg["settings"]["debug"] == "true"
    assert cfg["settings"]["api_url"] == live_server.url + "/editor/v1"
    assert EditorKey.objects.filter(user=ada).count() == 1
    request = urllib.request.Request(
        cfg["settings"]["api_url"] + "/users/current/heartbeats.bulk",
        data=json.dumps([cli_heartbeat(time.time())]).encode(),
        headers={**basic(cfg["settings"]["api_key"]), "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201


def test_editor_prints_the_block(home, stand_in):
    result = run("editor", home=home)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"[settings]\napi_url = {stand_in.url}/api/v1/editor\napi_key = {KEY}\n"
    assert [(method, path) for method, path, *_rest in stand_in.requests] == [
        ("POST", "/api/v1/editor-key")
    ]
    assert not (home / ".wakatime.cfg").exists()


def test_editor_json_prints_the_answer(home):
    result = run("editor", "--json", home=home)
    assert json.loads(result.stdout)["api_key"] == KEY


def test_editor_write_creates_the_file_readable_only_by_the_learner(home, stand_in):
    result = run("editor", "--write", home=home)
    assert result.returncode == 0, result.stderr
    path = home / ".wakatime.cfg"
    assert (
        path.read_text() == f"[settings]\napi_url = {stand_in.url}/api/v1/editor\napi_key = {KEY}\n"
    )
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert KEY not in result.stdout


def test_editor_write_makes_an_existing_file_readable_only_by_the_learner(home, stand_in):
    """A ~/.wakatime.cfg that others could read is narrowed to 0600 before the key goes in."""
    path = home / ".wakatime.cfg"
    path.write_text("[settings]\ndebug = true\n")
    path.chmod(0o644)
    result = run("editor", "--write", home=home)
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert f"api_key = {KEY}" in path.read_text()
    assert "debug = true" in path.read_text()


def test_editor_write_keeps_other_sections_keys_and_comments(home, stand_in):
    path = home / ".wakatime.cfg"
    path.write_text(
        "# my editor setup\n"
        "[settings]\n"
        "debug = false\n"
        "api_key = waka_old-key\n"
        "api_url=https://wakatime.com/api/v1\n"
        "hide_file_names = true\n"
        "\n"
        "[projectmap]\n"
        "projects/foo = new project name\n"
        "api_key = not-this-one\n"
    )
    result = run("editor", "--write", home=home)
    assert result.returncode == 0, result.stderr
    assert path.read_text() == (
        "# my editor setup\n"
        "[settings]\n"
        f"api_url = {stand_in.url}/api/v1/editor\n"
        f"api_key = {KEY}\n"
        "debug = false\n"
        "hide_file_names = true\n"
        "\n"
        "[projectmap]\n"
        "projects/foo = new project name\n"
        "api_key = not-this-one\n"
    )


def test_editor_write_adds_a_settings_section_when_there_is_none(home, stand_in):
    path = home / ".wakatime.cfg"
    path.write_text("[git]\nsubmodules_disabled = true\n")
    assert run("editor", "--write", home=home).returncode == 0
    assert path.read_text() == (
        "[git]\nsubmodules_disabled = true\n\n"
        f"[settings]\napi_url = {stand_in.url}/api/v1/editor\napi_key = {KEY}\n"
    )


def test_editor_with_a_read_only_token_exits_3_and_writes_nothing(home, stand_in):
    stand_in.answer(
        "POST",
        "/api/v1/editor-key",
        403,
        body={"error": "forbidden", "message": "This token may only read."},
    )
    result = run("editor", "--write", home=home)
    assert result.returncode == 3
    one_line_error(result)
    assert not (home / ".wakatime.cfg").exists()


def test_an_unreadable_wakatime_file_exits_7(home):
    path = home / ".wakatime.cfg"
    path.write_bytes(b"\xff\xfe[settings]\n")
    result = run("editor", "--write", home=home)
    assert result.returncode == 7
    one_line_error(result)
    assert path.read_bytes() == b"\xff\xfe[settings]\n"
