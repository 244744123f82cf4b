"""The stats page's view model (templates/progress/stats.jinja prints it): every label, number
and SVG coordinate the page prints, from the learner's record (progress/stats.py).

The words of a language (month and weekday names, the titles' formats) are read once per process
and language (`words_of`); nothing of a learner is kept between requests. Numbers and dates are
written as the Django filters wrote them (`floatformat`, `date`: tests/progress/test_stats_page.py
compares them), without their per-call cost.
"""

from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import Any, cast

from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.template.defaultfilters import capfirst
from django.utils import timezone
from django.utils.dates import MONTHS, MONTHS_AP, WEEKDAYS, WEEKDAYS_ABBR
from django.utils.translation import get_language

from curriculum.models import Resource
from lib.durations import duration_in
from practice.models import Exercise
from progress import stats
from progress.balance import week_start
from progress.charts import (
    BAR_WIDTH,
    BOTTOM,
    CELL,
    CELL_LEFT,
    CELL_TOP,
    GROUP_WIDTH,
    LEFT,
    PLOT_HEIGHT,
    TOP,
    hour_scale,
)
from progress.pages import BalanceLine, balance_line

# The squares of the calendar: the more minutes, the larger, so levels read without colour.
LEVELS = range(5)
SIZES = tuple(CELL - 2 if level == 0 else 4 + 2 * level for level in LEVELS)
INSETS = tuple((CELL - size) / 2 for size in SIZES)
BASELINE = TOP + PLOT_HEIGHT
LABEL_X = CELL_LEFT - 4  # the weekdays' labels end there


@dataclass(frozen=True, slots=True)
class Words:
    """What a language writes on the page besides its template's sentences."""

    language: str | None
    month_names: tuple[str, ...]  # by month number, 0 unused: "November"
    month_labels: tuple[str, ...]  # as "N" writes them, above the calendar: "Nov."
    weekday_names: tuple[str, ...]  # Monday first
    weekday_labels: tuple[str, ...]  # the calendar's rows 0, 2 and 4: "Mon", "Wed", "Fri"
    kinds: tuple[tuple[str, str], ...]  # (kind, label) in the kinds' order


@cache
def words_of(language: str | None) -> Words:
    """The active language's words (the caller passes its code): built once per process."""
    return Words(
        language=language,
        month_names=("", *(str(MONTHS[month]) for month in range(1, 13))),
        month_labels=("", *(str(MONTHS_AP[month]) for month in range(1, 13))),
        weekday_names=tuple(str(WEEKDAYS[day]) for day in range(7)),
        weekday_labels=tuple(str(WEEKDAYS_ABBR[day]) for day in (0, 2, 4)),
        kinds=tuple((kind, capfirst(str(label))) for kind, label in Resource.Kind.choices),
    )


def day_month_year(day: date, words: Words) -> str:
    """The date as the format "j F Y" writes it, the one way dates read on the page: "16 November
    2026", "16 novembre 2026"."""
    return f"{day.day} {words.month_names[day.month]} {day.year}"


# The weekly chart


@dataclass(frozen=True, slots=True)
class WeekRow:
    """A week's row in the table under the chart."""

    monday: str  # "16 November 2026"
    sunday: str
    watched: str  # "2 h 45", as lib/durations.py writes every length of time
    coded: str


@dataclass(frozen=True, slots=True)
class WeekBars:
    """A week's two bars and its label (templates/progress/_weekly_chart.jinja)."""

    label_x: float
    watched_x: int
    coded_x: int
    monday_axis: str  # "16/11", under the bars
    monday: str  # "16 November", in the bars' titles
    watched_y: float
    watched_height: float
    watched: str
    coded_y: float
    coded_height: float
    coded: str


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
    bars: tuple[WeekBars, ...]
    # The table's rows: from the first week with something in it, so that a new learner does
    # not read eleven weeks of zeros; empty when nothing was watched or coded in the 12 weeks.
    table_weeks: tuple[WeekRow, ...]


def weekly_chart(weeks: list[stats.Week], words: Words) -> WeeklyChart:
    """Bars, grid lines and size of the watched-and-coded chart, one group per week."""
    top, step = hour_scale(max(max(week.watched, week.coded) for week in weeks) / 60)
    bars: list[WeekBars] = []
    rows: list[WeekRow] = []
    for index, week in enumerate(weeks):
        left = LEFT + index * GROUP_WIDTH
        monday = week.monday
        watched_height = round(PLOT_HEIGHT * (week.watched / 60) / top, 1)
        coded_height = round(PLOT_HEIGHT * (week.coded / 60) / top, 1)
        watched = duration_in(week.watched, words.language)
        coded = duration_in(week.coded, words.language)
        bars.append(
            WeekBars(
                label_x=left + GROUP_WIDTH / 2,
                watched_x=left + 4,
                coded_x=left + 5 + BAR_WIDTH,
                monday_axis=f"{monday.day}/{monday.month:02d}",
                monday=f"{monday.day} {words.month_names[monday.month]}",
                watched_y=round(BASELINE - watched_height, 1),
                watched_height=watched_height,
                watched=watched,
                coded_y=round(BASELINE - coded_height, 1),
                coded_height=coded_height,
                coded=coded,
            )
        )
        # A week shows in the table from the first one with a minute watched or coded.
        if rows or week.watched > 0 or week.coded > 0:
            rows.append(
                WeekRow(
                    day_month_year(monday, words),
                    day_month_year(week.sunday, words),
                    watched,
                    coded,
                )
            )
    return WeeklyChart(
        width=LEFT + len(weeks) * GROUP_WIDTH + 8,
        height=BASELINE + BOTTOM,
        plot_left=LEFT,
        plot_right=LEFT + len(weeks) * GROUP_WIDTH,
        axis_label_x=LEFT - 6,
        baseline=BASELINE,
        label_y=BASELINE + 16,
        bar_width=BAR_WIDTH,
        grid=tuple(
            GridLine(y=round(BASELINE - PLOT_HEIGHT * hours / top, 1), hours=hours)
            for hours in range(0, top + 1, step)
        ),
        bars=tuple(bars),
        table_weeks=tuple(rows),
    )


