"""View models of the learner's pages: every label, URL and number their templates print.

A view model is built by its view in one pass from the learner's data, and printed by one flat
Jinja2 template that computes nothing. Numbers are formatted here as the Django templates did
(`floatformat`, `date`, `duration`), so the HTML is the same in either language.
"""

from dataclasses import dataclass
from typing import Any, Protocol, cast

from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.template.defaultfilters import capfirst, floatformat
from django.urls import reverse
from django.utils.dateformat import format as format_date
from django.utils.formats import date_format

from lib.durations import duration
from lib.form_fields import FieldGroup, field_groups, non_field_errors
from lib.urls import url_for_each
from progress import charts
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
        ratio=floatformat(balance.ratio, 1) if balance.has_watched else "",
        meter_value=balance.meter_value,
    )


@dataclass(frozen=True, slots=True)
class ChartWeek:
    """One week: its two bars in the chart and its row in the table under it."""

    label_x: float
    watched_x: float
    watched_y: float
    watched_height: float
    watched_hours: str
    coded_x: float
    coded_y: float
    coded_height: float
    coded_hours: str
    monday_short: str  # "16 Nov", in the bars' titles
    monday_axis: str  # "16/11", under the bars
    monday: str  # "16 Nov 2026", in the table
    sunday: str


@dataclass(frozen=True, slots=True)
class GridLine:
    y: float
    hours: int


@dataclass(frozen=True, slots=True)
class WeeklyChart:
    width: int
    height: int
    plot_left: int
    plot_right: int
    axis_label_x: int
    baseline: int
    label_y: int
    bar_width: int
    grid: tuple[GridLine, ...]
    weeks: tuple[ChartWeek, ...]
    # The table's rows: from the first week with something in it, so that a new learner does
    # not read eleven weeks of zeros; empty when nothing was watched or coded in the 12 weeks.
    table_weeks: tuple[ChartWeek, ...]


def first_active_week(groups) -> int:
    """The index of the first week with hours watched or coded, or len(groups) for none."""
    return next(
        (i for i, group in enumerate(groups) if group.watched.hours or group.coded.hours),
        len(groups),
    )


def weekly_chart(weeks) -> WeeklyChart:
    chart = charts.weekly_chart(weeks)
    chart_weeks = tuple(
        ChartWeek(
            label_x=group.label_x,
            watched_x=group.watched.x,
            watched_y=group.watched.y,
            watched_height=group.watched.height,
            watched_hours=floatformat(group.watched.hours, 1),
            coded_x=group.coded.x,
            coded_y=group.coded.y,
            coded_height=group.coded.height,
            coded_hours=floatformat(group.coded.hours, 1),
            monday_short=format_date(group.week.monday, "j M"),
            monday_axis=format_date(group.week.monday, "j/m"),
            monday=format_date(group.week.monday, "j M Y"),
            sunday=format_date(group.week.sunday, "j M Y"),
        )
        for group in chart["groups"]
    )
    return WeeklyChart(
        width=chart["width"],
        height=chart["height"],
        plot_left=chart["plot_left"],
        plot_right=chart["plot_right"],
        axis_label_x=chart["plot_left"] - 6,
        baseline=chart["baseline"],
        label_y=chart["label_y"],
        bar_width=chart["bar_width"],
        grid=tuple(GridLine(y=line["y"], hours=line["hours"]) for line in chart["grid"]),
        weeks=chart_weeks,
        table_weeks=chart_weeks[first_active_week(chart["groups"]) :],
    )


@dataclass(frozen=True, slots=True)
class HeatmapCell:
    x: float
    y: float
    size: float
    level: int
    title: str


@dataclass(frozen=True, slots=True)
class HeatmapLabel:
    x: float
    y: float
    text: str


@dataclass(frozen=True, slots=True)
class LegendSample:
    level: int
    size: int
    inset: float


@dataclass(frozen=True, slots=True)
class Heatmap:
    """The coding calendar and its legend (templates/progress/_heatmap.jinja)."""

    width: int
    height: int
    label_x: int
    months: tuple[HeatmapLabel, ...]
    weekdays: tuple[HeatmapLabel, ...]
    cells: tuple[HeatmapCell, ...]
    legend: tuple[LegendSample, ...]


