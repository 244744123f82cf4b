"""The client's commands against the live test server, as a learner runs them in a terminal."""

import glob
import json
import re
import shutil
import stat
import subprocess
from datetime import date, timedelta
from pathlib import Path

import pytest

from api.models import AccessToken
from progress import actions
from progress.models import CodingSession, Watch
from tests.cli.conftest import CLI, one_line_error, run
from tests.factories import CodingSessionFactory, ResourceFactory, UserFactory


@pytest.fixture
def ada(transactional_db):
    return UserFactory(username="ada")


@pytest.fixture
def token(ada):
    _token, clear = AccessToken.objects.create_for(user=ada, name="laptop", scope="write")
    return clear


@pytest.fixture
def home(live_server, token, tmp_path):
    """A learner's home where `parcours login` has run against the live server."""
    result = run("login", "--url", live_server.url, home=tmp_path, stdin=token + "\n")
    assert result.returncode == 0, result.stderr
    return tmp_path


def python_3_9():
    """A real Python 3.9 (pyenv's or the system's), not a pyenv shim that may refuse to run."""
    candidates = [
        *sorted(glob.glob(str(Path.home() / ".pyenv/versions/3.9*/bin/python3.9"))),
        shutil.which("python3.9"),
    ]
    return next((c for c in candidates if c and "/shims/" not in c), None)


def test_the_file_runs_alone_and_says_its_version(tmp_path):
    version = re.search(r'__version__ = "(.+)"', CLI.read_text()).group(1)
    result = run("--version", home=tmp_path)
    assert (result.returncode, result.stdout.strip()) == (0, f"parcours {version}")


def test_help_lists_every_command_and_the_exit_codes(tmp_path):
    result = run("--help", home=tmp_path)
    assert result.returncode == 0
    for command in (
        "login",
        "logout",
        "resources",
        "log",
        "sessions",
        "status",
        "watched",
        "practice",
        "check",
        "submit",
    ):
        assert command in result.stdout
    for code in range(9):
        assert f"\n  {code}  " in result.stdout


def test_login_stores_the_site_and_token_readable_only_by_the_learner(live_server, token, tmp_path):
    result = run("login", "--url", live_server.url + "/api/v1/", home=tmp_path, stdin=token + "\n")
    assert result.returncode == 0, result.stderr
    assert "ada" in result.stdout
    assert token not in result.stdout + result.stderr
    path = tmp_path / "config" / "parcours" / "config.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert json.loads(path.read_text()) == {"url": live_server.url, "token": token}


def test_login_with_a_bad_token_stores_nothing_and_exits_3(live_server, ada, tmp_path):
    result = run("login", "--url", live_server.url, home=tmp_path, stdin="pat_nope\n")
    assert result.returncode == 3
    assert "token" in one_line_error(result).lower()
    assert not (tmp_path / "config" / "parcours" / "config.json").exists()


def test_the_token_is_never_taken_from_the_command_line(live_server, token, tmp_path):
    result = run("login", "--url", live_server.url, "--token", token, home=tmp_path)
    assert result.returncode == 2
    assert not (tmp_path / "config" / "parcours" / "config.json").exists()


def test_the_token_may_come_from_the_environment(live_server, ada, token, tmp_path):
    environment = {"PARCOURS_URL": live_server.url, "PARCOURS_TOKEN": token}
    result = run("status", "--json", home=tmp_path, environment=environment)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["username"] == "ada"


def test_log_saves_a_session_on_the_resource(home, ada):
    ResourceFactory(slug="gpu-mode-9")
    result = run("log", "90", "--resource", "gpu-mode-9", "reduction kernel", home=home)
    assert result.returncode == 0, result.stderr
    session = CodingSession.objects.get()
    assert result.stdout.strip() == f"Logged 1 h 30 on {session.day} (session {session.pk})."
    assert (session.user, session.minutes, session.built) == (ada, 90, "reduction kernel")
    assert session.resource.slug == "gpu-mode-9"


