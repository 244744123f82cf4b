"""Check a kernel exercise: run a solution on the exercise's cases and say whether it computes them.

    python check.py --exercise DIR --solution FILE [--hidden-seed N] [--json]

DIR holds the exercise: `cases.py` (`make_case(size, rng) -> inputs`, `expected(inputs) -> output`,
both in numpy) and `exercise.json` (or `exercise.yaml`, read with PyYAML when there is no JSON
copy: the learner's folder gets the JSON copy, so that this file needs nothing but the standard
library, numpy and numba). FILE defines `solve(**inputs)`, which launches the learner's kernel and
returns its output as a numpy array.

The verdict is one of passed, failed (the case: size, first wrong index, expected, got, max
error; a hidden case only as "a hidden case failed"), timed_out or crashed (the exception, no
traceback of the runner). With --json it is one JSON object on stdout: {"verdict", "case",
"message", "cases_run", "seconds"}. The exit status is 0 whatever the verdict; 2 on bad arguments.

Kernels run on a GPU when numba.cuda finds one, else on numba-cuda's simulator
(NUMBA_ENABLE_CUDASIM=1, set before numba is imported; set it yourself to force the simulator).

The same file runs in two places. On the learner's machine everything happens in one process,
and the solution could read the expected answers from the runner's memory: that check is advice.
On the server (practice/sandbox.py) the trusted side imports this module, makes the cases and
compares; only `--inputs DIR --outputs-fd N` runs inside the sandbox, where the solution gets the
inputs and nothing else (no expected answers, no seed, no reference), and its outputs go back
through a pipe.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import io
import json
import os
import struct
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

import numpy as np

# The simulator runs one OS thread per CUDA thread: small stacks keep a block of 1,024 threads
# within the sandbox's address-space limit (the default is 8 MB each).
THREAD_STACK_BYTES = 512 * 1024
PUBLIC_SEED = 20261205


class Case:
    """One case: its inputs, the expected output (None inside the sandbox), hidden or public."""

    def __init__(self, index: int, size: int, inputs: dict, expected: Any, hidden: bool):
        self.index, self.size, self.inputs, self.expected, self.hidden = (
            index,
            size,
            inputs,
            expected,
            hidden,
        )


def load_exercise(exercise_dir: Path) -> dict:
    """The exercise's settings, from exercise.json or else exercise.yaml."""
    json_path = exercise_dir / "exercise.json"
    if json_path.exists():
        return json.loads(json_path.read_text(encoding="utf-8"))
    import yaml  # only where the exercise comes straight from the repository

    return yaml.safe_load((exercise_dir / "exercise.yaml").read_text(encoding="utf-8"))


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_cases(exercise_dir: Path, exercise: dict, hidden_seed: int | None) -> list[Case]:
    """The public cases (fixed sizes, fixed seed), then the hidden ones drawn from hidden_seed."""
    cases_module = load_module(exercise_dir / "cases.py", "exercise_cases")
    sizes = [
        (size, np.random.default_rng([PUBLIC_SEED, size]), False)
        for size in exercise["public_sizes"]
    ]
    if hidden_seed is not None:
        rng = np.random.default_rng(hidden_seed)
        biggest = max(exercise["public_sizes"])
        for _ in range(exercise["hidden_cases"]):
            sizes.append((int(rng.integers(1, biggest + 1)), rng, True))
    cases = []
    for index, (size, rng, hidden) in enumerate(sizes):
        inputs = plain(cases_module.make_case(size, rng))
        expected = np.asarray(cases_module.expected(copy.deepcopy(inputs)))
        cases.append(Case(index, size, inputs, expected, hidden))
    return cases


def plain(inputs: dict) -> dict:
    """Inputs as they come out of an .npz file: arrays, and Python numbers for 0-d ones."""
    return {
        name: np.asarray(value).item() if np.ndim(value) == 0 else np.asarray(value)
        for name, value in inputs.items()
    }


