"""Check a learner's solution on the server, inside bubblewrap, with its hidden cases.

The design: the solution never sees what would let it pass without computing. The learner's
code runs in the same process as the runner inside the sandbox, so whatever that process holds
the solution can read (a seed on argv, expected answers in memory, the reference on disk).
Here, then, the trusted side, this process, makes every case with the exercise's `cases.py`
(the public ones and the hidden ones from `hidden_seed`), keeps the expected outputs and hands
the sandbox the inputs alone, as .npz files. Inside, `check.py --inputs` runs `solve` on each
and sends each output back down a pipe; this process compares them with the expected ones
(`check.compare`, the same code as the learner's check) and words the verdict, a hidden case
only as "a hidden case failed". Nothing else of the exercise is in the sandbox: not the seed,
not the expected outputs, not `cases.py`, not `reference.py` or `wrong/`. A solution that
forges its outputs can only forge them by computing them. The hidden inputs are no secret from
the solution (it must read them to compute) and it could echo them in a crash message: the
secret is the seed and the expected outputs, so the site should draw a new seed per submission.

The sandbox: `bwrap` with every namespace unshared (no network), /usr and the Python it needs
read-only, a private /tmp (a small tmpfs, the only writable place), the runner, the solution and
the inputs read-only, a minimal environment (no secret of the site's); `prlimit` inside it
limits CPU seconds, address space, processes and threads, and file size; a wall-clock timeout
ends it; what it prints is read up to a cap and thrown away. When the site runs as root (a
container), bwrap adds no user namespace and `setpriv` drops to an unused uid inside, since the
kernel does not apply the process limit to root. Without a working `bwrap` the check is refused
and says why: a solution never runs outside the sandbox.
"""

from __future__ import annotations

import io
import json
import os
import secrets
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from practice.runner import check

MAX_SOLUTION_BYTES = 64 * 1024
MAX_OUTPUTS_BYTES = 8 * 1024 * 1024  # the solution's outputs, all cases together
MAX_PRINTED_BYTES = 64 * 1024  # what the solution prints, read and discarded past this
ADDRESS_SPACE_BYTES = 3 * 1024**3  # numpy and numba take ~1.2 GB of address space at import
MAX_TASKS = 400  # processes and threads: a block of the simulator is one thread per CUDA thread
MAX_FILE_BYTES = 8 * 1024 * 1024
TMP_BYTES = 32 * 1024 * 1024
STARTUP_SECONDS = 10.0  # Python, numpy and numba's import, on top of the exercise's time limit
RUNNER = Path(check.__file__)
# Where the sandbox sees the staged check. Not /check: a checkout there (CI clones into
# /check/work/...) put the site's Python under it, hidden by the staging's bind.
CHECK_MOUNT = "/parcours-check"