def test_log_json_prints_the_session(home):
    result = run("log", "45", "--chapter", "2.5", "scan", "--json", home=home)
    assert result.returncode in (0, 2), result.stderr  # the chapter exists only with the seed
    result = run("log", "45", "scan", "--json", home=home)
    assert result.returncode == 2  # a session goes with a resource or a chapter
    ResourceFactory(slug="gpu-mode-9")
    result = run("log", "45", "--resource", "gpu-mode-9", "scan", "--json", home=home)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["id"] == CodingSession.objects.get().pk


def test_two_invocations_are_two_sessions(home):
    """Each invocation has its own idempotency key: only a retry of one call is deduplicated."""
    ResourceFactory(slug="gpu-mode-9")
    for _time in range(2):
        run("log", "30", "--resource", "gpu-mode-9", "scan", home=home)
    assert CodingSession.objects.count() == 2


def test_a_validation_error_names_the_field_and_exits_2(home):
    ResourceFactory(slug="gpu-mode-9")
    result = run("log", "2000", "--resource", "gpu-mode-9", "too long", home=home)
    assert result.returncode == 2
    assert "minutes" in one_line_error(result)
    assert not CodingSession.objects.exists()


def test_an_unknown_resource_exits_4_for_every_command(home):
    for command in (
        ("log", "30", "--resource", "nope", "x"),
        ("watched", "nope"),
        ("unwatched", "nope"),
    ):
        result = run(*command, home=home)
        assert result.returncode == 4, (command, result.stderr)
        assert "nope" in one_line_error(result)
    assert not CodingSession.objects.exists()


def test_status_writes_hours_and_minutes_as_the_site_does(home, ada):
    resource = ResourceFactory(slug="gpu-mode-12", duration_minutes=90)
    actions.mark_watched(user=ada, resource=resource)
    result = run("status", home=home)
    assert result.returncode == 0, result.stderr
    assert (
        "This week: You watched 1 h 30 and coded 0 min this week: 4 h 30 more code" in result.stdout
    )


def test_status_json_is_the_sites_summary(home, ada):
    actions.mark_watched(
        user=ada, resource=ResourceFactory(slug="gpu-mode-12", duration_minutes=60)
    )
    result = run("status", "--json", home=home)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert (summary["username"], summary["this_week"]["owed_minutes"]) == ("ada", 180)


def test_status_speaks_french_when_the_terminal_does(home):
    result = run("status", home=home, language="fr_FR.UTF-8")
    assert "Cette semaine" in result.stdout


def test_resources_finds_by_word_and_shows_slugs_in_the_learners_language(home, ada):
    flash = ResourceFactory(
        slug="gpu-mode-12", title_fr="Attention éclair", title_en="Flash attention"
    )
    ResourceFactory(slug="gpu-mode-9", title_fr="Réductions", title_en="Reductions")
    actions.mark_watched(user=ada, resource=flash)
    english = run("resources", "flash", home=home)
    assert english.returncode == 0, english.stderr
    assert english.stdout.splitlines() == ["✓ gpu-mode-12      1 h  Flash attention"]
    french = run("resources", home=home, language="fr_FR.UTF-8")
    assert "gpu-mode-12      1 h  Attention éclair" in french.stdout
    assert "gpu-mode-9       1 h  Réductions" in french.stdout


def test_resources_json_and_no_match(home):
    ResourceFactory(slug="gpu-mode-9", title_en="Reductions", title_fr="Réductions")
    result = run("resources", "reductions", "--json", home=home)
    assert [resource["slug"] for resource in json.loads(result.stdout)] == ["gpu-mode-9"]
    result = run("resources", "hopper tma", home=home)
    assert (result.returncode, result.stdout) == (0, "")
    assert "hopper tma" in result.stderr


