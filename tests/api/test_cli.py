"""The `parcours` command-line client, run as a subprocess against the live test server."""

import json
import socket
import stat
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from api.models import AccessToken
from progress.models import CodingSession, Watch
from tests.factories import ResourceFactory, UserFactory

CLI = Path(__file__).resolve().parents[2] / "cli" / "parcours.py"


def run(*arguments, config, stdin="", language="C"):
    environment = {"XDG_CONFIG_HOME": str(config), "LANG": language, "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, str(CLI), *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
    )


@pytest.fixture
def ada(transactional_db):
    return UserFactory(username="ada")


@pytest.fixture
def token(ada):
    _token, clear = AccessToken.objects.create_for(user=ada, name="laptop", scope="write")
    return clear


@pytest.fixture
def logged_in(live_server, token, tmp_path):
    result = run("login", "--url", live_server.url, config=tmp_path, stdin=token + "\n")
    assert result.returncode == 0, result.stderr
    return tmp_path


def test_the_console_script_is_declared():
    assert [e.value for e in entry_points(group="console_scripts", name="parcours")] == [
        "parcours:main"
    ]


def test_login_stores_the_site_and_token_readable_only_by_the_learner(live_server, token, tmp_path):
    result = run("login", "--url", live_server.url, config=tmp_path, stdin=token + "\n")
    assert result.returncode == 0
    assert "ada" in result.stdout
    path = tmp_path / "parcours" / "config.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == {"url": live_server.url, "token": token}


def test_login_with_a_bad_token_stores_nothing_and_exits_3(live_server, ada, tmp_path):
    result = run("login", "--url", live_server.url, config=tmp_path, stdin="pat_nope\n")
    assert result.returncode == 3
    assert "token" in result.stderr.lower()
    assert not (tmp_path / "parcours" / "config.json").exists()


def test_log_saves_a_session_on_the_resource(logged_in, ada):
    ResourceFactory(slug="gpu-mode-9")
    result = run("log", "90", "--resource", "gpu-mode-9", "reduction kernel", config=logged_in)
    assert result.returncode == 0, result.stderr
    assert "90 min" in result.stdout
    session = CodingSession.objects.get()
    assert (session.user, session.minutes, session.built) == (ada, 90, "reduction kernel")
    assert session.resource.slug == "gpu-mode-9"


def test_two_invocations_are_two_sessions(logged_in):
    """Each invocation has its own idempotency key: only a retry of one call is deduplicated."""
    ResourceFactory(slug="gpu-mode-9")
    for _time in range(2):
        run("log", "30", "--resource", "gpu-mode-9", "scan", config=logged_in)
    assert CodingSession.objects.count() == 2


def test_a_validation_error_names_the_field_and_exits_2(logged_in):
    ResourceFactory(slug="gpu-mode-9")
    result = run("log", "2000", "--resource", "gpu-mode-9", "too long", config=logged_in)
    assert result.returncode == 2
    assert "minutes" in result.stderr
    assert not CodingSession.objects.exists()


def test_an_unknown_resource_names_the_field(logged_in):
    result = run("log", "30", "--resource", "nope", "x", config=logged_in)
    assert result.returncode == 2
    assert "resource" in result.stderr


def test_status_prints_the_balance_owed_minutes_and_next_up(logged_in, ada):
    from progress import actions

    resource = ResourceFactory(slug="gpu-mode-12", duration_minutes=60)
    actions.mark_watched(user=ada, resource=resource)
    result = run("status", config=logged_in)
    assert result.returncode == 0, result.stderr
    assert "60 min watched, 0 min coded, 180 min of code owed" in result.stdout


def test_status_speaks_french_when_the_terminal_does(logged_in):
    result = run("status", config=logged_in, language="fr_FR.UTF-8")
    assert "Cette semaine" in result.stdout


def test_watched_marks_the_resource_watched(logged_in, ada):
    ResourceFactory(slug="gpu-mode-12", title="Flash attention")
    result = run("watched", "gpu-mode-12", config=logged_in)
    assert result.returncode == 0, result.stderr
    assert "Flash attention" in result.stdout
    assert Watch.objects.get(user=ada).is_finished


def test_watched_an_unknown_resource_exits_4(logged_in):
    result = run("watched", "nope", config=logged_in)
    assert result.returncode == 4
    assert "nope" in result.stderr


def test_a_revoked_token_exits_3(logged_in):
    AccessToken.objects.get().revoke()
    result = run("status", config=logged_in)
    assert result.returncode == 3
    assert "revoked" in result.stderr


def test_without_login_the_client_says_so(tmp_path):
    result = run("status", config=tmp_path)
    assert result.returncode == 3
    assert "parcours login" in result.stderr


def test_a_site_that_cannot_be_reached_exits_5(tmp_path):
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    config = tmp_path / "parcours"
    config.mkdir()
    (config / "config.json").write_text(
        json.dumps({"url": f"http://127.0.0.1:{port}", "token": "pat_x"})
    )
    result = run("status", config=tmp_path)
    assert result.returncode == 5
    assert "Cannot reach" in result.stderr
