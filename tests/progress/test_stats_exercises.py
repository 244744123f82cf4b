"""The stats page counts the exercises passed: each once, however many passing submissions."""

import re

import pytest

from tests.factories import ExerciseFactory, SubmissionFactory

pytestmark = pytest.mark.django_db

URL = "/stats/"


def figure(html, term):
    match = re.search(rf"<dt>{term}</dt><dd>([^<]*)</dd>", html)
    assert match, f"no figure {term}"
    return match[1]


def test_it_counts_each_exercise_passed_once(learner_client, learner, other_learner):
    """Two exercises passed (one of them twice), a failure and someone else's pass: two."""
    first, second, failed = ExerciseFactory(), ExerciseFactory(), ExerciseFactory()
    SubmissionFactory(learner=learner, exercise=first, verdict="passed")
    SubmissionFactory(learner=learner, exercise=first, verdict="passed")
    SubmissionFactory(learner=learner, exercise=second, verdict="failed")
    SubmissionFactory(learner=learner, exercise=second, verdict="passed")
    SubmissionFactory(learner=learner, exercise=failed, verdict="timed_out")
    SubmissionFactory(learner=other_learner, exercise=failed, verdict="passed")

    html = learner_client.get(URL, headers={"accept-language": "en"}).content.decode()

    assert figure(html, "Exercises passed") == "2"


def test_a_new_learner_has_passed_none_in_french_too(learner_client):
    """Nothing passed reads 0, with a French label."""
    html = learner_client.get(URL, headers={"accept-language": "fr"}).content.decode()

    assert figure(html, "Exercices réussis") == "0"