def test_watched_and_unwatched_change_the_resource(home, ada):
    ResourceFactory(slug="gpu-mode-12", title="Flash attention")
    result = run("watched", "gpu-mode-12", home=home)
    assert result.returncode == 0, result.stderr
    assert "Flash attention" in result.stdout
    assert Watch.objects.get(user=ada).is_finished
    result = run("unwatched", "gpu-mode-12", "--json", home=home)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["state"]["is_done"] is False
    assert not Watch.objects.get(user=ada).is_finished


def test_sessions_lists_newest_first_since_a_day(home, ada):
    resource = ResourceFactory(slug="gpu-mode-9")
    today = date.today()
    for days_ago, built in ((10, "old scan"), (1, "tiled matmul"), (0, "flash kernel")):
        CodingSessionFactory(
            user=ada, resource=resource, minutes=75, built=built, day=today - timedelta(days_ago)
        )
    result = run("sessions", "--since", "3d", home=home)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split("gpu-mode-9")[1].strip() for line in lines] == [
        "flash kernel",
        "tiled matmul",
    ]
    assert "1 h 15" in lines[0]
    result = run("sessions", "--json", "--since", (today - timedelta(30)).isoformat(), home=home)
    assert [session["built"] for session in json.loads(result.stdout)][-1] == "old scan"


def test_sessions_since_a_non_day_is_a_usage_error(home):
    result = run("sessions", "--since", "last week", home=home)
    assert result.returncode == 2
    assert "--since" in result.stderr


def test_logout_forgets_the_token(home):
    result = run("logout", home=home)
    assert result.returncode == 0, result.stderr
    assert "revoke" in result.stdout
    assert not (home / "config" / "parcours" / "config.json").exists()
    result = run("status", home=home)
    assert result.returncode == 3
    assert "parcours login" in one_line_error(result)


def test_a_revoked_token_exits_3(home):
    AccessToken.objects.get().revoke()
    result = run("status", home=home)
    assert result.returncode == 3
    assert "revoked" in one_line_error(result)


def test_a_read_only_token_cannot_write_and_exits_3(live_server, ada, tmp_path):
    _token, clear = AccessToken.objects.create_for(user=ada, name="reader", scope="read")
    run("login", "--url", live_server.url, home=tmp_path, stdin=clear + "\n")
    ResourceFactory(slug="gpu-mode-12")
    result = run("watched", "gpu-mode-12", home=tmp_path)
    assert result.returncode == 3
    one_line_error(result)
    assert not Watch.objects.exists()


def test_without_login_the_client_says_so(tmp_path):
    result = run("status", home=tmp_path)
    assert result.returncode == 3
    assert "parcours login" in one_line_error(result)


def test_bash_completion_names_the_commands(tmp_path):
    result = run("completion", "bash", home=tmp_path)
    assert result.returncode == 0
    assert "complete -F _parcours parcours" in result.stdout
    assert "resources" in result.stdout and "--since" in result.stdout
    assert subprocess.run(["bash", "-n"], input=result.stdout, text=True).returncode == 0


@pytest.mark.skipif(not python_3_9(), reason="no Python 3.9 on this machine (python3.9 or pyenv)")
def test_the_client_works_on_python_3_9(live_server, token, ada, tmp_path):
    """The oldest Python the distribution declares: the commands a learner starts with."""
    python = python_3_9()
    ResourceFactory(slug="gpu-mode-9", title_en="CUDA reductions", title_fr="Réductions CUDA")
    assert run("--version", home=tmp_path, python=python).returncode == 0
    login = run("login", "--url", live_server.url, home=tmp_path, stdin=token + "\n", python=python)
    assert login.returncode == 0, login.stderr
    found = run("resources", "cuda", home=tmp_path, python=python)
    assert "gpu-mode-9" in found.stdout, found.stderr
    logged = run("log", "30", "--resource", "gpu-mode-9", "scan", home=tmp_path, python=python)
    assert logged.returncode == 0, logged.stderr
    status = run("status", "--json", home=tmp_path, python=python)
    assert json.loads(status.stdout)["this_week"]["coded_minutes"] == 30
    assert CodingSession.objects.get().user == ada
