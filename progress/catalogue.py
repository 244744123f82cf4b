"""The catalogue's view model (templates/progress/catalogue.jinja): the filters as the request set
them, and the resources they keep, series by series, each with the signed-in learner's state.

What is the same for every learner (the cards' HTML, the series' headings, the filters' choices)
is built once per curriculum revision and language (`Curriculum.built`, dropped when a curator's
edit renews the token); the learner's part is one query of their watch rows.
"""

from dataclasses import dataclass
from typing import Any, cast

from django import forms
from django.template import engines
from django.template.backends.jinja2 import Jinja2
from markupsafe import Markup

from curriculum.forms import LearnerState, ResourceFilterForm
from curriculum.models import Resource
from lib.durations import duration
from progress.models import Watch
from progress.pages import WatchControls, watch_controls
from progress.path import ResourceState

# The filters in the order the form shows them; "q" stands apart, above the others.
FILTERS = ("kind", "series", "guide", "architecture", "state")


def resource_state(resource: Resource, watches: dict[int, Watch]) -> ResourceState:
    """The learner's state on resource, from their watch rows by resource id."""
    watch = watches.get(resource.pk)
    if watch is not None:
        watch.resource = resource  # Its minutes read the duration: no query for it.
    return ResourceState(resource=resource, watch=watch)


def learner_state(state: ResourceState) -> LearnerState:
    """Watched or followed once finished, in progress while sittings are logged, else not started."""
    if state.is_done:
        return LearnerState.FOLLOWED if state.resource.is_followed else LearnerState.WATCHED
    return LearnerState.IN_PROGRESS if state.is_started else LearnerState.NOT_STARTED


@dataclass(frozen=True, slots=True)
class SeriesHeading:
    anchor: str  # "series-gpu-mode", "series-none"
    title: str
    series_id: int | None


@dataclass(frozen=True, slots=True)
class CatalogueCurriculum:
    """The catalogue's curriculum-only parts in one language: built once per revision."""

    cards: dict[int, Markup]  # by resource id: the card's <li> up to the learner's controls
    headings: dict[int | None, SeriesHeading]  # by series id, None for resources of no series
    choices: dict[str, tuple[tuple[str, str], ...]]  # by filter name: (value, label)
    start_here_series: int | None


def catalogue_curriculum(curriculum) -> CatalogueCurriculum:
    """The cards, headings and choices of the catalogue for this curriculum, in the active language."""
    env = cast(Jinja2, engines["jinja2"]).env
    macros: Any = env.get_template("progress/_catalogue.jinja").module
    headings: dict[int | None, SeriesHeading] = {None: SeriesHeading("series-none", "", None)}
    for series in curriculum.series:
        headings[series.pk] = SeriesHeading(f"series-{series.slug}", series.name, series.pk)
    form = ResourceFilterForm(curriculum=curriculum, learner=True)
    start_here = curriculum.start_here
    return CatalogueCurriculum(
        cards={
            resource.pk: Markup(macros.card(resource, duration(resource.duration_minutes)))
            for resource in curriculum.resources
        },
        headings=headings,
        choices={name: select_choices(form.fields[name]) for name in FILTERS},
        start_here_series=start_here.series_id if start_here is not None else None,
    )


def select_choices(field: forms.Field) -> tuple[tuple[str, str], ...]:
    """A select's (value, label) pairs, the labels in the active language."""
    pairs: Any = getattr(field, "choices", ())
    return tuple((str(value), str(label)) for value, label in pairs)


@dataclass(frozen=True, slots=True)
class Filter:
    """One filter as the request set it: a select's choices, or the search box (no choices)."""

    name: str
    label: str  # with the form's suffix: "Kind:", "Type :"
    value: str
    invalid: bool
    choices: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Card:
    html: Markup
    controls: WatchControls | None  # None for a visitor
    back: str  # without JavaScript, its forms come back to its anchor, which opens its series


@dataclass(frozen=True, slots=True)
class Group:
    heading: SeriesHeading
    is_open: bool
    done: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CataloguePage:
    search: Filter
    filters: tuple[Filter, ...]
    more_filters_chosen: bool
    ignored: str  # the labels of the filters left out, joined
    ignored_count: int
    signed_in: bool
    swapping: bool  # an htmx answer: the status changes out of band
    count: int
    groups: tuple[Group, ...]


def catalogue_page(
    curriculum, query, *, watches: dict[int, Watch] | None, page_url: str, swapping: bool
) -> CataloguePage:
    """The catalogue for the filters of query (request.GET), with the learner's state on each
    card from their watch rows (None: a visitor, who has no state filter)."""
    signed_in = watches is not None
    form = ResourceFilterForm(query, curriculum=curriculum, learner=signed_in)
    criteria = form.criteria()
    wanted_state = form.learner_state()
    built = curriculum.built(catalogue_curriculum)
    is_filtered = any(criteria.values()) or bool(wanted_state)
    opened_series = None if is_filtered else built.start_here_series

    by_series: dict[int | None, list[Card]] = {}
    done: dict[int | None, int] = {}
    for resource in curriculum.catalogue(**criteria):
        controls = None
        if watches is not None:
            state = resource_state(resource, watches)
            if wanted_state and learner_state(state) != wanted_state:
                continue
            done[resource.series_id] = done.get(resource.series_id, 0) + state.is_done
            controls = watch_controls(state, f"watch-{resource.slug}")
        card = Card(built.cards[resource.pk], controls, f"{page_url}#resource-{resource.slug}")
        by_series.setdefault(resource.series_id, []).append(card)

    single = len(by_series) == 1
    groups = tuple(
        Group(
            heading=built.headings[series_id],
            is_open=is_filtered or single or (series_id is not None and series_id == opened_series),
            done=done.get(series_id, 0),
            cards=tuple(cards),
        )
        for series_id, cards in by_series.items()
    )
    errors = form.errors
    fields = form.fields
    suffix = form.label_suffix

    def field(name, choices=()):
        return Filter(
            name=name,
            label=f"{fields[name].label}{suffix}",
            value=query.get(name, ""),
            invalid=name in errors,
            choices=choices,
        )

    return CataloguePage(
        search=field("q"),
        filters=tuple(field(name, built.choices[name]) for name in FILTERS if name in fields),
        more_filters_chosen=bool(wanted_state)
        or any(value for name, value in criteria.items() if name != "text"),
        ignored=", ".join(str(fields[name].label) for name in errors),
        ignored_count=len(errors),
        signed_in=signed_in,
        swapping=swapping,
        count=sum(len(group.cards) for group in groups),
        groups=groups,
    )
