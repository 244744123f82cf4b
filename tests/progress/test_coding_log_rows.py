"""The coding log's one statement (progress/coding_log.py) reads what the separate queries read:
the revision token, the balances, a page of sessions as Django's Paginator cuts it, the editor's
projects by name; and the blank coding form written once is the form Django would print."""

import datetime
import re
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.paginator import Paginator
from django.template import engines
from django.utils import timezone, translation

from curriculum import structure
from curriculum.models import Resource, Revision
from lib.form_fields import field_groups
from progress import actions
from progress.balance import learner_minutes, minutes_of
from progress.coding_log import SESSIONS_PER_PAGE, coding_log_rows, requested_page
from progress.forms import CodingSessionForm
from progress.models import CodingSession, EditorProject, WatchEvent
from progress.pages import blank_coding_form
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
    sessions = CodingSession.objects.for_learner(learner).row_values()
    paginator = Paginator(sessions, SESSIONS_PER_PAGE)
    return paginator.get_page(value)


@time_machine.travel(NOW, tick=False)
@pytest.mark.parametrize("value", [None, "1", "2", "3", "4", "999", "0", "-3", "x", "1.0", ""])
def test_the_statement_reads_what_the_querysets_read(learner, histories, value):
    """Same token and balances; the page of sessions the Paginator would show, in its order,
    clamped as it clamps; the projects by name."""
    with timezone.override(ZoneInfo("Europe/Paris")):
        rows = coding_log_rows(learner, TODAY, requested_page(value))
        expected = learner_minutes(learner, histories, TODAY)
    page = paginated(learner, value)
    assert rows.token == Revision.objects.values_list("token", flat=True).first()
    assert minutes_of(rows.minutes, histories) == expected
    assert expected.week.watched == 60 and expected.sessions == rows.count == 45
    assert (rows.number, rows.pages) == (page.number, page.paginator.num_pages)
    columns = ["pk", "day", "minutes", "built", "code_url", "resource_id", "chapter_id", "source"]
    assert [[getattr(s, c) for c in columns] for s in rows.sessions] == [
        [s[c] for c in columns] for s in page.object_list
    ]
    assert [(p.name, p.counted, p.resource_id, p.chapter_id) for p in rows.projects] == list(
        EditorProject.objects.for_learner(learner).values_list(
            "name", "counted", "resource_id", "chapter_id"
        )
    )


def test_a_learner_without_sessions_has_one_empty_page(learner):
    rows = coding_log_rows(learner, TODAY, requested_page("7"))
    assert (rows.sessions, rows.projects, rows.count, rows.number, rows.pages) == ([], [], 0, 1, 1)


@time_machine.travel(NOW, tick=False)
def test_the_log_lists_the_projects_with_what_they_count_for(learner_client, histories):
    html = learner_client.get("/coding/", headers=EN).content.decode()
    assert html.index("<strong>(no project)</strong>") < html.index("<strong>alpha</strong>")
    assert "not counted (typed sessions instead)" in html
    assert f"counts for {histories[0].title}" in html
    assert 'aria-current="page">Page 1 of 3</span>' in html


def unkeyed(html):
    return re.sub(r'name="idempotency_key" value="[0-9a-f-]{36}"', "KEY", str(html))


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_blank_forms_are_the_forms_django_prints(language):
    """The fields written once per revision and language, with today and a fresh key put in, are
    those of a new form, labels and help in the language asked for, as templates/_fields.jinja
    prints them."""
    resource = ResourceFactory(title="Lecture one")
    ChapterFactory()
    curriculum = structure.current()
    fields = engines["jinja2"].env.get_template("_fields.jinja").module.fields
    with translation.override(language):
        for blank, form in [
            (blank_coding_form(curriculum), CodingSessionForm(curriculum=curriculum)),
            (blank_coding_form(), CodingSessionForm(resource=resource)),
        ]:
            assert unkeyed(blank) == unkeyed(fields(field_groups(form), ()))


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