def heatmap(columns) -> Heatmap:
    chart = charts.heatmap_chart(columns)
    return Heatmap(
        width=chart["width"],
        height=chart["height"],
        label_x=chart["label_x"],
        months=tuple(
            HeatmapLabel(x=month["x"], y=12, text=format_date(month["month"], "N"))
            for month in chart["months"]
        ),
        weekdays=tuple(
            HeatmapLabel(x=chart["label_x"], y=weekday["y"], text=str(weekday["name"]))
            for weekday in chart["weekdays"]
        ),
        cells=tuple(
            HeatmapCell(x=cell.x, y=cell.y, size=cell.size, level=cell.day.level, title=cell.title)
            for cell in chart["cells"]
        ),
        legend=tuple(
            LegendSample(level=sample["level"], size=sample["size"], inset=sample["inset"])
            for sample in charts.legend_cells()
        ),
    )


def heatmap_html(heatmap: Heatmap) -> str:
    """The calendar's HTML for a Django-template page, from the stats page's own macro."""
    macros: Any = cast(Jinja2, engines["jinja2"]).env.get_template("progress/_heatmap.jinja").module
    return macros.heatmap_chart(heatmap)


@dataclass(frozen=True, slots=True)
class FinishedKind:
    label: str
    count: int


@dataclass(frozen=True, slots=True)
class StatsPage:
    watched_hours: str
    coded_hours: str
    current_streak: int
    longest_streak: int
    balance: BalanceLine
    chart: WeeklyChart
    heatmap: Heatmap
    finished: tuple[FinishedKind, ...]


def stats_page(stats) -> StatsPage:
    """The stats page of a learner, from progress.stats.learner_stats."""
    return StatsPage(
        watched_hours=floatformat(stats.total_watched_hours, 1),
        coded_hours=floatformat(stats.total_coded_hours, 1),
        current_streak=stats.current_streak,
        longest_streak=stats.longest_streak,
        balance=balance_line(stats.balance),
        chart=weekly_chart(stats.weeks),
        heatmap=heatmap(stats.heatmap),
        finished=tuple(
            FinishedKind(label=capfirst(kind), count=count)
            for kind, count in stats.finished_by_kind
        ),
    )


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
class SessionRow:
    """A coding session as its row in the coding log shows it."""

    pk: int
    day: str
    time: str
    built: str
    resource: str
    resource_url: str
    chapter: str
    chapter_url: str
    code_url: str
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
class CodingLogPage:
    week: BalanceLine
    overall: BalanceLine
    fields: tuple[FieldGroup, ...]
    form_errors: tuple[str, ...]
    projects: tuple[ProjectLine, ...]
    rows: tuple[SessionRow, ...]
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


def session_rows(sessions, labels: dict[tuple[str, int], Practised]) -> tuple[SessionRow, ...]:
    """The rows of sessions (CodingSession.objects.row_values()), their URLs reversed once for
    the whole list and their titles from the curriculum's labels."""
    edit_url = url_for_each("progress:coding_session_edit")
    delete_url = url_for_each("progress:coding_session_delete")
    editor = CodingSession.Source.EDITOR
    rows = []
    for session in sessions:
        resource = labels.get(("resource", session["resource_id"]), NOTHING)
        chapter = labels.get(("chapter", session["chapter_id"]), NOTHING)
        rows.append(
            SessionRow(
                pk=session["pk"],
                day=date_format(session["day"], "DATE_FORMAT"),
                time=duration(session["minutes"]),
                built=session["built"],
                resource=resource.title,
                resource_url=resource.url,
                chapter=chapter.title,
                chapter_url=chapter.url,
                code_url=session["code_url"],
                from_editor=session["source"] == editor,
                edit_url=edit_url(session["pk"]),
                delete_url=delete_url(session["pk"]),
            )
        )
    return tuple(rows)


def coding_log_page(minutes, form, page, projects, curriculum) -> CodingLogPage:
    """The coding log: the balances, the form to log a session, the editor's projects and one
    page of sessions (a Paginator's page)."""
    project_url = url_for_each("progress:editor_project")
    return CodingLogPage(
        week=balance_line(minutes.week),
        overall=balance_line(minutes.overall),
        fields=field_groups(form),
        form_errors=non_field_errors(form),
        projects=tuple(
            ProjectLine(
                pk=project.pk,
                name=project.name,
                counted=project.counted,
                counts_for=str(project.resource or project.chapter or ""),
                url=project_url(project.pk),
            )
            for project in projects
        ),
        rows=session_rows(page.object_list, curriculum.built(practised_labels)),
        number=page.number,
        pages=page.paginator.num_pages,
        previous=page.previous_page_number() if page.has_previous() else None,
        next=page.next_page_number() if page.has_next() else None,
    )
