"""The stats page's view model (templates/progress/stats.jinja): every label, number and SVG
coordinate the page prints, from the learner's record (progress/stats.py, one statement).

The chart geometry is fixed, so the squares' and bars' coordinates per column, row and level are
computed once at import; the words of a language (month and weekday names, the titles' formats)
once per process and language; the coding calendar of a day, its squares rendered, once per
process, day and language. None holds anything of a learner. Per request are left the learner's
figures: 12 weeks, the squares of the days they coded, the totals and streaks. Numbers and dates
are written as the Django filters wrote them (`floatformat`, `date`:
tests/progress/test_stats_page.py compares them), without their per-call cost.
"""

from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache, lru_cache
from typing import Any, cast

from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.template.defaultfilters import capfirst
from django.utils import timezone
from django.utils.dates import MONTHS, MONTHS_3, MONTHS_AP, WEEKDAYS, WEEKDAYS_ABBR
from django.utils.formats import get_format
from django.utils.translation import get_language, gettext
from markupsafe import Markup, escape

from curriculum.models import Resource
from lib.slots import Slotted, slot
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
from progress.pages import balance_html

# The squares of the calendar: the more minutes, the larger, so levels read without colour.
LEVELS = range(5)
SIZES = tuple(CELL - 2 if level == 0 else 4 + 2 * level for level in LEVELS)
INSETS = tuple((CELL - size) / 2 for size in SIZES)
# x of a square by column and level, y by row (0 for Monday) and level.
SQUARE_X = tuple(
    tuple(CELL_LEFT + column * CELL + inset for inset in INSETS)
    for column in range(stats.WEEKS_IN_HEATMAP)
)
SQUARE_Y = tuple(tuple(CELL_TOP + row * CELL + inset for inset in INSETS) for row in range(7))
LEVEL_1, LEVEL_2, LEVEL_3 = stats.LEVEL_LIMITS
BASELINE = TOP + PLOT_HEIGHT
ONE_DAY = timedelta(days=1)
ONE_WEEK = timedelta(weeks=1)
SIX_DAYS = timedelta(days=6)
LABEL_X = CELL_LEFT - 4  # the weekdays' labels end there


@dataclass(frozen=True, slots=True)
class Words:
    """What a language writes on the page besides its template's sentences."""

    decimal: str
    month_names: tuple[str, ...]  # by month number, 0 unused: "November"
    month_abbreviations: tuple[str, ...]  # as the date format "M" writes them: "Nov"
    month_abbreviations_html: tuple[Markup, ...]  # the same, escaped
    month_labels: tuple[str, ...]  # as "N" writes them, above the calendar: "Nov."
    weekday_names: tuple[str, ...]  # Monday first
    weekday_labels: tuple[str, ...]  # the calendar's rows 0, 2 and 4: "Mon", "Wed", "Fri"
    day_title: str  # "%(day)s: %(minutes)s min coded"
    watched_title: str  # "Week of %(monday)s: %(hours)s h watched", unescaped as {% trans %}
    coded_title: str
    kinds: tuple[tuple[str, str], ...]  # (kind, label) in the kinds' order


@cache
def words_of(language: str | None) -> Words:
    """The active language's words (the caller passes its code): built once per process."""
    abbreviations = ("", *(str(MONTHS_3[month]).title() for month in range(1, 13)))
    return Words(
        decimal=str(get_format("DECIMAL_SEPARATOR")),
        month_names=("", *(str(MONTHS[month]) for month in range(1, 13))),
        month_abbreviations=abbreviations,
        month_abbreviations_html=tuple(escape(abbreviation) for abbreviation in abbreviations),
        month_labels=("", *(str(MONTHS_AP[month]) for month in range(1, 13))),
        weekday_names=tuple(str(WEEKDAYS[day]) for day in range(7)),
        weekday_labels=tuple(str(WEEKDAYS_ABBR[day]) for day in (0, 2, 4)),
        day_title=gettext("%(day)s: %(minutes)s min coded"),
        watched_title=gettext("Week of %(monday)s: %(hours)s h watched"),
        coded_title=gettext("Week of %(monday)s: %(hours)s h coded"),
        kinds=tuple((kind, capfirst(str(label))) for kind, label in Resource.Kind.choices),
    )


