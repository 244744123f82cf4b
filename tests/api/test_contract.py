"""The API keeps its published contract, checked by a tool nobody here wrote: Schemathesis.

It reads /api/v1/openapi.json from a live server and sends every operation generated valid and
invalid requests (its examples, coverage, fuzzing and stateful phases) with a learner's
read-and-write token, then checks each answer with all of its checks: no 5xx, every status
documented, every body conforming to the documented schema, invalid data refused, valid data
accepted (tests/api/schemathesis.toml names the few rules a schema cannot state).
SCHEMATHESIS_MAX_EXAMPLES bounds the cases per operation (under a minute at the default) and
SCHEMATHESIS_SEED replays a run.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.models import AccessToken

CONFIG = Path(__file__).with_name("schemathesis.toml")


@pytest.fixture
def write_token(learner):
    _token, clear = AccessToken.objects.create_for(user=learner, name="fuzzer", scope="write")
    return clear


def test_schemathesis_finds_no_failure(live_server, seed, write_token, settings, tmp_path, client):
    # Hundreds of requests with one token: the rate limit is tested elsewhere.
    settings.API_RATE_LIMIT = 100_000
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    operations = sum(len(methods) for methods in paths.values())
    command = [
        *(sys.executable, "-m", "schemathesis.cli", "--config-file", str(CONFIG), "run"),
        f"{live_server.url}/api/v1/openapi.json",
        *("--header", f"Authorization: Bearer {write_token}"),
        *("--max-examples", os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "5")),
        *("--seed", os.environ.get("SCHEMATHESIS_SEED", "2026")),
        *("--generation-database", "none", "--no-color"),
    ]
    # Coverage measures the server, in this process; Schemathesis's own process is not measured.
    environment = {k: v for k, v in os.environ.items() if k != "COVERAGE_PROCESS_CONFIG"}
    run = subprocess.run(
        command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=600
    )
    print(run.stdout[-2_000:])  # the summary, shown with -s or -rP
    assert run.returncode == 0, run.stdout[-20_000:] + run.stderr[-5_000:]
    assert f"Tested: {operations}" in run.stdout
