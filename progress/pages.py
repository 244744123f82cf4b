"""View models of the learner's pages: every label, URL and number their templates print.

A view model is built by its view in one pass from the learner's data, and printed by one flat
Jinja2 template that computes nothing. Numbers are formatted here as the Django templates did
(`floatformat`, `date`, `duration`), so the HTML is the same in either language.
"""

import datetime
import uuid
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cache, lru_cache
from typing import Any, Protocol, cast

from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import get_format
from django.utils.translation import gettext
from markupsafe import Markup, escape

from curriculum.models import Resource
from lib.durations import day_label, duration
from lib.form_fields import FieldGroup, field_groups, non_field_errors
from lib.slots import Slotted, slot
from lib.urls import url_for_each, url_with
from progress.forms import CodingSessionForm
from progress.models import CodingSession


@dataclass(frozen=True, slots=True)
class BalanceLine:
    """A watch : code balance as its line says it (templates/progress/_balance.jinja)."""

    this_week: bool
    has_watched: bool
    has_coded: bool
    is_met: bool
    watched: str
    coded: str
    needed: str
    ratio: str
    meter_value: str


def balance_line(balance) -> BalanceLine:
    return BalanceLine(
        this_week=balance.this_week,
        has_watched=balance.has_watched,
        has_coded=bool(balance.coded),
        is_met=balance.is_met,
        watched=duration(balance.watched),
        coded=duration(balance.coded),
        needed=duration(balance.code_needed),
        ratio=tenths(balance.ratio) if balance.has_watched else "",
        meter_value=balance.meter_value,
    )


def balance_html(balance, meter_id: str, label: str) -> Markup:
    """A balance's line as templates/progress/_balance.jinja's balance_line prints it: the shape
    of its state (this week or in all; nothing, code only, met or not) written once per process,
    language, meter and label, its figures put in."""
    line = balance_line(balance)
    shape = balance_shape(
        line.this_week,
        line.has_watched,
        line.has_coded,
        line.is_met,
        meter_id,
        label,
        translation.get_language(),
    )
    return shape.markup(
        {
            "watched": escape(line.watched),
            "coded": escape(line.coded),
            "needed": escape(line.needed),
            "ratio": escape(line.ratio),
            "meter_value": escape(line.meter_value),
        }
    )


@lru_cache(maxsize=128)
def balance_shape(
    this_week, has_watched, has_coded, is_met, meter_id, label, language: str | None
) -> Slotted:
    """The line of a state with a slot for each figure (the caller passes the language's code)."""
    figures = {name: slot(name) for name in ("watched", "coded", "needed", "ratio", "meter_value")}
    line = BalanceLine(this_week, has_watched, has_coded, is_met, **figures)
    return Slotted.cut(jinja_macros("progress/_balance.jinja").balance_line(line, meter_id, label))


TENTH = Decimal("0.1")


def tenths(number: float) -> str:
    """A number of 0 or more as `floatformat(number, 1)` writes it (rounded half up from its
    shortest representation, the language's decimal separator), without its per-call cost: a
    third of a balance line's."""
    rounded = str(Decimal(repr(number)).quantize(TENTH, ROUND_HALF_UP))
    return rounded.replace(".", decimal_separator(translation.get_language()))


@cache
def decimal_separator(language: str | None) -> str:
    """The active language's (the caller passes its code)."""
    return str(get_format("DECIMAL_SEPARATOR"))


class ControlLinks(Protocol):
    """A resource's words and URLs for its controls, as a page built them once per curriculum
    revision (progress.dashboard.ResourceLabels)."""

    @property
    def title(self) -> str: ...
    @property
    def is_followed(self) -> bool: ...
    @property
    def finish_url(self) -> str: ...
    @property
    def undo_url(self) -> str: ...
    @property
    def sitting_url(self) -> str: ...


@dataclass(frozen=True, slots=True)
class WatchControls:
    """A resource's state for the learner and its one-click forms (templates/progress/_watch.jinja)."""

    place: str  # the prefix of the block's element ids: "watch-cuda-1", "step-12", "next-up"
    anchor: str  # where a plain POST comes back to on the page: "#step-12", or ""
    title: str
    status: str
    is_done: bool
    is_started: bool
    is_followed: bool
    planned_minutes: int
    watched_minutes: int
    planned: str
    watched: str
    percent: int
    credit: str
    toggle_url: str
    sitting_url: str
    takes_sittings: bool
    takes_sittings_on_the_map: bool


