"""The coding log's pages (progress/coding_log.py) cut the sessions as Django's Paginator cuts
them, list the editor's projects by name, and the resource page's blank coding form written once
is the form Django would print."""

import datetime
import re
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.paginator import Paginator
from django.utils import translation

from curriculum.models import Resource
from progress import actions
from progress.coding_log import SESSIONS_PER_PAGE
from progress.models import CodingSession, EditorProject, WatchEvent
from tests.factories import ChapterFactory, CodingSessionFactory, ResourceFactory

pytestmark = pytest.mark.django_db

# Wednesday 18 November 2026, 15:00 in Paris: the week started on Monday the 16th.
NOW = datetime.datetime(2026, 11, 18, 15, 0, tzinfo=ZoneInfo("Europe/Paris"))
TODAY = datetime.date(2026, 11, 18)
EN = {"accept-language": "en"}


@pytest.fixture
@time_machine.travel(NOW, tick=False)
def histories(learner, other_learner):
    """Two learners with watching, 45 coding sessions (some on the same day) and projects."""
    talk = ResourceFactory(slug="talk", duration_minutes=60)
    course = ResourceFactory(slug="course", kind="course", duration_minutes=720)
    chapter = ChapterFactory()
    for user in (learner, other_learner):
        actions.mark_watched(user=user, resource=talk)
        actions.log_sitting(user=user, resource=course, minutes=90)
        for number in range(45):
            CodingSessionFactory(
                user=user,
                resource=None if number % 5 == 0 else (talk, course)[number % 2],
                chapter=chapter if number % 5 == 0 else None,
                minutes=10 + number,
                day=TODAY - datetime.timedelta(days=number // 3),
            )
        EditorProject.objects.create(user=user, name="zeta", resource=talk)
        EditorProject.objects.create(user=user, name="alpha", chapter=chapter, counted=False)
        EditorProject.objects.create(user=user, name="")
    WatchEvent.objects.filter(user=learner, resource=course).update(at=NOW.replace(day=12))
    return [talk, course]


def paginated(learner, value):
    sessions = CodingSession.objects.for_learner(learner).order_by("-day", "-created_at", "-pk")
    paginator = Paginator(sessions.values_list("pk", flat=True), SESSIONS_PER_PAGE)
    return paginator.get_page(value)


@time_machine.travel(NOW, tick=False)
@pytest.mark.parametrize("value", [None, "1", "2", "3", "4", "999", "0", "-3", "x", "1.0", ""])
def test_a_page_of_sessions_is_the_one_the_paginator_would_show(
    learner_client, learner, histories, value
):
    """The page's sessions in its order, clamped as Paginator.get_page clamps, and its number."""
    query = {} if value is None else {"page": value}
    html = learner_client.get("/coding/", query, headers=EN).content.decode()
    page = paginated(learner, value)
    assert re.findall(r'<tr id="session-(\d+)">', html) == [str(pk) for pk in page.object_list]
    assert f"Page {page.number} of {page.paginator.num_pages}<" in html


def test_a_learner_without_sessions_has_one_empty_page(learner_client):
    html = learner_client.get("/coding/", {"page": "7"}, headers=EN).content.decode()
    assert "No coding session yet" in html and 'id="session-' not in html
    assert "Pages of coding sessions" not in html


@time_machine.travel(NOW, tick=False)
def test_the_log_lists_the_projects_with_what_they_count_for(learner_client, histories):
    html = learner_client.get("/coding/", headers=EN).content.decode()
    assert html.index("<strong>(no project)</strong>") < html.index("<strong>alpha</strong>")
    assert "not counted (typed sessions instead)" in html
    assert f"counts for {histories[0].title}" in html
    assert 'aria-current="page">Page 1 of 3</span>' in html


def test_a_curators_edit_shows_in_the_coding_logs_select_at_once(learner_client):
    """The select's options are written once per curriculum revision: a renamed resource is
    in the next page."""
    resource = ResourceFactory(title="Lecture one")
    assert ">Lecture one</option>" in learner_client.get("/coding/").content.decode()
    Resource.objects.filter(pk=resource.pk).update(title="Lecture 1")
    html = learner_client.get("/coding/").content.decode()
    assert ">Lecture 1</option>" in html and "Lecture one" not in html


@pytest.mark.parametrize(
    ("language", "label"), [("en", "18 November 2026"), ("fr", "18 novembre 2026")]
)
def test_a_days_label_is_the_date_filters_in_each_language(language, label):
    """Day labels are worded once per process and language, as Django's date_format words them."""
    from django.utils.formats import date_format

    from lib.durations import day_label

    with translation.override(language):
        assert day_label(TODAY) == date_format(TODAY, "DATE_FORMAT") == label
