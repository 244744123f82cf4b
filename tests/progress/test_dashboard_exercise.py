"""The dashboard's next-up asks to check the exercise of a lecture watched and coded on (issue 41)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from progress import actions
from tests.factories import (
    CodingSessionFactory,
    ExerciseFactory,
    ResourceFactory,
    SubmissionFactory,
)

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def check_card(client):
    """The next-up's "check your kernel" part, "" when there is none."""
    response = client.get("/", headers=EN)
    assert response.status_code == 200
    html = response.content.decode()
    if 'id="next-up-check"' not in html:
        return ""
    return html.split('id="next-up-check"')[1].split("</section>")[0]


def lecture_of(seed_path, index):
    return next(step.resource for step in seed_path.steps[index:] if step.resource_id)


def test_a_lecture_watched_and_coded_on_asks_to_check_its_exercise(
    learner_client, learner, seed_path
):
    """Watched, then an hour of code on it: "check your kernel", with the time and a link."""
    lecture = lecture_of(seed_path, 0)
    ExerciseFactory(slug="reduction", title_en="A tree reduction", resource=lecture)
    actions.mark_watched(user=learner, resource=lecture)
    CodingSessionFactory(user=learner, resource=lecture, minutes=60)

    card = check_card(learner_client)

    assert 'href="/practice/reduction/"' in card
    assert "A tree reduction" in card
    assert "1\u00a0h" in card


def test_nothing_to_check_before_the_code_time_or_the_lecture(learner_client, learner, seed_path):
    """Watched without code, or code on a lecture not finished: no check yet."""
    watched, coded = lecture_of(seed_path, 0), lecture_of(seed_path, 3)
    ExerciseFactory(resource=watched)
    ExerciseFactory(resource=coded)
    actions.mark_watched(user=learner, resource=watched)
    CodingSessionFactory(user=learner, resource=coded, minutes=90)

    assert check_card(learner_client) == ""


def test_a_passed_or_turned_off_exercise_is_not_asked_again(
    learner_client, learner, other_learner, seed_path
):
    """Passed by the learner, or turned off by a curator: nothing to check; someone else's pass
    does not count for the learner."""
    lecture = lecture_of(seed_path, 0)
    passed = ExerciseFactory(resource=lecture, order=1)
    ExerciseFactory(resource=lecture, order=2, is_active=False)
    actions.mark_watched(user=learner, resource=lecture)
    CodingSessionFactory(user=learner, resource=lecture, minutes=60)
    SubmissionFactory(learner=learner, exercise=passed, verdict="passed")
    assert check_card(learner_client) == ""

    SubmissionFactory(learner=learner, exercise=passed, verdict="failed")
    other = ExerciseFactory(slug="other", resource=lecture, order=3)
    SubmissionFactory(learner=other_learner, exercise=other, verdict="passed")
    assert 'href="/practice/other/"' in check_card(learner_client)


def test_the_lecture_coded_on_last_comes_first_in_french_too(client, learner, seed_path):
    """Two lectures watched and coded on: the exercise of the one coded on last, in French."""
    first, second = lecture_of(seed_path, 0), lecture_of(seed_path, 3)
    ExerciseFactory(slug="first", resource=first)
    ExerciseFactory(slug="second", title_fr="Une transposée", resource=second)
    for lecture in (first, second):
        actions.mark_watched(user=learner, resource=lecture)
        CodingSessionFactory(user=learner, resource=lecture, minutes=45)
    client.force_login(learner)

    html = client.get("/", headers={"accept-language": "fr"}).content.decode()

    card = html.split('id="next-up-check"')[1].split("</section>")[0]
    assert 'href="/practice/second/"' in card and "Une transposée" in card
    assert "vérifiez votre noyau" in card


def test_a_lecture_off_the_learners_path_asks_too(learner_client, learner, seed_path):
    """The check follows what the learner watched and coded on, not only the path's steps."""
    off_path = ResourceFactory(slug="off-the-path", title="A talk off the path")
    ExerciseFactory(slug="off-path-kernel", title_en="An off-path kernel", resource=off_path)
    actions.mark_watched(user=learner, resource=off_path)
    CodingSessionFactory(user=learner, resource=off_path, minutes=30)

    card = check_card(learner_client)

    assert 'href="/practice/off-path-kernel/"' in card
    assert "30\u00a0min" in card


def test_no_exercise_is_read_until_a_lecture_is_finished_and_coded_on(
    learner_client, learner, seed_path
):
    """What the learner finished and coded on is read with their path: the exercises are asked
    for only when a lecture qualifies."""
    lecture = lecture_of(seed_path, 0)
    ExerciseFactory(resource=lecture)
    CodingSessionFactory(user=learner, resource=lecture, minutes=60)

    def exercise_reads():
        with CaptureQueriesContext(connection) as queries:
            check_card(learner_client)
        return [q["sql"] for q in queries if "practice_exercise" in q["sql"]]

    assert exercise_reads() == []
    actions.mark_watched(user=learner, resource=lecture)
    assert len(exercise_reads()) == 1