def watch_controls(
    state, place: str, links: ControlLinks | None = None, anchor: str = ""
) -> WatchControls:
    """The controls of a progress.path.ResourceState, their element ids prefixed with place; the
    resource's title and URLs from links when the page has them, else from the resource."""
    resource = state.resource
    started, done = state.is_started, state.is_done
    in_progress = started and not done
    if links is None:
        title, followed = resource.title, resource.is_followed
        toggle_url, sitting_url = state.toggle_url, state.sitting_url
    else:
        title, followed = links.title, links.is_followed
        toggle_url = links.undo_url if done else links.finish_url
        sitting_url = links.sitting_url
    return WatchControls(
        place=place,
        anchor=anchor,
        title=title,
        status=state.status,
        is_done=done,
        is_started=started,
        is_followed=followed,
        planned_minutes=state.planned_minutes,
        watched_minutes=state.watched_minutes,
        planned=duration(state.planned_minutes) if in_progress else "",
        watched=duration(state.watched_minutes) if in_progress else "",
        percent=state.percent,
        credit=duration(state.credit_on_finish),
        toggle_url=toggle_url,
        sitting_url=sitting_url,
        takes_sittings=state.takes_sittings,
        takes_sittings_on_the_map=state.takes_sittings_on_the_map,
    )


@dataclass(frozen=True, slots=True)
class ProjectLine:
    """A project from the editor and where its time counts."""

    pk: int
    name: str
    counted: bool
    counts_for: str  # the resource's or chapter's title, "" for the overall balance only
    url: str


@dataclass(frozen=True, slots=True)
class CodingLogPage:
    week: Markup  # the balance lines (balance_html)
    overall: Markup
    form: Markup  # the form's fields and errors, as templates/_fields.jinja prints them
    fields: tuple[FieldGroup, ...]  # those of a refused form; none for the blank one
    projects: tuple[ProjectLine, ...]
    rows: Markup  # the page of sessions' rows (templates/progress/_coding_log.jinja), "" for none
    number: int
    pages: int
    previous: int | None
    next: int | None


@dataclass(frozen=True, slots=True)
class Practised:
    """A resource's or chapter's title and link, as a coding session's row shows it."""

    title: str
    url: str


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


NOTHING = Practised("", "")


def jinja_macros(template: str) -> Any:
    return cast(Jinja2, engines["jinja2"]).env.get_template(template).module


class CodingLogCurriculum:
    """What the coding log prints the same for every learner, in one language: built once per
    curriculum revision (Curriculum.built). A row's HTML in its four shapes (with a link to the
    code or not, from the editor or typed) with a slot for each of a session's values; the
    practised cell of each resource and chapter, written as sessions ask for them; the blank
    form's fields with slots for the day and the key."""

    def __init__(self, curriculum):
        macros = jinja_macros("progress/_coding_log.jinja")
        self.labels = curriculum.built(practised_labels)
        self._practised_cell = macros.practised
        self._practised: dict[tuple[int | None, int | None], str] = {}
        slots = {name: slot(name) for name in ("pk", "day", "time", "built", "practised")}
        slots["edit_url"] = url_with("progress:coding_session_edit", slot("pk"))
        slots["delete_url"] = url_with("progress:coding_session_delete", slot("pk"))
        self.rows = {
            (has_code, from_editor): Slotted.cut(
                macros.session_row(
                    {**slots, "code_url": slot("code_url") if has_code else ""}, from_editor
                )
            )
            for has_code in (True, False)
            for from_editor in (True, False)
        }

    def practised(self, resource_id: int | None, chapter_id: int | None) -> str:
        """The cell of a session of this resource and chapter: their titles and links."""
        cell = self._practised.get((resource_id, chapter_id))
        if cell is None:
            resource = self.labels.get(("resource", resource_id), NOTHING)
            chapter = self.labels.get(("chapter", chapter_id), NOTHING)
            cell = self._practised[resource_id, chapter_id] = str(
                self._practised_cell(resource, chapter)
            )
        return cell