def hours(minutes: int, words: Words) -> str:
    """Minutes (0 or more) as hours to a tenth, as `floatformat(minutes / 60, 1)` writes them:
    rounded half up."""
    tenths = (minutes + 3) // 6
    return f"{tenths // 10}{words.decimal}{tenths % 10}"


def rounded_hours(minutes: int, words: Words) -> str:
    """Hours rounded by `round(hours, 1)` (half to even), as `floatformat(that, 1)` writes them."""
    return f"{round(minutes / 60, 1):.1f}".replace(".", words.decimal)


def day_month_year(day: date, words: Words) -> str:
    """The date as the format "j M Y" writes it: "16 Nov 2026"."""
    return f"{day.day} {words.month_abbreviations[day.month]} {day.year}"


# The weekly chart


@dataclass(slots=True)  # not frozen: a frozen dataclass is four times slower to make
class WeekRow:
    """A week's row in the table under the chart."""

    monday: str  # "16 Nov 2026"
    sunday: str
    watched_hours: str
    coded_hours: str


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
    grid: Markup  # the hour lines and their labels (_weekly_chart.jinja's grid_lines)
    bars: Markup  # each week's bars and label (templates/progress/_weekly_chart.jinja)
    # The table's rows: from the first week with something in it, so that a new learner does
    # not read eleven weeks of zeros; empty when nothing was watched or coded in the 12 weeks.
    table_weeks: tuple[WeekRow, ...]


# Where a learner's figure goes in HTML rendered once for every learner.
SLOT = "\x00"


@dataclass(frozen=True, slots=True)
class ChartWeeks:
    """The chart's 12 weeks up to a day, in a language: the same for every learner."""

    # Each week's bars and label, cut where its bars' y and height and its titles' hours go.
    bars: tuple[tuple[str, ...], ...]
    mondays: tuple[str, ...]  # "16 Nov 2026", in the table
    sundays: tuple[str, ...]


def jinja_macros(template: str) -> Any:
    return cast(Jinja2, engines["jinja2"]).env.get_template(template).module


def cut_at_slots(html: str, slots: int) -> tuple[str, ...]:
    pieces = tuple(html.split(SLOT))
    assert len(pieces) == slots + 1, html
    return pieces


@lru_cache(maxsize=8)
def chart_weeks(today: date, language: str | None) -> ChartWeeks:
    """The weeks of the chart up to today in the active language (the caller passes its code),
    their bars rendered by their macro once per process for the day, as the calendar's squares
    are. Dates and words only: each page puts its learner's figures in the slots (weekly_chart)."""
    words = words_of(language)
    week_bars = jinja_macros("progress/_weekly_chart.jinja").week_bars
    first = week_start(today) - timedelta(weeks=stats.WEEKS_CHARTED - 1)
    mondays = [first + timedelta(weeks=index) for index in range(stats.WEEKS_CHARTED)]
    bars = []
    for index, monday in enumerate(mondays):
        left = LEFT + index * GROUP_WIDTH
        # The bars' titles, as {% trans %} wrote them: the translation as it is, its values escaped.
        titles = {"monday": f"{monday.day} {words.month_abbreviations_html[monday.month]}"}
        html = week_bars(
            label_x=left + GROUP_WIDTH / 2,
            watched_x=left + 4,
            coded_x=left + 5 + BAR_WIDTH,
            bar_width=BAR_WIDTH,
            label_y=BASELINE + 16,
            monday_axis=f"{monday.day}/{monday.month:02d}",
            watched_y=SLOT,
            watched_height=SLOT,
            watched_title=Markup(words.watched_title % {**titles, "hours": SLOT}),
            coded_y=SLOT,
            coded_height=SLOT,
            coded_title=Markup(words.coded_title % {**titles, "hours": SLOT}),
        )
        bars.append(cut_at_slots(str(html), 6))
    return ChartWeeks(
        bars=tuple(bars),
        mondays=tuple(day_month_year(monday, words) for monday in mondays),
        sundays=tuple(day_month_year(monday + SIX_DAYS, words) for monday in mondays),
    )


