import base64
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from editor.models import EditorKey
from tests.api.conftest import write_token  # noqa: F401  (a read-and-write API token, shared)
from tests.groups.conftest import group  # noqa: F401  (Ada's group, where Grace shares her coding)
from tests.progress.conftest import seed_path, seed_path_rows  # noqa: F401  (shared)

BASE = "/editor/v1"
BULK = f"{BASE}/users/current/heartbeats.bulk"
ONE = f"{BASE}/users/current/heartbeats"
STATUS_BAR = f"{BASE}/users/current/statusbar/today"


def an_hour_ago_for(minutes: int) -> float:
    """About an hour ago, as wakatime-cli writes a heartbeat's time, moved earlier when the next
    `minutes` would cross midnight in the learner's day (the site's time zone here): coding is
    counted per day, and such a run would make two sessions."""
    start = timezone.localtime() - timedelta(hours=1)
    end = start + timedelta(minutes=minutes)
    if end.date() != start.date():
        midnight = end.replace(hour=0, minute=0, second=0, microsecond=0)
        start = midnight - timedelta(minutes=minutes + 1)
    return start.timestamp()


def in_bulks(beats, size=25):
    """The heartbeats in bulks of 25 at most, as both clients send them."""
    return [beats[start : start + size] for start in range(0, len(beats), size)]


def basic(key):
    """The header wakatime-cli and wakatime 13 send: Basic base64(api_key), no user."""
    return {"Authorization": "Basic " + base64.b64encode(key.encode()).decode()}


def cli_heartbeat(at, *, project="kernels", entity="/home/ada/kernels/reduce.cu", **fields):
    """A heartbeat with the fields and types wakatime-cli sends (pkg/heartbeat/heartbeat.go):
    time a float, optional fields omitted when empty, user_agent always there."""
    beat = {
        "branch": "main",
        "category": "coding",
        "cursorpos": 12,
        "entity": entity,
        "is_write": True,
        "language": "CUDA",
        "lineno": 42,
        "lines": 100,
        "project": project,
        "type": "file",
        "time": at,
        "user_agent": "wakatime/v1.102.1 (linux-6.1.0-amd64) go1.22.1 vscode/1.95.3 "
        "vscode-wakatime/24.6.2",
    }
    beat.update(fields)
    return beat


def legacy_heartbeat(at, *, project="kernels", entity="/home/ada/kernels/reduce.cu"):
    """A heartbeat as wakatime 13.1.0's Heartbeat.dict() sends it: every key, None when unknown."""
    return {
        "time": at,
        "entity": entity,
        "type": "file",
        "category": None,
        "is_write": False,
        "project": project,
        "branch": "master",
        "language": "CUDA",
        "dependencies": [],
        "lines": 37,
        "lineno": None,
        "cursorpos": None,
        "user_agent": "wakatime/13.1.0 (Linux-6.1.0-x86_64-with-glibc2.36) Python3.9.18.final.0 "
        "vim/9.0",
    }


@pytest.fixture
def editor_key(learner):
    """The learner's editor key, in clear."""
    return EditorKey.objects.issue(user=learner)


@pytest.fixture
def send(client, editor_key):
    """Post a JSON body to an editor endpoint with the learner's key, as the clients do."""

    def send(path, body, key=None):
        return client.post(
            path, body, content_type="application/json", headers=basic(key or editor_key)
        )

    return send


@pytest.fixture
def now():
    return time.time()