def compare(case: Case, got: Any, tolerance: dict) -> dict | None:
    """None when `got` matches the case's expected output, else what is wrong (the case)."""
    expected = case.expected
    failure: dict[str, Any] = {"index": case.index, "size": case.size, "hidden": case.hidden}
    try:
        got = np.asarray(got, dtype=np.float64 if expected.dtype.kind == "f" else expected.dtype)
    except (TypeError, ValueError) as error:
        failure["problem"] = f"the output is not an array of numbers ({error})"
        return failure
    if got.shape != expected.shape:
        failure["problem"] = f"expected an output of shape {expected.shape}, got {got.shape}"
        return failure
    difference = np.abs(got.astype(np.float64) - expected.astype(np.float64))
    bound = tolerance.get("abs", 0.0) + tolerance.get("rel", 0.0) * np.abs(expected)
    wrong = ~(difference <= bound)  # NaN is wrong
    if not wrong.any():
        return None
    first = tuple(int(i) for i in np.argwhere(wrong)[0])
    failure.update(
        first_wrong_index=first[0] if len(first) == 1 else list(first),
        expected=number(expected[first]),
        got=number(got[first]),
        max_error=number(difference.max()),  # NaN when any value is NaN
    )
    return failure


def number(value: Any) -> float | int | str:
    value = value.item() if hasattr(value, "item") else value
    if isinstance(value, float):
        if not np.isfinite(value):
            return str(value)  # JSON has no NaN or infinity
        return float(f"{value:.8g}")  # float32's digits, not float64's
    return value


def failure_message(failure: dict) -> str:
    if failure["hidden"]:
        return "a hidden case failed"
    where = f"case {failure['index'] + 1} (size {failure['size']})"
    if "problem" in failure:
        return f"{where}: {failure['problem']}"
    return (
        f"{where}: first wrong value at index {failure['first_wrong_index']}: expected "
        f"{failure['expected']}, got {failure['got']} (max error {failure['max_error']})"
    )


def result(verdict: str, case: dict | None, message: str, cases_run: int, started: float) -> dict:
    if case is not None and case.get("hidden"):
        case = {"hidden": True}  # nothing of a hidden case goes back to the learner
    return {
        "verdict": verdict,
        "case": case,
        "message": message,
        "cases_run": cases_run,
        "seconds": round(time.monotonic() - started, 2),
    }


def exception_summary(error: BaseException, solution: Path) -> str:
    """The exception, with the solution's line that raised it, without the runner's frames."""
    lines = [
        f"{Path(frame.filename).name}, line {frame.lineno}"
        for frame in traceback.extract_tb(error.__traceback__)
        if Path(frame.filename).name == solution.name
    ]
    where = f" ({lines[-1]})" if lines else ""
    return f"{type(error).__name__}: {error}{where}"[:2000]


def use_simulator_without_gpu() -> str:
    """Sets NUMBA_ENABLE_CUDASIM=1 unless a CUDA driver answers with a device; says which."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1":
        import ctypes

        count = ctypes.c_int(0)
        try:
            driver = ctypes.CDLL("nvcuda.dll" if os.name == "nt" else "libcuda.so.1")
            if (
                driver.cuInit(0) == 0
                and driver.cuDeviceGetCount(ctypes.byref(count)) == 0
                and count.value > 0
            ):
                return "gpu"
        except OSError:
            pass
        os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    return "simulator"


def start_watchdog(seconds: float, on_timeout) -> None:
    """After `seconds`, call on_timeout and end the process, whatever the solution's threads do."""

    def fire():
        on_timeout()
        os._exit(0)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()


def load_solution(solution: Path):
    threading.stack_size(THREAD_STACK_BYTES)
    sys.path.insert(0, str(solution.parent))
    module = load_module(solution, "solution")
    if not callable(getattr(module, "solve", None)):
        raise AttributeError("the solution defines no solve(...) function")
    return module.solve