# The coding calendar


@dataclass(frozen=True, slots=True)
class HeatmapLabel:
    x: float
    y: float
    text: str


@dataclass(frozen=True, slots=True)
class Square:
    """A day of the calendar: the larger, the more minutes coded."""

    x: float
    y: float
    size: int
    level: int
    day: str  # "Tuesday 17 November 2026"
    minutes: int


@dataclass(frozen=True, slots=True)
class LegendSample:
    level: int
    size: int
    inset: float


LEGEND = tuple(LegendSample(level, SIZES[level], INSETS[level]) for level in LEVELS)


@dataclass(frozen=True, slots=True)
class Heatmap:
    """The coding calendar and its legend (templates/progress/_heatmap.jinja)."""

    width: int
    height: int
    label_x: int
    months: tuple[HeatmapLabel, ...]
    weekdays: tuple[HeatmapLabel, ...]
    squares: tuple[Square, ...]  # one per day, Monday to Sunday, oldest week first
    legend: tuple[LegendSample, ...]


def heatmap(coded_by_day: dict[date, int], today: date, words: Words) -> Heatmap:
    """The last 26 weeks, a column each, Monday at the top; days after today are left out."""
    count = stats.WEEKS_IN_HEATMAP
    first = week_start(today) - timedelta(weeks=count - 1)
    squares: list[Square] = []
    months: list[HeatmapLabel] = []
    for column in range(count):
        monday = first + timedelta(weeks=column)
        if column == 0 or monday.day <= 7:  # the first week of a month
            months.append(
                HeatmapLabel(
                    x=CELL_LEFT + column * CELL, y=12, text=words.month_labels[monday.month]
                )
            )
        for row in range(7 if column < count - 1 else today.weekday() + 1):
            day = monday + timedelta(days=row)
            minutes = coded_by_day.get(day, 0)
            level = stats.level(minutes)
            inset = INSETS[level]
            squares.append(
                Square(
                    x=CELL_LEFT + column * CELL + inset,
                    y=CELL_TOP + row * CELL + inset,
                    size=SIZES[level],
                    level=level,
                    day=f"{words.weekday_names[row]} {day.day} "
                    f"{words.month_names[day.month]} {day.year}",
                    minutes=minutes,
                )
            )
    return Heatmap(
        width=CELL_LEFT + count * CELL + 2,
        height=CELL_TOP + 7 * CELL + 2,
        label_x=LABEL_X,
        months=tuple(months),
        weekdays=tuple(
            HeatmapLabel(x=LABEL_X, y=CELL_TOP + row * CELL + 11, text=text)
            for row, text in zip((0, 2, 4), words.weekday_labels, strict=True)
        ),
        squares=tuple(squares),
        legend=LEGEND,
    )


def learner_heatmap(coded_by_day: dict[date, int], today: date) -> Heatmap:
    return heatmap(coded_by_day, today, words_of(get_language()))


def heatmap_html(heatmap: Heatmap) -> str:
    """The calendar's HTML for the shared page, a Django template (groups/sharing.py), from the
    stats page's macro; it goes once that page is a Jinja2 one."""
    macros: Any = cast(Jinja2, engines["jinja2"]).env.get_template("progress/_heatmap.jinja").module
    return macros.heatmap_chart(heatmap)


# The page


@dataclass(frozen=True, slots=True)
class FinishedKind:
    label: str
    count: int


@dataclass(frozen=True, slots=True)
class StatsPage:
    watched: str  # "2 h 45"
    coded: str
    current_streak: int
    longest_streak: int
    balance: BalanceLine
    chart: WeeklyChart
    heatmap: Heatmap
    finished: tuple[FinishedKind, ...]
    exercises_passed: int


def stats_page(user) -> StatsPage:
    """The stats page of a learner, from four queries whatever their history."""
    today = timezone.localdate()
    words = words_of(get_language())
    record = stats.learner_record(user)
    coded_by_day = record.coded_by_day
    current, longest = stats.streaks(coded_by_day, today)
    balance = stats.overall_balance(record)
    return StatsPage(
        watched=duration_in(max(balance.watched, 0), words.language),
        coded=duration_in(max(balance.coded, 0), words.language),
        current_streak=current,
        longest_streak=longest,
        balance=balance_line(balance),
        chart=weekly_chart(stats.weeks(record.watched_by_day, coded_by_day, today), words),
        heatmap=heatmap(coded_by_day, today, words),
        finished=tuple(
            FinishedKind(label=label, count=record.finished[kind])
            for kind, label in words.kinds
            if kind in record.finished
        ),
        exercises_passed=Exercise.objects.passed_by(user).count(),
    )
