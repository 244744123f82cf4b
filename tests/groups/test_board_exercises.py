"""The group board's exercises passed: how many for every member, which ones only for a member
who shares what they code (issue 41)."""

import pytest
from django.urls import reverse

from tests.factories import ExerciseFactory, SubmissionFactory

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def entry(body, name):
    start = body.index(f'<h2 class="board__name">{name}')
    return body[start : body.index("</li>\n", start)]


def exercises_figure(html):
    start = html.index('<dd class="board__exercises">') + len('<dd class="board__exercises">')
    return html[start : html.index("</dd>", start)]


def test_every_member_shows_how_many_exercises_they_passed(
    client_of, learner, other_learner, group
):
    """Ada shares her progress only, Grace her coding too: both counts show, each exercise once."""
    reduction = ExerciseFactory(title_en="Reduction")
    scan = ExerciseFactory(title_en="Prefix scan")
    for _ in range(2):
        SubmissionFactory(learner=learner, exercise=reduction, verdict="passed")
    SubmissionFactory(learner=learner, exercise=scan, verdict="failed")
    SubmissionFactory(learner=other_learner, exercise=scan, verdict="passed")
    SubmissionFactory(learner=other_learner, exercise=reduction, verdict="passed")

    response = client_of(other_learner).get(reverse("groups:board", args=[group.slug]), headers=EN)

    members = {member.name: member for member in response.context["page"].members}
    assert members["Ada L."].exercises_passed == 1
    assert members["Grace H."].exercises_passed == 2
    body = response.content.decode()
    assert exercises_figure(entry(body, "Ada L.")) == "1"
    assert "Exercises passed" in entry(body, "Grace H.")


def test_which_exercises_show_only_for_a_member_who_shares_their_coding(
    client_of, learner, other_learner, group
):
    """Grace shares her coding: her exercises' titles show, first passed first. Ada shares her
    progress only: her count shows, not the title of what she passed."""
    SubmissionFactory(
        learner=other_learner, exercise=ExerciseFactory(title_en="Transpose"), verdict="passed"
    )
    SubmissionFactory(
        learner=other_learner, exercise=ExerciseFactory(title_en="Histogram"), verdict="passed"
    )
    SubmissionFactory(
        learner=learner, exercise=ExerciseFactory(title_en="Ada's softmax"), verdict="passed"
    )

    body = (
        client_of(learner)
        .get(reverse("groups:board", args=[group.slug]), headers=EN)
        .content.decode()
    )

    assert exercises_figure(entry(body, "Grace H.")) == "2 · Transpose, Histogram"
    assert exercises_figure(entry(body, "Ada L.")) == "1"
    assert "Ada's softmax" not in body
    assert "Ada&#39;s softmax" not in body


def test_a_member_who_passed_nothing_shows_zero(client_of, learner, group):
    """No submission, or none passed: 0."""
    SubmissionFactory(learner=learner, verdict="crashed")

    response = client_of(learner).get(reverse("groups:board", args=[group.slug]))

    assert {member.exercises_passed for member in response.context["page"].members} == {0}
    assert "Exercices réussis" in response.content.decode()