def check(args: argparse.Namespace, emit) -> dict:
    """Run the solution on every case of the exercise, in this process (the learner's check)."""
    started = time.monotonic()
    exercise = load_exercise(args.exercise)
    cases_run = 0
    start_watchdog(
        float(exercise["time_limit_seconds"]),
        lambda: emit(
            result(
                "timed_out",
                None,
                f"the check took longer than {exercise['time_limit_seconds']} s",
                cases_run,
                started,
            )
        ),
    )
    cases = make_cases(args.exercise, exercise, args.hidden_seed)
    current: dict | None = None
    try:
        solve = load_solution(args.solution)
        for case in cases:
            current = {"index": case.index, "size": case.size, "hidden": case.hidden}
            got = solve(**copy.deepcopy(case.inputs))
            cases_run += 1
            failure = compare(case, got, exercise["tolerance"])
            if failure:
                return result("failed", failure, failure_message(failure), cases_run, started)
    except Exception as error:
        message = exception_summary(error, args.solution)
        if current is not None:
            message = (
                "a hidden case crashed"
                if current["hidden"]
                else f"case {current['index'] + 1} (size {current['size']}): {message}"
            )
        return result("crashed", current, message, cases_run, started)
    return result("passed", None, f"all {cases_run} cases passed", cases_run, started)


def run_inputs(args: argparse.Namespace) -> None:
    """Inside the sandbox: run solve on each inputs file and send its output down the pipe.

    Records on the pipe: a 4-byte length, then the bytes of an .npy file (one per case, in
    order), or of a final JSON object {"status": "ok" | "crashed" | "timed_out", "message"}.
    """
    out = os.fdopen(args.outputs_fd, "wb", buffering=0)
    lock = threading.Lock()

    def send(payload: bytes) -> None:
        with lock:
            out.write(struct.pack(">I", len(payload)) + payload)

    def status(name: str, message: str = "", case: int | None = None) -> bytes:
        return json.dumps({"status": name, "message": message, "case": case}).encode()

    start_watchdog(args.time_limit, lambda: send(status("timed_out")))
    files = sorted(args.inputs.glob("*.npz"), key=lambda path: int(path.stem))
    current = None
    try:
        solve = load_solution(args.solution)
        for path in files:
            current = int(path.stem)
            with np.load(path, allow_pickle=False) as data:
                inputs = plain(dict(data))
            buffer = io.BytesIO()
            np.save(buffer, np.asarray(solve(**inputs)), allow_pickle=False)
            send(buffer.getvalue())
    except Exception as error:
        send(status("crashed", exception_summary(error, args.solution), current))
    else:
        send(status("ok"))
    out.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a kernel exercise's solution.")
    parser.add_argument("--exercise", type=Path, help="the exercise's folder")
    parser.add_argument("--solution", type=Path, required=True, help="the file defining solve()")
    parser.add_argument("--hidden-seed", type=int, help="also run hidden cases drawn from it")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--inputs", type=Path, help=argparse.SUPPRESS)  # the sandbox's side
    parser.add_argument("--outputs-fd", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--time-limit", type=float, default=15.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if (args.exercise is None) == (args.inputs is None):
        parser.error("give --exercise DIR")

    # The solution's prints go to stderr: stdout carries the verdict alone.
    verdict_out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    device = use_simulator_without_gpu()
    if args.inputs is not None:
        run_inputs(args)
        return 0

    emitted = threading.Lock()

    def emit(outcome: dict) -> None:
        if not emitted.acquire(blocking=False):
            return  # the watchdog and the check finishing at once: the first one speaks
        if args.json:
            verdict_out.write(json.dumps(outcome) + "\n")
        else:
            verdict_out.write(
                f"{outcome['verdict']}: {outcome['message']} "
                f"(cases run: {outcome['cases_run']}, {outcome['seconds']} s, {device})\n"
            )
        verdict_out.flush()

    emit(check(args, emit))
    return 0


if __name__ == "__main__":
    # os._exit: the simulator's threads of a crashed kernel must not keep the process alive.
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
