"""/api/v1/exercises and /api/v1/submissions: what the CLI's practice, check and submit call."""

import json

import pytest
from django_tasks_db.models import DBTaskResult

from practice.models import Submission
from tests.api.conftest import bearer
from tests.factories import ExerciseFactory, ResourceFactory, SubmissionFactory
from tests.practice.conftest import write_exercise


@pytest.fixture
def exercise(db, exercises_dir):
    folder = write_exercise(exercises_dir, "vector-add")
    (folder / "cases.py").write_text("PUBLIC = [1, 127, 128, 129, 1000]\n")
    (folder / "reference.py").write_text("# the answer\n")
    (folder / "wrong").mkdir()
    (folder / "wrong" / "empty.py").write_text("pass\n")
    return ExerciseFactory(
        slug="vector-add", title_en="Vector addition", resource=ResourceFactory(slug="gpu-mode-3")
    )


def test_the_list_says_which_exercises_the_learner_passed(api, learner, exercise):
    other = ExerciseFactory(slug="reduction")
    SubmissionFactory(learner=learner, exercise=other, verdict="passed")
    ExerciseFactory(slug="turned-off", is_active=False)

    response = api.get("/exercises")

    assert response.status_code == 200
    answered = {item["slug"]: item for item in response.json()}
    assert set(answered) == {"vector-add", "reduction"}
    assert answered["reduction"]["passed"] is True and answered["vector-add"]["passed"] is False
    assert answered["vector-add"]["resource"] == "gpu-mode-3"
    assert answered["vector-add"]["url"] == "http://testserver/practice/vector-add/"


def test_an_exercise_comes_with_what_checks_it_locally_and_nothing_hidden(api, exercise):
    response = api.get("/exercises/vector-add")

    body = response.json()
    assert response.status_code == 200
    assert body["starter"].startswith("from numba import cuda")
    assert set(body["files"]) >= {"starter.py", "cases.py", "exercise.json"}
    settings_file = json.loads(body["files"]["exercise.json"])
    assert settings_file["slug"] == "vector-add" and settings_file["public_sizes"][-1] == 1000
    assert "hidden_cases" not in settings_file
    assert not any("reference" in name or "wrong" in name for name in body["files"])
    assert "# the answer" not in json.dumps(body)


def test_an_unknown_exercise_is_a_404(api, exercise):
    response = api.get("/exercises/no-such")

    assert response.status_code == 404 and response.json()["error"] == "not_found"


def test_a_solution_sent_is_queued_from_the_command_line(api, learner, exercise):
    response = api.post("/exercises/vector-add/submissions", {"code": "print(1)\n"})

    assert response.status_code == 202
    body = response.json()
    assert body["verdict"] == "pending" and body["exercise"] == "vector-add"
    submission = Submission.objects.get()
    assert (
        submission.pk == body["id"] and submission.source == "cli" and submission.learner == learner
    )
    assert DBTaskResult.objects.count() == 1


def test_a_second_solution_while_one_is_checked_is_a_409(api, learner, exercise):
    SubmissionFactory(learner=learner, exercise=exercise, verdict="pending")

    response = api.post("/exercises/vector-add/submissions", {"code": "print(1)\n"})

    assert response.status_code == 409 and response.json()["error"] == "pending"
    assert Submission.objects.count() == 1


def test_a_solution_too_large_is_refused(api, exercise):
    response = api.post("/exercises/vector-add/submissions", {"code": "#" * 70000})

    assert response.status_code in (413, 422)
    assert not Submission.objects.exists()


def test_an_empty_solution_is_refused(api, exercise):
    response = api.post("/exercises/vector-add/submissions", {"code": ""})

    assert response.status_code == 422
    assert not Submission.objects.exists()


def test_past_the_rate_the_learner_is_told_when_to_send_again(api, exercise, settings):
    settings.PRACTICE_SUBMIT_LIMIT = 1
    assert api.post("/exercises/vector-add/submissions", {"code": "a = 1\n"}).status_code == 202
    Submission.objects.update(verdict="failed")

    response = api.post("/exercises/vector-add/submissions", {"code": "a = 2\n"})

    assert response.status_code == 429 and int(response["Retry-After"]) >= 1
    assert Submission.objects.count() == 1


def test_a_read_only_token_cannot_send(client, read_token, exercise):
    response = client.post(
        "/api/v1/exercises/vector-add/submissions",
        {"code": "a = 1\n"},
        content_type="application/json",
        headers=bearer(read_token),
    )

    assert response.status_code == 403
    assert not Submission.objects.exists()


def test_a_submission_is_read_with_its_verdict(api, learner, exercise):
    submission = SubmissionFactory(
        learner=learner,
        exercise=exercise,
        verdict="failed",
        message="size 129: tail",
        case={"size": 129, "index": 128},
    )

    body = api.get(f"/submissions/{submission.pk}").json()

    assert body["verdict"] == "failed" and body["case"] == {"size": 129, "index": 128}
    assert body["message"] == "size 129: tail"


def test_someone_elses_submission_is_a_404(api, other_learner, exercise):
    submission = SubmissionFactory(learner=other_learner, exercise=exercise)

    response = api.get(f"/submissions/{submission.pk}")

    assert response.status_code == 404


def test_the_export_counts_the_exercises_passed(learner_client, learner, exercise):
    SubmissionFactory(learner=learner, exercise=exercise, verdict="failed")
    SubmissionFactory(learner=learner, exercise=exercise, verdict="passed")
    SubmissionFactory(learner=learner, exercise=ExerciseFactory(), verdict="failed")

    document = learner_client.get("/settings/export.json").json()

    assert [row["exercise"] for row in document["exercises_passed"]] == ["vector-add"]
    assert document["exercises_passed"][0]["submissions"] == 2
