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


# What the runner stores of a failing public case (practice/runner/check.py's compare).
NO_TAIL = {
    "index": 3,
    "size": 129,
    "hidden": False,
    "first_wrong_index": 128,
    "expected": -1.6215007,
    "got": 0.0,
    "max_error": 1.6215007,
}
NO_TAIL_MESSAGE = (
    "case 4 (size 129): first wrong value at index 128: expected -1.6215007, got 0.0 "
    "(max error 1.6215007)"
)


def test_it_lists_the_learners_verdicts_and_not_another_learners(
    learner_client, learner, other_learner, exercise
):
    SubmissionFactory(
        learner=learner, exercise=exercise, verdict="failed", message=NO_TAIL_MESSAGE, case=NO_TAIL
    )
    SubmissionFactory(
        learner=other_learner, exercise=exercise, verdict="crashed", message="grace's"
    )

    html = learner_client.get("/practice/vector-add/").content.decode()

    assert "Case 4 (size 129) gives a wrong answer." in html
    assert "<dt>first wrong index</dt><dd><code>128</code></dd>" in html
    assert "<dt>expected</dt><dd><code>-1.6215007</code></dd>" in html
    assert "<dt>got</dt><dd><code>0.0</code></dd>" in html
    assert "grace&#39;s" not in html and "grace's" not in html


def test_a_failing_case_is_told_in_french_to_a_french_reader(french_client, learner, exercise):
    """The runner writes English; the page says the case, its size and where it went wrong in
    the reader's language, and not the runner's sentence."""
    SubmissionFactory(
        learner=learner, exercise=exercise, verdict="failed", message=NO_TAIL_MESSAGE, case=NO_TAIL
    )

    html = french_client.get("/practice/vector-add/").content.decode()

    assert "Le cas 4 (taille 129) donne une mauvaise réponse." in html
    assert "<dt>premier indice faux</dt><dd><code>128</code></dd>" in html
    assert "first wrong value" not in html and "first_wrong_index" not in html


def test_a_wrong_shape_says_what_is_wrong(learner_client, learner, exercise):
    case = {"index": 0, "size": 1, "hidden": False, "problem": "expected (44,), got (1,)"}
    SubmissionFactory(learner=learner, exercise=exercise, verdict="failed", case=case)

    html = learner_client.get("/practice/vector-add/").content.decode()

    assert "Case 1 (size 1) gives a wrong answer." in html
    assert "<dt>what is wrong</dt><dd><code>expected (44,), got (1,)</code></dd>" in html


def test_a_crash_shows_the_checkers_words_under_the_case(french_client, learner, exercise):
    """An exception is the solution's own: its text stays as Python wrote it, apart."""
    SubmissionFactory(
        learner=learner,
        exercise=exercise,
        verdict="crashed",
        message="case 2 (size 127) crashed: ZeroDivisionError: division by zero (solution.py, line 7)",
        case={"index": 1, "size": 127, "hidden": False},
    )

    html = french_client.get("/practice/vector-add/").content.decode()

    assert "Le cas 2 (taille 127) a planté." in html
    assert "<summary>Ce qu’a dit le vérificateur</summary>" in html
    assert "ZeroDivisionError: division by zero (solution.py, line 7)</code></pre>" in html
    assert "premier indice faux" not in html


def test_a_refusal_says_the_server_did_not_check_and_why(learner_client, learner, exercise):
    reason = "no sandbox to check in: bwrap is not installed here"
    SubmissionFactory(learner=learner, exercise=exercise, verdict="refused", message=reason)

    html = learner_client.get("/practice/vector-add/").content.decode()

    assert "The server did not check this solution." in html
    assert f"<pre><code>{reason}</code></pre>" in html


def test_the_servers_own_messages_are_translated(french_client, learner, exercise):
    SubmissionFactory(
        learner=learner,
        exercise=exercise,
        verdict="refused",
        message="The checker failed on the server, not your code: send it again later.",
    )

    html = french_client.get("/practice/vector-add/").content.decode()

    assert "Le vérificateur a échoué sur le serveur" in html
    assert "The checker failed" not in html and "submission__detail" not in html


def test_a_pass_says_every_case_passed(french_client, learner, exercise):
    SubmissionFactory(
        learner=learner, exercise=exercise, verdict="passed", message="all 14 cases passed"
    )

    html = french_client.get("/practice/vector-add/").content.decode()

    assert "Tous les cas sont passés, les cas cachés aussi." in html
    assert "all 14 cases" not in html


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