def session_rows(sessions, built: CodingLogCurriculum) -> Markup:
    """The rows of sessions (progress.coding_log.SessionValues): each one's shape filled with its
    values, escaped as the template escapes them."""
    editor = CodingSession.Source.EDITOR
    return Markup(
        "".join(
            [
                built.rows[bool(session.code_url), session.source == editor].filled(
                    {
                        "pk": str(session.pk),
                        "day": escape(day_label(session.day)),
                        "time": escape(duration(session.minutes)),
                        "built": escape(session.built),
                        "practised": built.practised(session.resource_id, session.chapter_id),
                        "code_url": escape(session.code_url),
                    }
                )
                for session in sessions
            ]
        )
    )


def project_lines(projects, labels: dict[tuple[str, int], Practised]) -> tuple[ProjectLine, ...]:
    """The editor's projects (progress.coding_log.ProjectValues), each with the title of the
    resource or chapter it counts for."""
    project_url = url_for_each("progress:editor_project")
    return tuple(
        ProjectLine(
            pk=project.pk,
            name=project.name,
            counted=project.counted,
            counts_for=(
                labels.get(("resource", project.resource_id))
                or labels.get(("chapter", project.chapter_id))
                or NOTHING
            ).title,
            url=project_url(project.pk),
        )
        for project in projects
    )


def coding_log_page(minutes, rows, curriculum, form=None) -> CodingLogPage:
    """The coding log: the balances, the form to log a session (blank, or as it was sent), the
    editor's projects and one page of sessions (progress.coding_log.CodingLogRows)."""
    built = curriculum.built(CodingLogCurriculum)
    return CodingLogPage(
        week=balance_html(minutes.week, "balance-week", gettext("This week")),
        overall=balance_html(minutes.overall, "balance-overall", gettext("Since you started")),
        form=blank_coding_form(curriculum) if form is None else refused_coding_form(form),
        fields=field_groups(form) if form is not None else (),
        projects=project_lines(rows.projects, built.labels),
        rows=session_rows(rows.sessions, built),
        number=rows.number,
        pages=rows.pages,
        previous=rows.number - 1 if rows.number > 1 else None,
        next=rows.number + 1 if rows.number < rows.pages else None,
    )


# The blank coding form is the same for every learner but for its day (today, in the learner's
# time zone) and its fresh key: its fields are written once per curriculum revision and language
# with slots in their place, and each request puts its own in.
DAY_SLOT = datetime.date(1901, 2, 3)
KEY_SLOT = uuid.UUID("00000000-0000-4000-8000-00000000c0de")


def slotted_fields(form) -> Slotted:
    """A blank coding form's fields as templates/_fields.jinja prints them, the day and the key
    in slots."""
    html = str(jinja_macros("_fields.jinja").fields(field_groups(form), ()))
    day, key = f'value="{DAY_SLOT.isoformat()}"', f'value="{KEY_SLOT}"'
    if html.count(day) != 1 or html.count(key) != 1:
        raise ValueError("The coding form must print its day and its key once each.")
    return Slotted.cut(
        html.replace(day, f'value="{slot("day")}"').replace(key, f'value="{slot("key")}"')
    )


def log_fields(curriculum) -> Slotted:
    """The coding log's form, with the resource and chapter selects: built once per curriculum
    revision and language (Curriculum.built)."""
    initial = {"day": DAY_SLOT, "idempotency_key": KEY_SLOT}
    return slotted_fields(CodingSessionForm(curriculum=curriculum, initial=initial))


# A resource page's blank form by language: its resource is the page's, so it has no selects and
# the same fields whatever the resource and the curriculum.
_RESOURCE_FIELDS: dict[str | None, Slotted] = {}


def resource_fields() -> Slotted:
    language = translation.get_language()
    fields = _RESOURCE_FIELDS.get(language)
    if fields is None:
        initial = {"day": DAY_SLOT, "idempotency_key": KEY_SLOT}
        form = CodingSessionForm(resource=Resource(), initial=initial)
        fields = _RESOURCE_FIELDS[language] = slotted_fields(form)
    return fields


def blank_coding_form(curriculum=None) -> Markup:
    """The fields of a blank coding form, with today's day and a fresh key: the coding log's
    (with the resource and chapter selects of the curriculum) or, without one, a resource page's."""
    fields = resource_fields() if curriculum is None else curriculum.built(log_fields)
    return fields.markup({"day": timezone.localdate().isoformat(), "key": str(uuid.uuid4())})


def refused_coding_form(form) -> Markup:
    """A coding form sent back with its errors, as templates/_fields.jinja prints it."""
    return Markup(jinja_macros("_fields.jinja").fields(field_groups(form), non_field_errors(form)))
