"""The catalogue's view model (templates/progress/catalogue.jinja): the filters as the request set
them, and the resources they keep, series by series, each with the signed-in learner's state.

What is the same for every learner (each card's words and links, the series' headings, the
filters' fields and options) is built once per curriculum revision and language
(`Curriculum.built`); the learner's part is their watch rows, one QuerySet, and each card's
controls (progress.pages.WatchControls) built from them on every request.
"""

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext

from curriculum.forms import LearnerState, ResourceFilterForm, catalogue_criteria, clean_filters
from curriculum.models import Resource
from lib.durations import duration
from progress.models import Watch
from progress.pages import WatchControls, watch_controls
from progress.path import ResourceState

# The filters in the order the form shows them; "q" stands apart, above the others.
FILTERS = ("kind", "series", "guide", "architecture", "state")


def learner_watches(user) -> dict[int, Watch]:
    """The learner's watch rows by resource id."""
    rows = Watch.objects.for_learner(user).only(
        "resource_id", "logged_minutes", "finished_at", "skipped_at"
    )
    return {watch.resource_id: watch for watch in rows}


def learner_state(resource: Resource, state: ResourceState) -> LearnerState:
    """Watched or followed once finished, in progress while sittings are logged, else not started."""
    if state.is_done:
        return LearnerState.FOLLOWED if resource.is_followed else LearnerState.WATCHED
    return LearnerState.IN_PROGRESS if state.is_started else LearnerState.NOT_STARTED


@dataclass(frozen=True, slots=True)
class SeriesHeading:
    anchor: str  # "series-gpu-mode", "series-none"
    title: str
    series_id: int | None


@dataclass(frozen=True, slots=True)
class Option:
    value: str
    label: str


@dataclass(frozen=True, slots=True)
class FilterField:
    label: str  # with the form's suffix: "Kind:", "Type :"
    name_label: str  # without it, as the ignored filters are named
    options: tuple[Option, ...]  # none for the search box


@dataclass(frozen=True, slots=True)
class CardText:
    """A resource's card as every visitor sees it (templates/progress/_catalogue.jinja's card)."""

    slug: str
    url: str
    number: int | None
    title: str
    kind: str
    is_start_here: bool
    is_advanced: bool
    topic: str
    speaker: str
    length: str  # "" without a known duration
    architectures: tuple[str, ...]
    summary: str  # its first words, "" without one
    watch_link: str
    plays_here: bool  # a video the resource page's player plays and records
    recorded_by_hand: bool  # a video on another site: only what the learner logs counts
    search_url: str  # a search of the series' site while no video address is known, or ""
    search_label: str


def card_text(resource: Resource) -> CardText:
    search = resource.search_link
    return CardText(
        slug=resource.slug,
        url=resource.get_absolute_url(),
        number=resource.number,
        title=resource.title,
        kind=str(resource.get_kind_display()),
        is_start_here=resource.is_start_here,
        is_advanced=resource.is_advanced,
        topic=resource.topic,
        speaker=resource.speaker,
        length=duration(resource.duration_minutes) if resource.duration_minutes else "",
        architectures=tuple(architecture.name for architecture in resource.architectures.all()),
        summary=resource.summary_excerpt if resource.summary else "",
        watch_link=resource.watch_link,
        plays_here=resource.has_video,
        recorded_by_hand=bool(resource.watch_link)
        and not resource.has_video
        and not resource.is_followed,
        search_url=search.url if search else "",
        search_label=str(search.label) if search else "",
    )


@dataclass(frozen=True, slots=True)
class CatalogueCurriculum:
    """The catalogue's curriculum-only parts in one language: built once per revision."""

    cards: dict[int, CardText]  # by resource id
    headings: dict[int | None, SeriesHeading]  # by series id, None for resources of no series
    fields: dict[str, forms.Field]  # the filters' fields, to clean the values of each request
    filters: dict[str, FilterField]
    start_here_series: int | None


