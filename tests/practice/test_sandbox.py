"""practice/sandbox.py: the server's check, and what a solution trying to get out of it gets."""

import os
import stat
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from practice import sandbox
from practice.sandbox import CHECK_MOUNT

from .conftest import EXERCISES, ROOT, SLUGS, WRONG

VECTOR_ADD = EXERCISES / "vector-add"
SEED = 918273645

available, why = sandbox.sandbox_available()
needs_sandbox = pytest.mark.skipif(not available, reason=f"no sandbox here: {why}")


def check(*parts, exercise=VECTOR_ADD, seed=SEED, timeout_s=15.0):
    """The sandbox's verdict on the solution made of these parts of source."""
    solution = "".join(textwrap.dedent(part) for part in parts)
    return sandbox.check_in_sandbox(
        exercise_dir=exercise, solution=solution, hidden_seed=seed, timeout_s=timeout_s
    )


def reported(outcome):
    """What an escape attempt reports: it raises its findings, shown for the first case."""
    assert outcome["verdict"] == "crashed", outcome
    assert outcome["message"].startswith("case 1 (size 1) crashed: Report: "), outcome["message"]
    return outcome["message"]


REPORT = """
class Report(Exception):
    pass
"""


@pytest.fixture
def sandboxes_left(monkeypatch):
    """This test's sandboxed processes still running once its check is over (there should be
    none). Its checks carry a mark of their own in their environment: other checks running at
    the same time on the machine (a parallel test run, the worker) are not this test's leftovers.
    A sandbox's pid namespace is torn down by the kernel just after bwrap ends, so a process
    gets a few seconds to go; one that outlived its check is still there after them."""
    mark = f"PARCOURS_TEST_CHECK={uuid.uuid4().hex}".encode()
    environment = sandbox._environment
    monkeypatch.setattr(
        sandbox, "_environment", lambda: environment() | dict([mark.decode().split("=")])
    )

    def marked() -> list[str]:
        found = []
        for process in Path("/proc").iterdir():
            try:
                if process.name.isdigit() and mark in (process / "environ").read_bytes():
                    found.append(process.name)
            except OSError:  # ended meanwhile, or not ours to read
                continue
        return found

    def left() -> list[str]:
        deadline = time.monotonic() + 10
        while (found := marked()) and time.monotonic() < deadline:
            time.sleep(0.2)
        return found

    return left


@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_every_reference_passes_in_the_sandbox_with_hidden_cases(slug):
    """The server's check passes every reference, hidden cases included, within its time."""
    outcome = check((EXERCISES / slug / "reference.py").read_text(), exercise=EXERCISES / slug)

    assert outcome["verdict"] == "passed", outcome["message"]
    assert outcome["cases_run"] > len(sandbox.check.load_exercise(EXERCISES / slug)["public_sizes"])
    print(f"\n{slug}: reference checked in the sandbox in {outcome['seconds']} s")


@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize(("slug", "wrong"), WRONG)
def test_every_known_wrong_solution_fails_in_the_sandbox_naming_the_case(slug, wrong):
    """Each known-wrong solution fails (reads_expected.py too: nothing to read in here), and
    the message names the case."""
    outcome = check((EXERCISES / slug / "wrong" / wrong).read_text(), exercise=EXERCISES / slug)

    assert outcome["verdict"] == "failed", outcome["message"]
    assert outcome["message"].startswith("case "), outcome["message"]
    assert "(size " in outcome["message"]
    print(f"\n| {slug} | {wrong} | {outcome['verdict']} | {outcome['message']} |")


@needs_sandbox
@pytest.mark.slow
def test_an_endless_loop_times_out(sandboxes_left):
    """A solution that never returns is stopped at the time limit: timed_out, case named."""
    outcome = check("def solve(a, b):\n    while True:\n        pass\n", timeout_s=3)

    assert outcome["verdict"] == "timed_out"
    assert outcome["message"] == "case 1 (size 1): the check took longer than 3 s"
    assert outcome["seconds"] < 3 + sandbox.STARTUP_SECONDS + 2
    assert sandboxes_left() == []


