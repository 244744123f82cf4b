"""End to end: the real legacy client, `wakatime` 13.1.0 from PyPI, sends to a live Parcours.

It runs on Python 3.9 (pyenv has one here); the test builds a venv with it once per machine, and
is skipped, with the reason, where no such Python or package can be had. It takes the full
heartbeats URL as api_url and reads the key from ~/.wakatime.cfg, as the docs say.
"""

import fcntl
import glob
import os
import subprocess
import time
from pathlib import Path

import pytest

from editor.models import EditorKey
from progress.models import CodingSession, Heartbeat
from tests.editor.conftest import an_hour_ago_for
from tests.factories import UserFactory

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "parcours-wakatime13"


def legacy_client() -> Path:
    """The wakatime 13.1.0 command, in a venv made once from a Python 3.9."""
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    # Two test workers may both find no client: the second waits for the first's install.
    with open(CACHE.parent / "parcours-wakatime13.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return installed_client()


def installed_client() -> Path:
    command = CACHE / "bin" / "wakatime"
    if command.exists():
        return command
    pythons = sorted(glob.glob(str(Path.home() / ".pyenv/versions/3.9*/bin/python")))
    if not pythons:
        pytest.skip("no Python 3.9 here (wakatime 13.1.0 needs one): ~/.pyenv/versions/3.9*")
    try:
        subprocess.run([pythons[-1], "-m", "venv", str(CACHE)], check=True, capture_output=True)
        subprocess.run(
            [str(CACHE / "bin" / "pip"), "install", "--quiet", "wakatime==13.1.0"],
            check=True,
            capture_output=True,
            timeout=300,
        )
    except (subprocess.SubprocessError, OSError) as error:
        pytest.skip(f"cannot install wakatime 13.1.0 for {pythons[-1]}: {error}")
    return command


@pytest.fixture
def home(tmp_path):
    """A home of its own: the client keeps its config, log and offline queue there."""
    (tmp_path / "kernels").mkdir()
    source = tmp_path / "kernels" / "reduce.cu"
    source.write_text("__global__ void reduce() {}\n")
    return tmp_path


def send(command, home, *, at, key=None, entity=None, extra=()):
    entity = entity or home / "kernels" / "reduce.cu"
    arguments = [str(command), "--entity", os.fsencode(entity), "--time", str(at), "--write"]
    arguments += ["--project", "kernels", "--plugin", "vim/9.0.1 vim-wakatime/9.0.1"]
    arguments += ["--key", key] if key else []
    arguments += list(extra)
    environment = {"HOME": str(home), "PATH": os.environ.get("PATH", "")}
    return subprocess.run(arguments, env=environment, capture_output=True, text=True, timeout=60)


@pytest.mark.django_db(transaction=True)
def test_wakatime_13_logs_coded_time_into_parcours(live_server, home):
    command = legacy_client()
    learner = UserFactory(username="ada")
    key = EditorKey.objects.issue(user=learner)
    bulk_url = f"{live_server.url}/editor/v1/users/current/heartbeats.bulk"
    (home / ".wakatime.cfg").write_text(f"[settings]\napi_url = {bulk_url}\napi_key = {key}\n")
    start = an_hour_ago_for(minutes=7)
    for minutes in (0, 4, 7):
        result = send(command, home, at=start + minutes * 60)
        assert result.returncode == 0, result.stdout + result.stderr
    session = CodingSession.objects.from_editor().get(user=learner)
    assert (session.minutes, session.editor_project) == (7, "kernels")
    assert EditorKey.objects.get(user=learner).last_used_at is not None


@pytest.mark.django_db(transaction=True)
def test_wakatime_13_with_the_plugins_arguments_and_a_file_name_not_in_utf_8_logs_its_time(
    live_server, home
):
    """As vim-wakatime calls it: --lineno and --cursorpos (sent on as text, "42"), --language;
    the file saved as caf\\xe9.cu (Latin-1 on Linux), which the client sends as caf\\udce9.cu.
    (wakatime 13 has no --lines: it counts the file's lines itself.)"""
    command = legacy_client()
    learner = UserFactory(username="ada")
    key = EditorKey.objects.issue(user=learner)
    bulk_url = f"{live_server.url}/editor/v1/users/current/heartbeats.bulk"
    (home / ".wakatime.cfg").write_text(f"[settings]\napi_url = {bulk_url}\napi_key = {key}\n")
    latin_1 = home / "kernels" / os.fsdecode(b"caf\xe9.cu")
    latin_1.write_text("__global__ void cafe() {}\n")
    start = an_hour_ago_for(minutes=9)
    for minutes, entity in ((0, None), (3, latin_1), (6, latin_1), (9, None)):
        extra = ["--lineno", str(40 + minutes), "--cursorpos", "7", "--language", "CUDA"]
        result = send(command, home, at=start + minutes * 60, entity=entity, extra=extra)
        assert result.returncode == 0, result.stdout + result.stderr
    session = CodingSession.objects.from_editor().get(user=learner)
    assert (session.minutes, session.editor_project) == (9, "kernels")
    assert Heartbeat.objects.filter(user=learner, language="CUDA").count() == 4


@pytest.mark.django_db(transaction=True)
def test_wakatime_13_refuses_a_key_that_is_not_a_uuid4_and_parcours_401_another(live_server, home):
    """Exit 104 (AUTH_ERROR) both times: a pat_ token is refused before anything is sent, and a
    well-shaped key Parcours does not know is answered 401."""
    command = legacy_client()
    bulk_url = f"{live_server.url}/editor/v1/users/current/heartbeats.bulk"
    (home / ".wakatime.cfg").write_text(f"[settings]\napi_url = {bulk_url}\n")
    assert send(command, home, at=time.time(), key="pat_0123456789ab_secret").returncode == 104
    unknown = "5f0c4d6e-1a2b-4c3d-8e9f-0a1b2c3d4e5f"
    assert send(command, home, at=time.time(), key=unknown).returncode == 104
    assert not CodingSession.objects.exists()