@lru_cache(maxsize=64)
def grid_lines(top: int, step: int, weeks: int, language: str | None) -> Markup:
    """The hour lines of a scale in the active language (the caller passes its code), rendered
    by their macro once per process: a dozen scales serve every learner."""
    lines = tuple(
        GridLine(y=round(BASELINE - PLOT_HEIGHT * hours / top, 1), hours=hours)
        for hours in range(0, top + 1, step)
    )
    chart = {
        "grid": lines,
        "plot_left": LEFT,
        "plot_right": LEFT + weeks * GROUP_WIDTH,
        "axis_label_x": LEFT - 6,
    }
    return Markup(jinja_macros("progress/_weekly_chart.jinja").grid_lines(chart))


def weekly_chart(
    weeks: list[stats.Week], today: date, language: str | None, words: Words
) -> WeeklyChart:
    """Bars, grid lines and size of the watched-and-coded chart, one group per week."""
    top, step = hour_scale(max(max(week.watched, week.coded) for week in weeks) / 60)
    rendered = chart_weeks(today, language)
    zero = rounded_hours(0, words)
    bars: list[str] = []
    rows: list[WeekRow] = []
    for index, week in enumerate(weeks):
        watched_height = round(PLOT_HEIGHT * (week.watched / 60) / top, 1)
        coded_height = round(PLOT_HEIGHT * (week.coded / 60) / top, 1)
        watched_hours = rounded_hours(week.watched, words)
        coded_hours = rounded_hours(week.coded, words)
        p = rendered.bars[index]
        bars.append(
            f"{p[0]}{round(BASELINE - watched_height, 1)}{p[1]}{watched_height}{p[2]}"
            f"{escape(watched_hours)}{p[3]}{round(BASELINE - coded_height, 1)}{p[4]}"
            f"{coded_height}{p[5]}{escape(coded_hours)}{p[6]}"
        )
        # A week shows in the table from the first one whose hours, to a tenth, are not zero.
        if rows or watched_hours != zero or coded_hours != zero:
            rows.append(
                WeekRow(
                    rendered.mondays[index], rendered.sundays[index], watched_hours, coded_hours
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
        grid=grid_lines(top, step, len(weeks), language),
        bars=Markup("".join(bars)),
        table_weeks=tuple(rows),
    )


# The coding calendar


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


LEGEND = tuple(LegendSample(level, SIZES[level], INSETS[level]) for level in LEVELS)


@dataclass(frozen=True, slots=True)
class Heatmap:
    """The coding calendar and its legend (templates/progress/_heatmap.jinja)."""

    width: int
    height: int
    label_x: int
    months: tuple[HeatmapLabel, ...]
    weekdays: tuple[HeatmapLabel, ...]
    squares: Markup  # one per day, Monday to Sunday, oldest week first
    legend: tuple[LegendSample, ...]


def level(minutes: int) -> int:
    """stats.level, unrolled: it runs for every coded day of the calendar."""
    if minutes <= 0:
        return 0
    return 1 if minutes <= LEVEL_1 else 2 if minutes <= LEVEL_2 else 3 if minutes <= LEVEL_3 else 4


@dataclass(frozen=True, slots=True)
class Calendar:
    """The calendar's last 26 weeks up to a day, in a language: the same for every learner."""

    days: tuple[date, ...]
    blank: tuple[str, ...]  # each day's square with no minute coded
    # Each day's square at each level, cut where its minutes go.
    squares: tuple[tuple[tuple[str, ...], ...], ...]
    months: tuple[HeatmapLabel, ...]
    weekdays: tuple[HeatmapLabel, ...]
    chart: Slotted  # the calendar and its legend (heatmap_chart), the squares in a slot


@lru_cache(maxsize=8)
def calendar(today: date, language: str | None) -> Calendar:
    """The calendar up to today in the active language (the caller passes its code), its squares
    rendered by their macro once per process for the day: they were half the page's template
    time and their titles half its view model's. It holds dates and words only; each page puts
    its learner's minutes into a copy (heatmap)."""
    words = words_of(language)
    square = jinja_macros("progress/_heatmap.jinja").heatmap_square
    count = stats.WEEKS_IN_HEATMAP
    first = week_start(today) - timedelta(weeks=count - 1)
    days: list[date] = []
    squares = []
    months = []
    day = first
    for column in range(count):
        if column == 0 or day.month != (day - ONE_WEEK).month:
            months.append(
                HeatmapLabel(x=CELL_LEFT + column * CELL, y=12, text=words.month_labels[day.month])
            )
        for row in range(7 if column < count - 1 else today.weekday() + 1):
            xs, ys = SQUARE_X[column], SQUARE_Y[row]
            name, month = words.weekday_names[row], words.month_names[day.month]
            title = words.day_title % {
                "day": f"{name} {day.day} {month} {day.year}",
                "minutes": SLOT,
            }
            squares.append(
                tuple(
                    cut_at_slots(
                        str(square(xs[level_], ys[level_], SIZES[level_], level_, title)), 1
                    )
                    for level_ in LEVELS
                )
            )
            days.append(day)
            day += ONE_DAY
    weekdays = tuple(
        HeatmapLabel(x=LABEL_X, y=CELL_TOP + row * CELL + 11, text=text)
        for row, text in zip((0, 2, 4), words.weekday_labels, strict=True)
    )
    chart = jinja_macros("progress/_heatmap.jinja").heatmap_chart(
        drawn(tuple(months), weekdays, Markup(slot("squares")))
    )
    return Calendar(
        days=tuple(days),
        blank=tuple(f"{before}0{after}" for (before, after), *_ in squares),
        squares=tuple(squares),
        months=tuple(months),
        weekdays=weekdays,
        chart=Slotted.cut(chart),
    )


def drawn(
    months: tuple[HeatmapLabel, ...], weekdays: tuple[HeatmapLabel, ...], squares: Markup
) -> Heatmap:
    return Heatmap(
        width=CELL_LEFT + stats.WEEKS_IN_HEATMAP * CELL + 2,
        height=CELL_TOP + 7 * CELL + 2,
        label_x=LABEL_X,
        months=months,
        weekdays=weekdays,
        squares=squares,
        legend=LEGEND,
    )


def squares_of(coded_by_day: dict[date, int], days: Calendar) -> str:
    """Every day's square, with the minutes the learner coded that day."""
    squares = list(days.blank)
    for index, day in enumerate(days.days):
        minutes = coded_by_day.get(day)
        if minutes is not None:
            before, after = days.squares[index][level(minutes)]
            squares[index] = f"{before}{minutes}{after}"
    return "".join(squares)


def heatmap(coded_by_day: dict[date, int], today: date, language: str | None) -> Heatmap:
    """The last 26 weeks, a column each, Monday at the top; days after today are left out."""
    days = calendar(today, language)
    return drawn(days.months, days.weekdays, Markup(squares_of(coded_by_day, days)))


def heatmap_chart(coded_by_day: dict[date, int], today: date, language: str | None) -> Markup:
    """The calendar and its legend as the page prints them (heatmap_chart), from the day's
    calendar written once per process and language."""
    days = calendar(today, language)
    return days.chart.markup({"squares": squares_of(coded_by_day, days)})


def heatmap_html(heatmap: Heatmap) -> str:
    """The calendar's HTML for a Django-template page, from the stats page's own macro."""
    macros: Any = cast(Jinja2, engines["jinja2"]).env.get_template("progress/_heatmap.jinja").module
    return macros.heatmap_chart(heatmap)


def learner_heatmap(coded_by_day: dict[date, int], today: date) -> Heatmap:
    return heatmap(coded_by_day, today, get_language())


# The page


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
    balance: Markup  # its line (progress.pages.balance_html)
    chart: WeeklyChart
    heatmap: Markup  # the calendar and its legend (templates/progress/_heatmap.jinja)
    finished: tuple[FinishedKind, ...]


def stats_page(user) -> StatsPage:
    """The stats page of a learner, from one statement."""
    today = timezone.localdate()
    language = get_language()
    words = words_of(language)
    record = stats.learner_record(user)
    coded_by_day = record.coded_by_day
    current, longest = stats.streaks(coded_by_day, today)
    balance = stats.overall_balance(record)
    return StatsPage(
        watched_hours=hours(max(balance.watched, 0), words),
        coded_hours=hours(balance.coded, words),
        current_streak=current,
        longest_streak=longest,
        balance=balance_html(balance, "balance-overall", gettext("Video:code balance")),
        chart=weekly_chart(
            stats.weeks(record.watched_by_day, coded_by_day, today), today, language, words
        ),
        heatmap=heatmap_chart(coded_by_day, today, language),
        finished=tuple(
            FinishedKind(label=label, count=record.finished[kind])
            for kind, label in words.kinds
            if kind in record.finished
        ),
    )
