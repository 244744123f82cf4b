"""The coding log's exercises passed: each beside the time coded on its lecture (issue 41)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import (
    CodingSessionFactory,
    ExerciseFactory,
    ResourceFactory,
    SubmissionFactory,
)

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
URL = "/coding/"


def test_an_exercise_passed_shows_beside_the_time_coded_on_its_lecture(learner_client, learner):
    """The exercise passed, the day, the submissions it took and the minutes on its resource."""
    lecture = ResourceFactory(title="Reductions")
    exercise = ExerciseFactory(
        slug="reduction", title_en="A shared-memory reduction", resource=lecture
    )
    CodingSessionFactory(user=learner, resource=lecture, minutes=50)
    CodingSessionFactory(user=learner, resource=lecture, minutes=40)
    CodingSessionFactory(user=learner, resource=ResourceFactory(), minutes=300)
    SubmissionFactory(learner=learner, exercise=exercise, verdict="failed")
    SubmissionFactory(learner=learner, exercise=exercise, verdict="passed")

    html = learner_client.get(URL, headers=EN).content.decode()

    assert "Exercises passed" in html
    row = html[html.index('href="/practice/reduction/"') :].split("</tr>")[0]
    assert "A shared-memory reduction" in row
    assert '<td data-label="Submissions">2</td>' in row
    assert "1\u00a0h\u00a030" in row


def test_failed_attempts_and_other_learners_passes_show_nothing(
    learner_client, learner, other_learner
):
    """Only the learner's own passes count: no section for a failure or someone else's pass."""
    exercise = ExerciseFactory(title_en="Vector add")
    SubmissionFactory(learner=learner, exercise=exercise, verdict="failed")
    SubmissionFactory(learner=other_learner, exercise=exercise, verdict="passed")

    html = learner_client.get(URL, headers=EN).content.decode()

    assert "Exercises passed" not in html
    assert "Vector add" not in html


def test_exercises_are_listed_in_the_order_they_were_first_passed(learner_client, learner):
    """The first passed comes first, whatever was submitted after; nothing coded says so."""
    now = timezone.now()
    later = ExerciseFactory(title_en="Histogram")
    earlier = ExerciseFactory(title_en="Transpose")
    SubmissionFactory(
        learner=learner, exercise=earlier, verdict="passed", created=now - timedelta(days=3)
    )
    SubmissionFactory(
        learner=learner, exercise=later, verdict="passed", created=now - timedelta(days=1)
    )
    SubmissionFactory(learner=learner, exercise=earlier, verdict="passed", created=now)

    html = learner_client.get(URL, headers=EN).content.decode()

    assert html.index("Transpose") < html.index("Histogram")
    assert "nothing logged" in html


def test_an_exercise_turned_off_stays_passed_without_a_link(learner_client, learner):
    """A curator turning an exercise off does not undo a pass; it is listed, not linked."""
    exercise = ExerciseFactory(slug="old-scan", title_en="An old scan", is_active=False)
    SubmissionFactory(learner=learner, exercise=exercise, verdict="passed")

    html = learner_client.get(URL, headers=EN).content.decode()

    assert "An old scan" in html
    assert 'href="/practice/old-scan/"' not in html


def test_the_french_page_says_it_in_french(client, learner):
    """The section is translated."""
    client.force_login(learner)
    SubmissionFactory(
        learner=learner, exercise=ExerciseFactory(title_fr="Réduction"), verdict="passed"
    )

    html = client.get(URL, headers={"accept-language": "fr"}).content.decode()

    assert "Exercices réussis" in html
    assert "Réduction" in html
