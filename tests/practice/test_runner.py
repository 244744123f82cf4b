"""practice/runner/check.py, the checker the learner runs and the sandbox runs: its verdicts."""

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from practice.runner import check

from .conftest import EXERCISES, RUNNER, run_check

VECTOR_ADD = EXERCISES / "vector-add"


def solution_file(tmp_path, source):
    path = tmp_path / "solution.py"
    path.write_text(textwrap.dedent(source))
    return path


def a_case(expected, hidden=False):
    return check.Case(index=2, size=129, inputs={}, expected=np.asarray(expected), hidden=hidden)


def test_compare_accepts_values_within_the_tolerance():
    """A value within abs + rel * |expected| is right."""
    assert (
        check.compare(a_case([1.0, 100.0]), [1.0 + 1e-7, 100.0 + 1e-5], {"abs": 1e-6, "rel": 1e-6})
        is None
    )


def test_compare_names_the_first_wrong_index_expected_got_and_max_error():
    """The failure says where it starts and how far the worst value is."""
    failure = check.compare(a_case([1.0, 2.0, 3.0]), [1.0, 2.5, 5.0], {"abs": 0.0, "rel": 0.0})

    assert failure == {
        "index": 2,
        "size": 129,
        "hidden": False,
        "first_wrong_index": 1,
        "expected": 2.0,
        "got": 2.5,
        "max_error": 2.0,
    }
    assert check.failure_message(failure) == (
        "case 3 (size 129): first wrong value at index 1: expected 2.0, got 2.5 (max error 2.0)"
    )


def test_compare_counts_nan_as_wrong_and_says_so_in_json_terms():
    """NaN never passes, and comes back as the string "nan" (JSON has no NaN)."""
    failure = check.compare(a_case([[1.0, 2.0]]), [[1.0, np.nan]], {"abs": 1.0, "rel": 1.0})

    assert failure["first_wrong_index"] == [0, 1]
    assert failure["got"] == "nan"
    assert failure["max_error"] == "nan"
    json.dumps(failure, allow_nan=False)


def test_compare_reports_an_output_of_the_wrong_shape():
    """An output of another shape is a failure that names both shapes."""
    failure = check.compare(a_case([1.0, 2.0]), [1.0], {"abs": 0.0, "rel": 0.0})

    assert failure["problem"] == "expected an output of shape (2,), got (1,)"


def test_a_failed_hidden_case_says_nothing_of_it():
    """A hidden case's failure is only "a hidden case failed", with no size, index or values."""
    failure = check.compare(a_case([1.0], hidden=True), [2.0], {"abs": 0.0, "rel": 0.0})

    outcome = check.result("failed", failure, check.failure_message(failure), 3, 0.0)

    assert outcome["message"] == "a hidden case failed"
    assert outcome["case"] == {"hidden": True}


def test_hidden_cases_depend_on_the_seed_and_public_ones_do_not(exercise_copy):
    """The same seed draws the same hidden cases; another seed, others; the public ones stay."""
    folder = exercise_copy("vector-add")
    exercise = check.load_exercise(folder)

    first = check.make_cases(folder, exercise, 1)
    again = check.make_cases(folder, exercise, 1)
    other = check.make_cases(folder, exercise, 2)

    public = len(exercise["public_sizes"])
    assert [case.hidden for case in first] == [False] * public + [True] * exercise["hidden_cases"]
    assert all(
        np.array_equal(a.inputs["a"], b.inputs["a"]) for a, b in zip(first, again, strict=True)
    )
    assert all(
        np.array_equal(a.inputs["a"], b.inputs["a"])
        for a, b in zip(first[:public], other[:public], strict=True)
    )
    assert not np.array_equal(first[public].inputs["a"], other[public].inputs["a"])


def test_the_runner_module_imports_no_django_and_no_numba():
    """The site imports the runner to compare: numba (and the simulator switch) stay inside it."""
    code = "import sys; import practice.runner.check; print(sorted(m for m in ('django', 'numba') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)

    assert done.stdout.strip() == "[]"


@pytest.mark.slow
def test_a_right_solution_passes_with_json_fields(exercise_copy):
    """--json prints one object with the verdict, the case, a message, the count and the time."""
    outcome = run_check(
        exercise_copy("vector-add"), VECTOR_ADD / "reference.py", "--hidden-seed", "4"
    )

    assert outcome["verdict"] == "passed"
    assert outcome["case"] is None
    assert outcome["cases_run"] == 7
    assert outcome["message"] == "all 7 cases passed"
    assert 0 < outcome["seconds"] < 15


