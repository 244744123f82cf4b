"""The exercise page, /practice/<slug>/, its polled submissions, and its block on the resource page."""

import pytest

from tests.factories import ExerciseFactory, ResourceFactory, SubmissionFactory


@pytest.fixture
def exercise(db):
    return ExerciseFactory(
        slug="vector-add",
        title_fr="Addition de vecteurs",
        title_en="Vector addition",
        resource=ResourceFactory(slug="gpu-mode-3", title="Getting Started With CUDA"),
    )


def test_it_shows_the_statement_starter_and_form_in_french(french_client, exercise):
    response = french_client.get("/practice/vector-add/")

    html = response.content.decode()
    assert response.status_code == 200
    assert "Exercice : Addition de vecteurs" in html
    assert "<p>Additionnez deux vecteurs.</p>" in html
    assert "<pre><code>c[i] = a[i] + b[i]</code></pre>" in html
    assert "@cuda.jit" in html and 'action="/practice/vector-add/submit/"' in html
    assert 'href="/resources/gpu-mode-3/"' in html
    assert "parcours practice vector-add" in html


def test_it_shows_the_statement_in_english_to_an_english_reader(learner_client, exercise):
    html = learner_client.get("/practice/vector-add/").content.decode()

    assert "Exercise: Vector addition" in html and "<p>Add two vectors.</p>" in html


def test_a_statement_is_escaped_not_run(learner_client, exercise):
    exercise.statement_en = "<script>alert(1)</script>"
    exercise.save()

    html = learner_client.get("/practice/vector-add/").content.decode()

    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html


def test_it_lists_the_learners_verdicts_and_not_another_learners(
    learner_client, learner, other_learner, exercise
):
    SubmissionFactory(
        learner=learner,
        exercise=exercise,
        verdict="failed",
        message="size 129: tail not handled",
        case={"name": "size 129", "size": 129, "index": 128, "expected": 3.0, "got": 0.0},
    )
    SubmissionFactory(
        learner=other_learner, exercise=exercise, verdict="crashed", message="grace's"
    )

    html = learner_client.get("/practice/vector-add/").content.decode()

    assert "size 129: tail not handled" in html
    assert "first wrong index" in html and "<code>128</code>" in html
    assert "grace&#39;s" not in html and "grace's" not in html


def test_a_hidden_failure_says_only_that_a_hidden_case_failed(learner_client, learner, exercise):
    SubmissionFactory(
        learner=learner, exercise=exercise, case={"hidden": True}, message="A hidden case failed."
    )

    html = learner_client.get("/practice/vector-add/").content.decode()

    assert "A hidden case failed" in html
    assert "first wrong index" not in html


def test_a_pending_submission_is_polled_and_a_plain_link_stands_in_without_javascript(
    learner_client, learner, exercise
):
    SubmissionFactory(learner=learner, exercise=exercise, verdict="pending")

    html = learner_client.get("/practice/vector-add/").content.decode()

    assert 'hx-get="/practice/vector-add/submissions/" hx-trigger="every 2s"' in html
    assert '<a href="/practice/vector-add/submissions/">' in html


def test_no_poll_once_every_verdict_is_in(learner_client, learner, exercise):
    SubmissionFactory(learner=learner, exercise=exercise, verdict="passed")

    html = learner_client.get("/practice/vector-add/").content.decode()

    assert "hx-trigger" not in html


def test_the_polled_block_is_the_learners_submissions_alone(learner_client, learner, exercise):
    SubmissionFactory(learner=learner, exercise=exercise, verdict="timed_out")

    response = learner_client.get("/practice/vector-add/submissions/", HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="submissions" id="submissions"')
    assert "<html" not in html


def test_an_exercise_turned_off_or_unknown_is_a_404(learner_client, exercise):
    exercise.is_active = False
    exercise.save()

    assert learner_client.get("/practice/vector-add/").status_code == 404
    assert learner_client.get("/practice/vector-add/submissions/").status_code == 404
    assert learner_client.get("/practice/no-such/").status_code == 404


def test_a_visitor_is_sent_to_sign_in(client, exercise):
    response = client.get("/practice/vector-add/")

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize("count", [1, 10])
def test_the_page_costs_the_same_queries_with_more_submissions(
    learner_client, learner, exercise, count, django_assert_num_queries
):
    for _ in range(count):
        SubmissionFactory(learner=learner, exercise=exercise, verdict="failed")

    # Session, user, the exercise with its resource and series, the latest submissions, passed.
    with django_assert_num_queries(5):
        response = learner_client.get("/practice/vector-add/")

    assert response.status_code == 200


def test_the_resource_page_says_not_yet_then_passed(french_client, learner, exercise):
    html = french_client.get("/resources/gpu-mode-3/").content.decode()
    assert 'Exercice : <a href="/practice/vector-add/">Addition de vecteurs</a>' in html
    assert "pas encore" in html

    SubmissionFactory(learner=learner, exercise=exercise, verdict="passed")

    html = french_client.get("/resources/gpu-mode-3/").content.decode()
    assert "réussi" in html and "pas encore" not in html


def test_the_resource_page_leaves_out_an_exercise_turned_off(learner_client, exercise):
    exercise.is_active = False
    exercise.save()

    html = learner_client.get("/resources/gpu-mode-3/").content.decode()

    assert "/practice/vector-add/" not in html