@needs_sandbox
@pytest.mark.slow
def test_a_fork_bomb_times_out_and_no_process_outlives_the_check(sandboxes_left):
    """Every process forking without end: the check ends at its time limit, and the whole
    sandbox (its pid namespace) with it."""
    outcome = check(
        """
        import os

        def solve(a, b):
            while True:
                try:
                    os.fork()
                except OSError:
                    pass
        """,
        timeout_s=3,
    )

    assert outcome["verdict"] == "timed_out"
    assert outcome["message"] == "case 1 (size 1): the check took longer than 3 s"
    assert sandboxes_left() == []


@needs_sandbox
@pytest.mark.slow
def test_forking_meets_the_process_limit(sandboxes_left):
    """prlimit's process count refuses forks past MAX_TASKS (threads and processes)."""
    outcome = check(
        REPORT,
        """
        import os, time

        def solve(a, b):
            children, refused = 0, 0
            for _ in range(1000):
                try:
                    if os.fork() == 0:
                        time.sleep(60)
                        os._exit(0)
                    children += 1
                except OSError:
                    refused += 1
            raise Report(f"forked {children}, refused {refused}")
        """,
    )

    message = reported(outcome)
    children = int(message.split("forked ")[1].split(",")[0])
    assert 0 < children < sandbox.MAX_TASKS
    assert f"refused {1000 - children}" in message
    assert sandboxes_left() == []


@needs_sandbox
@pytest.mark.slow
def test_a_memory_bomb_meets_the_address_space_limit():
    """Asking for more memory than allowed is a MemoryError, a crash named as such."""
    outcome = check(
        """
        def solve(a, b):
            hoard = []
            while True:
                hoard.append(bytearray(256 * 1024 * 1024))
        """
    )

    assert outcome["verdict"] == "crashed"
    assert outcome["message"].startswith("case 1 (size 1) crashed: MemoryError")


@needs_sandbox
@pytest.mark.slow
def test_writing_outside_its_folder_fails_and_leaves_the_host_untouched(tmp_path):
    """The system, the exercise, the runner and the host's /tmp are out of reach; only the
    sandbox's own /tmp takes a file, and it goes with the sandbox."""
    targets = [
        "/usr/parcours-escape",
        f"{CHECK_MOUNT}/check.py",
        f"{CHECK_MOUNT}/parcours-escape",
        f"{VECTOR_ADD}/parcours-escape",
        f"{ROOT}/parcours-escape",
        f"{tmp_path}/parcours-escape",
        "/etc/parcours-escape",
        "/parcours-escape",
    ]
    outcome = check(
        REPORT,
        f"""
        def solve(a, b):
            written = []
            for target in {targets!r} + ["/tmp/parcours-escape"]:
                try:
                    with open(target, "a") as file:
                        file.write("escaped")
                    written.append(target)
                except OSError:
                    pass
            raise Report(f"written: {{written}}")
        """,
    )

    assert "Report: written: ['/tmp/parcours-escape'] (solution.py, line " in reported(outcome)
    for target in targets:
        assert not os.path.exists(target) or "escaped" not in Path(target).read_text(), target
    assert not os.path.exists("/tmp/parcours-escape")


@needs_sandbox
@pytest.mark.slow
def test_a_socket_reaches_nothing():
    """No network: not the database, not Redis on the host's loopback, not the internet."""
    outcome = check(
        REPORT,
        """
        import socket

        def solve(a, b):
            answers = []
            for host, port in [("127.0.0.1", 5432), ("127.0.0.1", 6379), ("1.1.1.1", 53), ("pypi.org", 443)]:
                try:
                    socket.create_connection((host, port), timeout=2).close()
                    answers.append(f"{host}:{port} connected")
                except OSError as error:
                    answers.append(f"{host}:{port} {type(error).__name__}")
            raise Report("; ".join(answers))
        """,
    )

    message = reported(outcome)
    assert "connected" not in message
    assert "127.0.0.1:5432 OSError" in message or "127.0.0.1:5432 ConnectionRefusedError" in message