def sandbox_available() -> tuple[bool, str]:
    """Whether a sandbox can run here, and if not why (to show to whoever submitted)."""
    if any(place.is_relative_to(CHECK_MOUNT) for place in _python_places()):
        return False, f"the site's Python is under {CHECK_MOUNT}, where the sandbox puts the check"
    for tool in ("bwrap", "prlimit") + (("setpriv",) if os.geteuid() == 0 else ()):
        if shutil.which(tool) is None:
            return (
                False,
                f"{tool} is not installed here (Debian: apt-get install bubblewrap util-linux)",
            )
    try:
        probe = subprocess.run(
            [*_bwrap_command(staging=None), "true"],
            capture_output=True,
            env=_environment(),
            timeout=20,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return False, f"bwrap cannot start here: {error}"
    if probe.returncode != 0:
        reason = probe.stderr.decode(errors="replace").strip()[:300]
        return False, f"bwrap cannot create a sandbox here: {reason or probe.returncode}"
    return True, "bwrap and prlimit are here"


def check_in_sandbox(
    *, exercise_dir: Path, solution: str, hidden_seed: int, timeout_s: float
) -> dict:
    """The verdict on `solution` for the exercise in `exercise_dir`, as check.py --json gives it."""
    started = time.monotonic()
    size = len(solution.encode())
    if size > MAX_SOLUTION_BYTES:
        return check.result(
            "refused",
            None,
            f"the solution is {size // 1024} kB; the limit is {MAX_SOLUTION_BYTES // 1024} kB",
            0,
            started,
        )
    available, why = sandbox_available()
    if not available:
        return check.result("refused", None, f"no sandbox to check in: {why}", 0, started)

    exercise = check.load_exercise(exercise_dir)
    cases = check.make_cases(exercise_dir, exercise, hidden_seed)
    with tempfile.TemporaryDirectory(prefix="parcours-check-") as staging:
        _stage(Path(staging), solution, cases)
        outputs, status, ended = _run(Path(staging), timeout_s)
    return _verdict(cases, exercise["tolerance"], outputs, status, ended, timeout_s, started)


def _stage(staging: Path, solution: str, cases: list[check.Case]) -> None:
    """The sandbox's only view of the check: the runner, the solution, the inputs."""
    (staging / "inputs").mkdir()
    shutil.copyfile(RUNNER, staging / "check.py")
    (staging / "solution.py").write_text(solution, encoding="utf-8")
    for case in cases:
        np.savez(staging / "inputs" / f"{case.index}.npz", **case.inputs)
    for path in [staging, *staging.rglob("*")]:  # readable by the sandbox's own uid
        path.chmod(0o755 if path.is_dir() else 0o644)


def _environment() -> dict[str, str]:
    """The sandbox's environment, from nothing: none of the site's settings or secrets."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "NUMBA_ENABLE_CUDASIM": "1",
        "NUMBA_CACHE_DIR": "/tmp",
        "OPENBLAS_NUM_THREADS": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def _bwrap_command(*, staging: Path | None) -> list[str]:
    """bwrap and its mounts; then setpriv (as root) and prlimit; the command comes after."""
    as_root = os.geteuid() == 0
    command = [shutil.which("bwrap") or "bwrap", "--die-with-parent", "--new-session"]
    if as_root:
        # No user namespace: inside one, root stays root to the kernel's process limit.
        command += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
        command += ["--unshare-cgroup-try"]
    else:
        command += ["--unshare-all", "--cap-drop", "ALL"]
    command += ["--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev"]
    command += ["--perms", "1777", "--size", str(TMP_BYTES), "--tmpfs", "/tmp"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64"):
        if os.path.islink(top):
            command += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            command += ["--ro-bind", top, top]
    command += ["--perms", "0755", "--dir", "/etc"]
    command += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    # The Python that runs the site, and its packages (numpy, numba), where they are.
    for place in _python_places():
        command += [*_parents(place), "--ro-bind", str(place), str(place)]
    if staging is not None:
        command += ["--ro-bind", str(staging), CHECK_MOUNT]
    command += ["--chdir", "/tmp", "--"]
    if as_root:
        uid = str(100_000 + secrets.randbelow(50_000))  # its own uid: its own process count
        command += ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
        command += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    return command


def _python_places() -> list[Path]:
    return sorted({Path(sys.base_prefix).resolve(), Path(sys.prefix).absolute()})


def _parents(place: Path) -> list[str]:
    """Directories above a bind, readable by anyone (bwrap would make them 0700 as root)."""
    arguments: list[str] = []
    for parent in reversed(place.parents[:-1]):
        if str(parent) not in ("/usr", "/tmp") and not str(parent).startswith("/usr/"):
            arguments += ["--perms", "0755", "--dir", str(parent)]
    return arguments


def _limits(timeout_s: float) -> list[str]:
    cpu = int(2 * timeout_s + STARTUP_SECONDS)  # the simulator keeps two cores busy
    return [
        "prlimit",
        f"--cpu={cpu}",
        f"--as={ADDRESS_SPACE_BYTES}",
        f"--nproc={MAX_TASKS}",
        f"--fsize={MAX_FILE_BYTES}",
        "--core=0",
        "--nofile=256",
        "--",
    ]


def _run(staging: Path, timeout_s: float) -> tuple[list[bytes], dict, str]:
    """Run the solution on the staged inputs; its outputs, the runner's status, how it ended."""
    read_end, write_end = os.pipe()
    command = [
        *_bwrap_command(staging=staging),
        *_limits(timeout_s),
        sys.executable,
        "-I",
        f"{CHECK_MOUNT}/check.py",
        "--solution",
        f"{CHECK_MOUNT}/solution.py",
        "--inputs",
        f"{CHECK_MOUNT}/inputs",
        "--outputs-fd",
        str(write_end),
        "--time-limit",
        str(timeout_s),
    ]
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        pass_fds=(write_end,),
        env=_environment(),
        start_new_session=True,
    )
    os.close(write_end)
    received = bytearray()
    assert process.stdout is not None

    def stop() -> None:  # outputs past the cap: no answer can come of it, end the run now
        os.killpg(process.pid, signal.SIGKILL)

    readers = [
        threading.Thread(target=_drain, args=(read_end, received, MAX_OUTPUTS_BYTES + 1, stop)),
        threading.Thread(
            target=_drain, args=(process.stdout.fileno(), bytearray(), MAX_PRINTED_BYTES)
        ),
    ]
    for reader in readers:
        reader.start()
    ended = "exited"
    try:
        process.wait(timeout=timeout_s + STARTUP_SECONDS)
    except subprocess.TimeoutExpired:
        ended = "timed_out"
        os.killpg(process.pid, signal.SIGKILL)  # bwrap; its pid namespace dies with it
        process.wait()
    for reader in readers:
        reader.join(timeout=5)
    os.close(read_end)
    if (
        process.returncode
        in (-signal.SIGXCPU, 128 + signal.SIGXCPU, -signal.SIGKILL, 128 + signal.SIGKILL)
        and ended != "timed_out"
    ):
        ended = "killed"
    if len(received) > MAX_OUTPUTS_BYTES:
        too_large = {"status": "crashed", "message": "the solution's outputs are too large"}
        return [], too_large | {"case": 0}, "exited"  # killed by stop(), for this reason
    outputs, status = _records(bytes(received))
    return outputs, status, ended


