"""Geometry of the stats page's SVG charts (progress/stats_page.py places the shapes)."""

import math

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


def hour_scale(largest_hours: float) -> tuple[int, int]:
    """(top, step) of the hour axis: a round top at or above the largest value, at most 5 steps."""
    step = next(
        (step for step in (1, 2, 5, 10, 20, 50, 100) if largest_hours <= 5 * step),
        math.ceil(largest_hours / 5),
    )
    return step * max(math.ceil(largest_hours / step), 1), step
