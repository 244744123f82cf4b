"""View models of the learner's pages: every label, URL and number their templates print.

A view model is built by its view in one pass from the learner's data, and printed by one flat
Jinja2 template that computes nothing. Numbers are formatted here as the Django templates did
(`floatformat`, `date`, `duration`), so the HTML is the same in either language.
"""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from typing import Protocol

from django.utils import translation
from django.utils.formats import get_format

from lib.durations import duration


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
    sentence: str


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
        sentence=balance.in_words(),
    )


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
    is_skipped: bool
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
    skip_url: str  # "I already know this", or its undo once skipped
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
        is_skipped=state.is_skipped,
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
        skip_url=state.skip_url,
        takes_sittings=state.takes_sittings,
        takes_sittings_on_the_map=state.takes_sittings_on_the_map,
    )
