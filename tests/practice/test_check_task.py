"""The worker's check of a submission (practice.tasks.check_submission)."""

import importlib
import shutil
from pathlib import Path

import pytest
from django.conf import settings

from practice.models import Exercise, Submission
from practice.tasks import HIDDEN_CASE_FAILED, check_submission, hidden_seed, stored_result
from tests.factories import ExerciseFactory, SubmissionFactory
from tests.reminders.helpers import run_worker


def sandbox_or_reason():
    """The real sandbox module, or why the checks that need it cannot run here."""
    try:
        sandbox = importlib.import_module("practice.sandbox")
    except ImportError:
        return (
            None,
            "practice/sandbox.py is not on this branch yet (the runner lands from practice-runner)",
        )
    available, reason = sandbox.sandbox_available()
    return (sandbox, "") if available else (None, f"no sandbox on this machine: {reason}")


def test_without_a_sandbox_the_verdict_is_refused_with_the_reason(db):
    if sandbox_or_reason()[0] is not None:
        pytest.skip("this machine has a sandbox: the refusal cannot be seen here")
    submission = SubmissionFactory(verdict="pending")

    outcome = check_submission.call(submission.pk)

    submission.refresh_from_db()
    assert outcome == "refused" and submission.verdict == "refused"
    assert submission.message and submission.checked is not None


@pytest.mark.django_db(transaction=True)
def test_the_worker_takes_a_queued_submission_and_stores_its_verdict(learner_client, learner):
    exercise = ExerciseFactory(slug="vector-add")
    learner_client.post("/practice/vector-add/submit/", {"code": "print(1)\n"})

    run_worker()

    submission = Submission.objects.get(exercise=exercise)
    assert submission.verdict != "pending" and submission.checked is not None


def test_a_submission_checked_already_is_skipped(db):
    submission = SubmissionFactory(verdict="passed")

    assert check_submission.call(submission.pk) == "skipped: checked already, or deleted"
    assert Submission.objects.get().verdict == "passed"


def test_a_hidden_case_is_stored_as_hidden_and_nothing_of_it_more():
    result = {
        "verdict": "failed",
        "case": {"hidden": True, "size": 4097, "index": 4096, "expected": 1.5, "got": 0.0},
        "message": "hidden case 2 (size 4097): index 4096 expected 1.5 got 0.0",
        "seconds": 2.5,
    }

    stored = stored_result(result)

    assert stored == {
        "verdict": "failed",
        "case": {"hidden": True},
        "message": HIDDEN_CASE_FAILED,
        "seconds": 2.5,
    }


def test_a_public_case_is_stored_as_the_runner_gave_it():
    case = {"name": "size 129", "size": 129, "index": 128, "expected": 3.0, "got": 0.0}

    stored = stored_result({"verdict": "failed", "case": case, "message": "tail", "seconds": 1})

    assert stored["case"] == case and stored["message"] == "tail"


def test_an_answer_the_site_does_not_know_is_a_crash_of_the_checker():
    stored = stored_result({"verdict": "maybe", "seconds": -1})

    assert stored["verdict"] == "crashed" and stored["case"] is None


def test_hidden_seeds_differ_by_submission_and_secret(db, settings):
    first, second = SubmissionFactory(), SubmissionFactory()
    seeds = hidden_seed(first), hidden_seed(second)
    settings.PRACTICE_SECRET = "another secret"

    assert seeds[0] != seeds[1]
    assert hidden_seed(first) not in seeds
    assert 0 <= hidden_seed(first) < 2**31


def repository_exercises():
    root = Path(settings.BASE_DIR) / "exercises"
    return sorted(path for path in root.glob("*") if (path / "exercise.yaml").is_file())


@pytest.mark.parametrize(
    "folder", repository_exercises() or [None], ids=lambda f: f.name if f else "none"
)
def test_each_reference_passes_and_each_known_wrong_solution_fails_on_the_server(
    db, folder, tmp_path, settings
):
    """The full path on the repository's exercises: the task, the sandbox, the runner, the hidden cases."""
    sandbox, reason = sandbox_or_reason()
    if folder is None:
        pytest.skip("no exercises/ folder on this branch yet (it lands from practice-runner)")
    if sandbox is None:
        pytest.skip(reason)
    settings.PRACTICE_EXERCISES_DIR = tmp_path
    shutil.copytree(folder, tmp_path / folder.name)
    from tests.factories import ResourceFactory

    exercise = Exercise.objects.create(
        slug=folder.name, title_fr=folder.name, resource=ResourceFactory(), folder=folder.name
    )
    solutions = [(folder / "reference.py", "passed")] + [
        (wrong, "not passed") for wrong in sorted((folder / "wrong").glob("*.py"))
    ]
    for path, expected in solutions:
        submission = SubmissionFactory(exercise=exercise, code=path.read_text(), verdict="pending")
        check_submission.call(submission.pk)
        submission.refresh_from_db()
        got = "passed" if submission.verdict == "passed" else "not passed"
        assert got == expected, f"{path.name}: {submission.verdict} {submission.message}"
