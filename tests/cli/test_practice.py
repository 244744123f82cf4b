"""parcours practice, check and submit against the live test server, as a learner runs them."""

import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

from api.models import AccessToken
from practice.models import Submission
from tests.cli.conftest import CLI, one_line_error, run
from tests.factories import ExerciseFactory, ResourceFactory, UserFactory
from tests.practice.conftest import write_exercise
from tests.reminders.helpers import run_worker

RUNNER = Path(settings.BASE_DIR) / "practice" / "runner" / "check.py"


@pytest.fixture
def ada(transactional_db):
    return UserFactory(username="ada")


@pytest.fixture
def home(live_server, ada, tmp_path):
    _token, clear = AccessToken.objects.create_for(user=ada, name="laptop", scope="write")
    result = run("login", "--url", live_server.url, home=tmp_path, stdin=clear + "\n")
    assert result.returncode == 0, result.stderr
    return tmp_path


@pytest.fixture
def exercise(transactional_db, tmp_path, settings):
    root = tmp_path / "exercises"
    settings.PRACTICE_EXERCISES_DIR = root
    folder = write_exercise(root, "vector-add")
    (folder / "cases.py").write_text("PUBLIC = [1, 127, 128, 129, 1000]\n")
    (folder / "reference.py").write_text("# the answer\n")
    return ExerciseFactory(slug="vector-add", resource=ResourceFactory(slug="gpu-mode-3"))


def test_practice_writes_the_starter_and_what_checks_it_into_a_folder(home, exercise):
    folder = home / "work"

    result = run("practice", "vector-add", "--dir", str(folder), home=home)

    assert result.returncode == 0, result.stderr
    assert "solution.py" in result.stdout and "parcours check" in result.stdout
    assert (folder / "solution.py").read_text().startswith("from numba import cuda")
    assert json.loads((folder / "exercise.json").read_text())["slug"] == "vector-add"
    assert (folder / "cases.py").exists() and not (folder / "reference.py").exists()


def test_practice_again_keeps_the_learners_solution(home, exercise):
    folder = home / "work"
    run("practice", "vector-add", "--dir", str(folder), home=home)
    (folder / "solution.py").write_text("# my kernel\n")

    result = run("practice", "vector-add", "--dir", str(folder), home=home)

    assert result.returncode == 0
    assert (folder / "solution.py").read_text() == "# my kernel\n"
    assert "is kept" in result.stderr


def test_practice_of_an_unknown_exercise_exits_4(home, exercise):
    result = run("practice", "no-such", "--dir", str(home / "work"), home=home)

    assert result.returncode == 4
    assert "no-such" in one_line_error(result)


def test_check_outside_an_exercise_folder_says_what_to_run(tmp_path):
    result = run("check", str(tmp_path), home=tmp_path)

    assert result.returncode == 2
    assert "parcours practice <slug>" in one_line_error(result)


def test_check_without_numba_cuda_says_how_to_install_it(home, exercise, tmp_path):
    if importlib.util.find_spec("numba") is not None:
        pytest.skip("numba is installed in this Python: the missing case cannot be seen here")
    folder = home / "work"
    run("practice", "vector-add", "--dir", str(folder), home=home)
    (folder / "check.py").write_text("raise SystemExit('not reached')\n")

    result = run("check", str(folder), home=home)

    assert result.returncode == 8
    assert "-m pip install numba-cuda numpy" in one_line_error(result)


