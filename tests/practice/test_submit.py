"""POST /practice/<slug>/submit/: a solution pasted or sent as a file is stored pending and queued."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django_tasks_db.models import DBTaskResult

from practice.models import Submission
from tests.factories import ExerciseFactory, SubmissionFactory

SOLUTION = "from numba import cuda\n\n@cuda.jit\ndef add(a, b, c):\n    i = cuda.grid(1)\n"


@pytest.fixture
def exercise(db):
    return ExerciseFactory(slug="vector-add")


def submit_url(slug="vector-add"):
    return f"/practice/{slug}/submit/"


def test_a_pasted_solution_is_stored_pending_and_queued(learner_client, learner, exercise):
    response = learner_client.post(submit_url(), {"code": SOLUTION})

    assert response.status_code == 302
    assert response["Location"] == "/practice/vector-add/#submissions"
    submission = Submission.objects.get()
    assert (submission.learner, submission.exercise, submission.code) == (
        learner,
        exercise,
        SOLUTION,
    )
    assert submission.verdict == "pending" and submission.source == "web"
    task = DBTaskResult.objects.get()
    assert task.task_path == "practice.tasks.check_submission"
    assert task.args_kwargs["args"] == [submission.pk]


def test_a_file_is_read_as_the_solution(learner_client, exercise):
    upload = SimpleUploadedFile("solution.py", SOLUTION.encode(), content_type="text/x-python")

    response = learner_client.post(submit_url(), {"code": "", "file": upload})

    assert response.status_code == 302
    assert Submission.objects.get().code == SOLUTION


def test_an_empty_solution_is_refused_with_the_page_and_nothing_is_stored(learner_client, exercise):
    response = learner_client.post(submit_url(), {"code": "  \n"})

    assert response.status_code == 422
    assert "The solution is empty" in response.content.decode()
    assert not Submission.objects.exists() and not DBTaskResult.objects.exists()


def test_a_paste_larger_than_64_kb_is_refused(learner_client, exercise):
    response = learner_client.post(submit_url(), {"code": "#" * (64 * 1024 + 1)})

    assert response.status_code == 413
    assert "larger than 64 kB" in response.content.decode()
    assert not Submission.objects.exists()


def test_a_file_larger_than_64_kb_is_refused(learner_client, exercise):
    upload = SimpleUploadedFile("big.py", b"#" * (64 * 1024 + 1))

    response = learner_client.post(submit_url(), {"file": upload})

    assert response.status_code == 413
    assert not Submission.objects.exists()


def test_a_file_that_is_not_text_is_refused(learner_client, exercise):
    upload = SimpleUploadedFile("kernel.bin", b"\xff\xfe\x00binary")

    response = learner_client.post(submit_url(), {"file": upload})

    assert response.status_code == 422
    assert "not UTF-8 text" in response.content.decode()


def test_a_second_solution_while_one_is_checked_is_refused(learner_client, learner, exercise):
    SubmissionFactory(learner=learner, exercise=exercise, verdict="pending")

    response = learner_client.post(submit_url(), {"code": SOLUTION})

    assert response.status_code == 409
    assert "still being checked" in response.content.decode()
    assert Submission.objects.count() == 1 and not DBTaskResult.objects.exists()


def test_another_learners_pending_solution_does_not_hold_the_learner_back(
    learner_client, other_learner, exercise
):
    SubmissionFactory(learner=other_learner, exercise=exercise, verdict="pending")

    response = learner_client.post(submit_url(), {"code": SOLUTION})

    assert response.status_code == 302
    assert Submission.objects.filter(verdict="pending").count() == 2


def test_past_the_rate_a_learner_waits(learner_client, exercise, settings):
    settings.PRACTICE_SUBMIT_LIMIT = 2
    for _ in range(2):
        assert learner_client.post(submit_url(), {"code": SOLUTION}).status_code == 302
        Submission.objects.update(verdict="failed")

    response = learner_client.post(submit_url(), {"code": SOLUTION})

    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    assert "Too many submissions" in response.content.decode()
    assert Submission.objects.count() == 2


def test_an_unknown_exercise_is_a_404(learner_client, exercise):
    response = learner_client.post(submit_url("no-such-exercise"), {"code": SOLUTION})

    assert response.status_code == 404
    assert not Submission.objects.exists()


def test_an_exercise_turned_off_takes_no_submission(learner_client, exercise):
    exercise.is_active = False
    exercise.save()

    response = learner_client.post(submit_url(), {"code": SOLUTION})

    assert response.status_code == 404
    assert not Submission.objects.exists()


def test_a_visitor_is_sent_to_sign_in(client, exercise):
    response = client.post(submit_url(), {"code": SOLUTION})

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Submission.objects.exists()


def test_get_is_not_allowed(learner_client, exercise):
    assert learner_client.get(submit_url()).status_code == 405


def test_the_database_refuses_a_second_pending_solution_of_a_learner(learner, exercise):
    from django.db import IntegrityError, transaction

    SubmissionFactory(learner=learner, exercise=exercise, verdict="pending")

    with pytest.raises(IntegrityError), transaction.atomic():
        SubmissionFactory(learner=learner, exercise=ExerciseFactory(), verdict="pending")