@needs_sandbox
@pytest.mark.slow
def test_the_hidden_cases_the_reference_and_the_sites_secrets_are_not_in_the_sandbox():
    """Nothing in reach holds the seed, an expected output, the reference or the site's
    settings: the solution sees the runner, itself and the inputs."""
    outcome = check(
        REPORT,
        f"""
        import os, sys

        def solve(a, b):
            found = []
            for top in ["{CHECK_MOUNT}", "/tmp", "/check", "/", "/work", "/root", "/home", "/proc/1"]:
                try:
                    found.append(f"{{top}}: {{sorted(os.listdir(top))}}")
                except OSError as error:
                    found.append(f"{{top}}: {{type(error).__name__}}")
            for path in ["{VECTOR_ADD}/reference.py", "{VECTOR_ADD}/cases.py", "/proc/1/environ"]:
                try:
                    open(path).read()
                    found.append(f"OPENED {{path}}")
                except OSError:
                    pass
            found.append(f"argv: {{sys.argv}}")
            found.append(f"env: {{sorted(os.environ)}}")
            found.append(f"inputs: {{sorted(os.listdir('{CHECK_MOUNT}/inputs'))}}")
            raise Report(" | ".join(found))
        """,
    )

    message = reported(outcome)
    assert "OPENED" not in message
    assert f"{CHECK_MOUNT}: ['check.py', 'inputs', 'solution.py']" in message
    assert "inputs: ['0.npz', '1.npz', '2.npz', '3.npz', '4.npz', '5.npz', '6.npz']" in message
    for secret in (
        str(SEED),
        "SECRET_KEY",
        "DATABASE_URL",
        "reference.py",
        "cases.py",
        "expected",
        "wrong",
    ):
        assert secret not in message, secret


@needs_sandbox
@pytest.mark.slow
def test_a_flood_of_printing_is_dropped_and_the_check_answers():
    """Printing without end is read and thrown away past a cap; the verdict is about the output."""
    outcome = check(
        """
        import sys

        def solve(a, b):
            for _ in range(20_000):
                sys.stdout.write("x" * 10_000 + "\\n")
            return a + b
        """
    )

    assert outcome["verdict"] == "passed"


@needs_sandbox
@pytest.mark.slow
def test_a_flood_of_outputs_down_the_pipe_is_refused_as_too_large():
    """Writing to the runner's pipe without end fills the cap: a crash, not a full memory."""
    outcome = check(
        """
        import os, sys

        def solve(a, b):
            fd = int(sys.argv[sys.argv.index("--outputs-fd") + 1])
            while True:
                os.write(fd, b"x" * 1_000_000)
        """
    )

    assert outcome["verdict"] == "crashed"
    assert outcome["message"] == "case 1 (size 1) crashed: the solution's outputs are too large"


def test_a_solution_of_10_mb_is_refused_before_anything_runs():
    """A solution past 64 kB is refused, saying its size and the limit."""
    outcome = check("# " + "x" * (10 * 1024 * 1024) + "\ndef solve(a, b):\n    return a + b\n")

    assert outcome["verdict"] == "refused"
    assert outcome["message"] == "the solution is 10240 kB; the limit is 64 kB"
    assert outcome["cases_run"] == 0


def test_without_bwrap_the_check_is_refused_and_says_why(monkeypatch, tmp_path):
    """No bubblewrap, no check: refused with the reason, and the solution never runs."""
    monkeypatch.setenv("PATH", str(tmp_path))
    marker = tmp_path / "ran"

    outcome = check(f"open({str(marker)!r}, 'w').close()\ndef solve(a, b):\n    return a + b\n")

    assert sandbox.sandbox_available() == (
        False,
        "bwrap is not installed here (Debian: apt-get install bubblewrap util-linux)",
    )
    assert outcome["verdict"] == "refused"
    assert outcome["message"].startswith("no sandbox to check in: bwrap is not installed here")
    assert not marker.exists()


def test_a_bwrap_that_cannot_make_a_sandbox_is_refused_with_its_error(monkeypatch, tmp_path):
    """A bwrap that fails (no user namespaces, say) makes the check refused with bwrap's words."""
    for tool in ("prlimit", "setpriv"):
        (tmp_path / tool).symlink_to(f"/usr/bin/{tool}")
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(tmp_path))

    outcome = check("def solve(a, b):\n    return a + b\n")

    assert outcome["verdict"] == "refused"
    assert (
        outcome["message"]
        == "no sandbox to check in: bwrap cannot create a sandbox here: bwrap: No permissions to create new namespace"
    )