def test_check_runs_the_real_runner_on_the_reference(home, tmp_path):
    """With the runner and numba-cuda here, the exercise's reference passes on this machine."""
    if not RUNNER.exists():
        pytest.skip(
            "practice/runner/check.py is not on this branch yet (it lands from practice-runner)"
        )
    if importlib.util.find_spec("numba") is None:
        pytest.skip("numba-cuda is not installed: .venv/bin/pip install numba-cuda")
    exercises = sorted((Path(settings.BASE_DIR) / "exercises").glob("*/reference.py"))
    if not exercises:
        pytest.skip("no exercises/ in the repository yet")
    reference = exercises[0]
    folder = tmp_path / "work"
    folder.mkdir()
    for name in ("starter.py", "cases.py"):
        (folder / name).write_text((reference.parent / name).read_text())
    (folder / "check.py").write_text(RUNNER.read_text())
    from practice.bundle import public_settings

    (folder / "exercise.json").write_text(json.dumps(public_settings(reference.parent)))
    (folder / "solution.py").write_text(reference.read_text())

    result = run(
        "check", str(folder), home=tmp_path, timeout=120, environment={"PATH": "/usr/bin:/bin"}
    )

    assert result.returncode == 0, result.stdout + result.stderr


def exercise_folder(tmp_path, slug, solution):
    """A folder as `parcours practice` writes it for one of the repository's exercises, with
    this solution (a path under the exercise's folder)."""
    source = Path(settings.BASE_DIR) / "exercises" / slug
    folder = tmp_path / slug
    folder.mkdir()
    for name in ("starter.py", "cases.py"):
        (folder / name).write_text((source / name).read_text())
    (folder / "check.py").write_text(RUNNER.read_text())
    from practice.bundle import public_settings

    (folder / "exercise.json").write_text(json.dumps(public_settings(source)))
    (folder / "solution.py").write_text((source / solution).read_text())
    return folder


@pytest.mark.parametrize(
    "language, summary, line",
    [
        ("C", "Case 4 (size 129) gives a wrong answer.", "  first wrong index: 128"),
        (
            "fr_FR.UTF-8",
            "Le cas 4 (taille 129) donne une mauvaise réponse.",
            "  premier indice faux: 128",
        ),
    ],
)
def test_check_says_which_case_went_wrong_in_the_learners_language(
    tmp_path, language, summary, line
):
    """A kernel that forgets the tail: the real runner's verdict, said as the exercise page says
    it (the case counted from 1, the labels translated), not the runner's raw keys."""
    if importlib.util.find_spec("numba") is None:
        pytest.skip("numba-cuda is not installed: .venv/bin/pip install numba-cuda")
    folder = exercise_folder(tmp_path, "vector-add", "wrong/no_tail.py")

    result = run(
        "check",
        str(folder),
        home=tmp_path,
        language=language,
        timeout=120,
        environment={"PATH": "/usr/bin:/bin"},
    )

    assert result.returncode == 8, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[1] == summary
    assert line in lines
    assert "first_wrong_index" not in result.stdout
    assert not any(text.startswith(("  index:", "  hidden:", "  size:")) for text in lines)


def test_submit_sends_the_solution_and_prints_the_workers_verdict(home, ada, exercise):
    folder = home / "work"
    run("practice", "vector-add", "--dir", str(folder), home=home)
    (folder / "solution.py").write_text("# my kernel\n")
    client = subprocess.Popen(
        [sys.executable, str(CLI), "submit", str(folder), "--wait", "60"],
        env={
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / "config"),
            "LANG": "C",
            "PATH": "/usr/bin:/bin",
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not Submission.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.2)

    run_worker()
    stdout, stderr = client.communicate(timeout=60)

    submission = Submission.objects.get()
    assert (submission.learner, submission.source, submission.code) == (ada, "cli", "# my kernel\n")
    assert submission.verdict != "pending"
    assert "Sent (submission" in stderr
    expected_code = 0 if submission.verdict == "passed" else 8
    assert client.returncode == expected_code, stdout + stderr
    assert (
        stdout.splitlines()[0].startswith(submission.get_verdict_display().replace("_", " "))
        or stdout
    )


def test_submit_gives_up_waiting_with_the_page_to_see(home, exercise):
    folder = home / "work"
    run("practice", "vector-add", "--dir", str(folder), home=home)

    result = run("submit", str(folder), "--wait", "0", home=home)

    assert result.returncode == 8
    assert "/practice/vector-add/" in result.stderr.splitlines()[-1]
    assert Submission.objects.get().verdict == "pending"
