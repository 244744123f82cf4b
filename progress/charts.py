"""Geometry of the stats page's SVG charts, computed here so templates only place shapes."""

import math
from dataclasses import dataclass

from django.utils.dates import MONTHS, WEEKDAYS, WEEKDAYS_ABBR
from django.utils.translation import gettext

# Weekly bar chart
LEFT = 44  # room for the hour labels
TOP = 12
PLOT_HEIGHT = 180
GROUP_WIDTH = 40
BAR_WIDTH = 15
BOTTOM = 40  # room for the week labels

# Heatmap
CELL = 14
CELL_LEFT = 34  # room for the weekday labels
CELL_TOP = 18  # room for the month labels


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    height: float
    hours: float


@dataclass(frozen=True)
class WeekGroup:
    week: object
    label_x: float
    watched: Bar
    coded: Bar


def hour_scale(largest_hours: float) -> tuple[int, int]:
    """(top, step) of the hour axis: a round top at or above the largest value, at most 5 steps."""
    step = next(
        (step for step in (1, 2, 5, 10, 20, 50, 100) if largest_hours <= 5 * step),
        math.ceil(largest_hours / 5),
    )
    return step * max(math.ceil(largest_hours / step), 1), step


def weekly_chart(weeks) -> dict:
    """Bars, grid lines and size of the watched-and-coded chart, one group per week."""
    largest = max([week.watched_hours for week in weeks] + [week.coded_hours for week in weeks])
    top, step = hour_scale(largest)
    baseline = TOP + PLOT_HEIGHT

    def bar(x, hours):
        height = round(PLOT_HEIGHT * hours / top, 1)
        return Bar(x=x, y=round(baseline - height, 1), height=height, hours=round(hours, 1))

    groups = []
    for index, week in enumerate(weeks):
        left = LEFT + index * GROUP_WIDTH
        groups.append(
            WeekGroup(
                week=week,
                label_x=left + GROUP_WIDTH / 2,
                watched=bar(left + 4, week.watched_hours),
                coded=bar(left + 5 + BAR_WIDTH, week.coded_hours),
            )
        )
    grid = [
        {"hours": hours, "y": round(baseline - PLOT_HEIGHT * hours / top, 1)}
        for hours in range(0, top + 1, step)
    ]
    return {
        "groups": groups,
        "grid": grid,
        "width": LEFT + len(weeks) * GROUP_WIDTH + 8,
        "height": baseline + BOTTOM,
        "plot_left": LEFT,
        "plot_right": LEFT + len(weeks) * GROUP_WIDTH,
        "baseline": baseline,
        "label_y": baseline + 16,
        "bar_width": BAR_WIDTH,
    }


@dataclass(frozen=True)
class Cell:
    day: object
    x: float
    y: float
    size: float
    title: str


def cell(day, column, row, names) -> Cell:
    """A day's square: the more minutes, the larger, so levels read without colour."""
    size = CELL - 2 if day.level == 0 else 4 + 2 * day.level
    inset = (CELL - size) / 2
    title = names.title % {
        "day": f"{names.weekdays[day.day.weekday()]} {day.day.day} "
        f"{names.months[day.day.month]} {day.day.year}",
        "minutes": day.minutes,
    }
    return Cell(
        day=day,
        x=CELL_LEFT + column * CELL + inset,
        y=CELL_TOP + row * CELL + inset,
        size=size,
        title=title,
    )


@dataclass(frozen=True)
class DayNames:
    """The words of the squares' titles ("Tuesday 17 November 2026: 45 min coded"), translated
    once for the 182 squares: formatting each date on its own was most of the page's time."""

    title: str
    weekdays: dict
    months: dict

    @classmethod
    def in_current_language(cls):
        return cls(
            title=gettext("%(day)s: %(minutes)s min coded"),
            weekdays={number: str(name) for number, name in WEEKDAYS.items()},
            months={number: str(name) for number, name in MONTHS.items()},
        )


def heatmap_chart(columns) -> dict:
    """Cells, month labels and size of the coding calendar, one column per week."""
    names = DayNames.in_current_language()
    cells: list[Cell] = []
    months = []
    for index, days in enumerate(columns):
        cells.extend(cell(day, index, row, names) for row, day in enumerate(days))
        if days and (index == 0 or days[0].day.month != columns[index - 1][0].day.month):
            months.append({"x": CELL_LEFT + index * CELL, "month": days[0].day})
    return {
        "cells": cells,
        "months": months,
        "weekdays": [
            {"name": WEEKDAYS_ABBR[row], "y": CELL_TOP + row * CELL + 11} for row in (0, 2, 4)
        ],
        "width": CELL_LEFT + len(columns) * CELL + 2,
        "height": CELL_TOP + 7 * CELL + 2,
        "label_x": CELL_LEFT - 4,
    }


def legend_cells() -> list[dict]:
    """One sample square per heatmap level, for the legend."""
    samples = []
    for level in range(5):
        size = CELL - 2 if level == 0 else 4 + 2 * level
        samples.append({"level": level, "size": size, "inset": (CELL - size) / 2})
    return samples
