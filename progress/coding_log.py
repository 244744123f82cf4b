"""The coding log's view model (templates/progress/coding_log.jinja prints it): the learner's
balances, the form to log a session, their editor projects and one page of their sessions, read
through QuerySets in a fixed number of queries; the titles and links of what a session practised
come from the curriculum, built once per revision and language (Curriculum.built).
"""

import uuid
from dataclasses import dataclass

from django.db.models import OuterRef, Subquery, Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from lib.durations import day_label, duration
from lib.urls import url_for_each
from practice.models import Exercise
from progress.balance import learner_minutes
from progress.forms import CodingSessionForm
from progress.models import CodingSession, EditorProject
from progress.pages import BalanceLine, balance_line

SESSIONS_PER_PAGE = 20
# The newest first; created_at then id part sessions of the same day.
NEWEST_FIRST = ("-day", "-created_at", "-pk")


@dataclass(frozen=True, slots=True)
class Practised:
    """A resource's or chapter's title and link, as a coding session's row shows it."""

    title: str
    url: str


NOTHING = Practised("", "")


def practised_labels(curriculum) -> dict[tuple[str, int], Practised]:
    """The title and link of every resource and chapter, by ("resource" or "chapter", pk): built
    once per curriculum revision and language (Curriculum.built)."""
    resource_url = url_for_each("progress:resource_detail")
    guide_url = reverse("curriculum:guide")
    labels = {
        ("resource", resource.pk): Practised(str(resource), resource_url(resource.slug))
        for resource in curriculum.resources
    }
    for part in curriculum.parts:
        for chapter in part.chapters.all():
            anchor = f"{guide_url}#chapter-{part.number}-{chapter.number}"
            labels["chapter", chapter.pk] = Practised(str(chapter), anchor)
    return labels


@dataclass(frozen=True, slots=True)
class SessionRow:
    """A coding session as its row in the log shows it."""

    pk: int
    day: str
    time: str
    built: str
    resource: Practised
    chapter: Practised
    code_url: str  # "" for none
    from_editor: bool
    edit_url: str
    delete_url: str


@dataclass(frozen=True, slots=True)
class ProjectLine:
    """A project from the editor and where its time counts."""

    pk: int
    name: str
    counted: bool
    counts_for: str  # the resource's or chapter's title, "" for the overall balance only
    url: str


@dataclass(frozen=True, slots=True)
class PassedLine:
    """An exercise the learner passed, beside the time they coded on its lecture."""

    title: str
    url: str  # "" when a curator has turned it off since
    passed_on: str
    sent: int  # submissions of it, passed or not
    coded: str  # the minutes logged on its resource, written out; "" for none


@dataclass(frozen=True, slots=True)
class CodingLogPage:
    week: BalanceLine
    overall: BalanceLine
    form: CodingSessionForm  # blank, or as it was sent with its errors
    projects: tuple[ProjectLine, ...]
    passed: tuple[PassedLine, ...]  # the exercises passed, first passed first
    rows: tuple[SessionRow, ...]  # one page of sessions, the newest first
    number: int
    pages: int
    previous: int | None
    next: int | None


def page_number(value: str | None, pages: int) -> int:
    """The page asked for in the address, as Paginator.get_page reads it: not a number is the
    first page, before the first one or past the last one is the last one."""
    try:
        number = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 1
    return number if 1 <= number <= pages else pages


def session_rows(sessions, labels: dict[tuple[str, int], Practised]) -> tuple[SessionRow, ...]:
    edit_url = url_for_each("progress:coding_session_edit")
    delete_url = url_for_each("progress:coding_session_delete")
    return tuple(
        SessionRow(
            pk=session["pk"],
            day=day_label(session["day"]),
            time=duration(session["minutes"]),
            built=session["built"],
            resource=labels.get(("resource", session["resource_id"]), NOTHING),
            chapter=labels.get(("chapter", session["chapter_id"]), NOTHING),
            code_url=session["code_url"],
            from_editor=session["source"] == CodingSession.Source.EDITOR,
            edit_url=edit_url(session["pk"]),
            delete_url=delete_url(session["pk"]),
        )
        for session in sessions
    )


def project_lines(user, labels: dict[tuple[str, int], Practised]) -> tuple[ProjectLine, ...]:
    """The learner's editor projects by name, each with the title of what it counts for."""
    project_url = url_for_each("progress:editor_project")
    projects = EditorProject.objects.for_learner(user).values(
        "pk", "name", "counted", "resource_id", "chapter_id"
    )
    return tuple(
        ProjectLine(
            pk=project["pk"],
            name=project["name"],
            counted=project["counted"],
            counts_for=(
                labels.get(("resource", project["resource_id"]))
                or labels.get(("chapter", project["chapter_id"]))
                or NOTHING
            ).title,
            url=project_url(project["pk"]),
        )
        for project in projects
    )


def passed_lines(user) -> tuple[PassedLine, ...]:
    """The exercises the learner passed, each with the time they coded on its resource: one
    query."""
    coded = (
        CodingSession.objects.for_learner(user)
        .filter(resource=OuterRef("resource"))
        .order_by()
        .values("resource")
        .annotate(total=Sum("minutes"))
        .values("total")
    )
    exercises = Exercise.objects.passed_by(user).annotate(coded=Subquery(coded))
    return tuple(
        PassedLine(
            title=exercise.title,
            url=exercise.get_absolute_url() if exercise.is_active else "",
            passed_on=date_format(timezone.localtime(exercise.first_passed_at), "DATE_FORMAT"),
            sent=exercise.sent,
            coded=duration(exercise.coded) if exercise.coded else "",
        )
        for exercise in exercises.only("slug", "title", "is_active")
    )


def coding_log_page(user, curriculum, page: str | None, form=None) -> CodingLogPage:
    """The coding log: the balances, the form to log a session (blank, or as it was sent), the
    editor's projects, the exercises passed and the page of sessions asked for, in four
    queries."""
    today = timezone.localdate()
    minutes = learner_minutes(user, (), today)
    pages = max(1, -(-minutes.sessions // SESSIONS_PER_PAGE))
    number = page_number(page, pages)
    start = (number - 1) * SESSIONS_PER_PAGE
    sessions = (
        CodingSession.objects.for_learner(user)
        .row_values()
        .order_by(*NEWEST_FIRST)[start : start + SESSIONS_PER_PAGE]
    )
    labels = curriculum.built(practised_labels)
    if form is None:
        initial = {"day": today, "idempotency_key": uuid.uuid4()}
        form = CodingSessionForm(curriculum=curriculum, initial=initial)
    return CodingLogPage(
        week=balance_line(minutes.week),
        overall=balance_line(minutes.overall),
        form=form,
        projects=project_lines(user, labels),
        passed=passed_lines(user),
        rows=session_rows(sessions, labels),
        number=number,
        pages=pages,
        previous=number - 1 if number > 1 else None,
        next=number + 1 if number < pages else None,
    )