def catalogue_curriculum(curriculum) -> CatalogueCurriculum:
    """The cards, headings and filters of the catalogue for this curriculum, in the active
    language."""
    headings: dict[int | None, SeriesHeading] = {
        None: SeriesHeading("series-none", gettext("Other sources"), None)
    }
    for series in curriculum.series:
        headings[series.pk] = SeriesHeading(f"series-{series.slug}", series.name, series.pk)
    form = ResourceFilterForm(curriculum=curriculum, learner=True)
    start_here = curriculum.start_here
    return CatalogueCurriculum(
        cards={resource.pk: card_text(resource) for resource in curriculum.resources},
        headings=headings,
        fields=dict(form.fields),
        filters={
            name: FilterField(
                label=f"{field.label}{form.label_suffix}",
                name_label=str(field.label),
                options=select_options(field),
            )
            for name, field in form.fields.items()
        },
        start_here_series=start_here.series_id if start_here is not None else None,
    )


def select_options(field: forms.Field) -> tuple[Option, ...]:
    """A select's options, the labels in the active language (none for the search box)."""
    pairs: Any = getattr(field, "choices", ())
    return tuple(Option(str(value), str(label)) for value, label in pairs)


@dataclass(frozen=True, slots=True)
class Filter:
    """One filter as the request set it: a select's options, or the search box (no options)."""

    name: str
    label: str
    value: str
    invalid: bool
    options: tuple[Option, ...]  # none for the search box


@dataclass(frozen=True, slots=True)
class Card:
    text: CardText
    controls: WatchControls | None  # None: a visitor
    back: str  # where its forms come back to without JavaScript: the page, at the card


@dataclass(frozen=True, slots=True)
class Group:
    heading: SeriesHeading
    is_open: bool
    count: int
    done: int  # printed for a learner
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
    curriculum,
    query,
    *,
    watches: dict[int, Watch] | None,
    page_url: str,
    swapping: bool,
    clicked: int | None = None,
) -> CataloguePage:
    """The catalogue for the filters of query (request.GET), with the learner's state on each
    card from their watch rows (learner_watches; None: a visitor, who has no state filter), its
    forms coming back to page_url. The clicked resource is kept whatever the state filter says:
    its card stays on the page the click came from."""
    signed_in = watches is not None
    built = curriculum.built(catalogue_curriculum)
    fields = built.fields if signed_in else {k: v for k, v in built.fields.items() if k != "state"}
    data, invalid = clean_filters(fields, query)
    criteria = catalogue_criteria(curriculum, data)
    wanted_state = data.get("state", "")
    is_filtered = any(criteria.values()) or bool(wanted_state)
    opened_series = None if is_filtered else built.start_here_series

    by_series: dict[int | None, list[Card]] = {}
    done: dict[int | None, int] = {}
    for resource in curriculum.catalogue(**criteria):
        controls = None
        if watches is not None:
            watch = watches.get(resource.pk)
            if watch is not None:
                watch.resource = resource  # Its minutes read the duration: no query for it.
            state = ResourceState(resource, watch)
            kept = resource.pk == clicked or learner_state(resource, state) == wanted_state
            if wanted_state and not kept:
                continue
            controls = watch_controls(state, f"watch-{resource.slug}")
            done[resource.series_id] = done.get(resource.series_id, 0) + state.is_done
        card = Card(built.cards[resource.pk], controls, f"{page_url}#resource-{resource.slug}")
        by_series.setdefault(resource.series_id, []).append(card)

    single = len(by_series) == 1
    groups = tuple(
        Group(
            heading=built.headings[series_id],
            is_open=is_filtered or single or (series_id is not None and series_id == opened_series),
            count=len(cards),
            done=done.get(series_id, 0),
            cards=tuple(cards),
        )
        for series_id, cards in by_series.items()
    )

    def field(name):
        return Filter(
            name=name,
            label=built.filters[name].label,
            value=query.get(name, ""),
            invalid=name in invalid,
            options=built.filters[name].options,
        )

    return CataloguePage(
        search=field("q"),
        filters=tuple(field(name) for name in FILTERS if name in fields),
        more_filters_chosen=bool(wanted_state)
        or any(value for name, value in criteria.items() if name != "text"),
        ignored=", ".join(built.filters[name].name_label for name in invalid),
        ignored_count=len(invalid),
        signed_in=signed_in,
        swapping=swapping,
        count=sum(group.count for group in groups),
        groups=groups,
    )