def _drain(fd: int, into: bytearray, cap: int, when_full: Callable[[], None] | None = None) -> None:
    """Read fd to its end, keeping at most cap bytes: a flood is read and dropped, not stored."""
    while chunk := os.read(fd, 65536):
        if len(into) < cap:
            into += chunk[: cap - len(into)]
            if len(into) == cap and when_full is not None:
                when_full()


def _records(received: bytes) -> tuple[list[bytes], dict]:
    """The outputs (.npy bytes, in case order) and the final status sent down the pipe."""
    outputs, status, offset = [], {}, 0
    while offset + 4 <= len(received):
        (length,) = struct.unpack(">I", received[offset : offset + 4])
        payload = received[offset + 4 : offset + 4 + length]
        offset += 4 + length
        if payload.startswith(b"\x93NUMPY"):
            outputs.append(payload)
        else:
            try:
                status = json.loads(payload)
            except ValueError:
                status = {"status": "crashed", "message": "the runner's answer could not be read"}
            break
    return outputs, status if isinstance(status, dict) else {}


def _verdict(cases, tolerance, outputs, status, ended, timeout_s, started) -> dict:
    """Compare case by case; the first case without an output says how the run ended."""
    for case in cases:
        if case.index < len(outputs):
            try:
                got = np.load(io.BytesIO(outputs[case.index]), allow_pickle=False)
            except ValueError:
                got = None
            failure = check.compare(case, got, tolerance)
            if failure:
                return check.result(
                    "failed", failure, check.failure_message(failure), case.index + 1, started
                )
            continue
        where = {"index": case.index, "size": case.size, "hidden": case.hidden}
        prefix = "a hidden case" if case.hidden else f"case {case.index + 1} (size {case.size})"
        if ended in ("timed_out", "killed") or status.get("status") == "timed_out":
            limit = f"{timeout_s:g} s" if ended != "killed" else "its CPU time"
            message = f"{prefix}: the check took longer than {limit}"
            return check.result("timed_out", where, message, case.index, started)
        if status.get("status") == "crashed" and status.get("case") is None:
            message = str(status.get("message", ""))  # before any case: loading the solution
            return check.result("crashed", None, message, case.index, started)
        if status.get("status") == "crashed":
            detail = "" if case.hidden else f": {status.get('message', '')}"
            return check.result("crashed", where, f"{prefix} crashed{detail}", case.index, started)
        message = f"{prefix}: the solution ended the check without an answer"
        return check.result("crashed", where, message, case.index, started)
    return check.result("passed", None, f"all {len(cases)} cases passed", len(cases), started)