@pytest.mark.slow
def test_a_solution_right_on_the_public_sizes_only_fails_on_a_hidden_case(tmp_path):
    """Hard-coding the public sizes is caught by the hidden cases, which say nothing more."""
    solution = solution_file(
        tmp_path,
        """
        def solve(a, b):
            return a + b if a.size in (1, 127, 128, 129, 1000) else a
        """,
    )

    assert run_check(VECTOR_ADD, solution)["verdict"] == "passed"
    outcome = run_check(VECTOR_ADD, solution, "--hidden-seed", "4")

    assert outcome["verdict"] == "failed"
    assert outcome["message"] == "a hidden case failed"
    assert outcome["case"] == {"hidden": True}


@pytest.mark.slow
def test_a_kernel_that_raises_crashes_naming_the_case_and_the_line(tmp_path):
    """An exception in the kernel is summed up with the solution's line, without the runner's."""
    source = (
        (VECTOR_ADD / "reference.py")
        .read_text()
        .replace("    if i < out.size:  # the last block has threads past the end\n    ", "")
    )
    solution = solution_file(tmp_path, source)

    outcome = run_check(VECTOR_ADD, solution)

    assert outcome["verdict"] == "crashed"
    assert outcome["message"].startswith("case 1 (size 1): IndexError: ")
    assert "(solution.py, line 12)" in outcome["message"]
    assert "check.py" not in outcome["message"]


@pytest.mark.slow
def test_a_solution_that_does_not_compile_crashes_with_the_syntax_error(tmp_path):
    """A syntax error is a crash before any case, with the error and its line."""
    solution = solution_file(tmp_path, "def solve(a, b)\n    return a\n")

    outcome = run_check(VECTOR_ADD, solution)

    assert outcome["verdict"] == "crashed"
    assert outcome["case"] is None
    assert outcome["message"].startswith("SyntaxError: ")


@pytest.mark.slow
def test_an_endless_kernel_times_out_at_the_exercises_limit(tmp_path, exercise_copy):
    """The exercise's time limit ends the check, however busy the simulator's threads are."""
    folder = exercise_copy("vector-add", time_limit_seconds=2)
    source = (
        (VECTOR_ADD / "reference.py")
        .read_text()
        .replace("out[i] = a[i] + b[i]", "while True:\n            pass")
    )
    solution = solution_file(tmp_path, source)

    outcome = run_check(folder, solution, timeout=30)

    assert outcome["verdict"] == "timed_out"
    assert outcome["message"] == "the check took longer than 2 s"
    assert outcome["seconds"] < 10


@pytest.mark.slow
def test_what_the_solution_prints_goes_to_stderr_and_the_json_stays_whole(tmp_path):
    """The learner's prints cannot spoil the one JSON object on stdout."""
    solution = solution_file(
        tmp_path,
        """
        print('{"verdict": "passed"}')
        def solve(a, b):
            print("debugging", a.size)
            return a
        """,
    )

    done = subprocess.run(
        [
            sys.executable,
            str(RUNNER),
            "--exercise",
            str(VECTOR_ADD),
            "--solution",
            str(solution),
            "--json",
        ],
        capture_output=True,
        text=True,
        env={"NUMBA_ENABLE_CUDASIM": "1", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )

    assert json.loads(done.stdout)["verdict"] == "failed"
    assert "debugging 1" in done.stderr


@pytest.mark.slow
def test_without_json_the_verdict_is_one_line():
    """The plain output is one line: the verdict, the message, the cases run, the device."""
    done = subprocess.run(
        [
            sys.executable,
            str(RUNNER),
            "--exercise",
            str(VECTOR_ADD),
            "--solution",
            str(VECTOR_ADD / "wrong" / "no_tail.py"),
        ],
        capture_output=True,
        text=True,
        env={"NUMBA_ENABLE_CUDASIM": "1", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )

    assert done.stdout.startswith(
        "failed: case 4 (size 129): first wrong value at index 128: expected "
    )
    assert done.stdout.endswith(", simulator)\n")
    assert done.stdout.count("\n") == 1


def test_the_runner_refuses_to_start_without_an_exercise():
    """Bad arguments exit with status 2 and say what is missing."""
    done = subprocess.run(
        [sys.executable, str(RUNNER), "--solution", "x.py"], capture_output=True, text=True
    )

    assert done.returncode == 2
    assert "give --exercise DIR" in done.stderr


@pytest.mark.slow
def test_on_the_learners_machine_the_answer_can_be_read_from_the_checkers_memory():
    """The local check is advice: reads_expected.py passes here, and only the sandbox fails it
    (test_sandbox.py). If this starts failing, the cheat no longer proves anything: fix it."""
    outcome = run_check(VECTOR_ADD, VECTOR_ADD / "wrong" / "reads_expected.py")

    assert outcome["verdict"] == "passed"
