"""The catalogue's view model (templates/progress/catalogue.jinja): the filters as the request set
them, and the resources they keep, series by series, each with the signed-in learner's state.

What is the same for every learner is built once per curriculum revision and language
(`Curriculum.built`, dropped when a curator's edit renews the token): each card's HTML with its
controls in the two states that print nothing of the learner's but the state (not started,
done), the series' headings, the filters' fields, labels and options. The learner's part is one
statement (the revision token and their watch rows) and, per card, a state: its HTML picked, or
its controls printed for a resource in progress, with the request's address put in its slot
(the template puts the page's CSRF field in the other).
"""

from dataclasses import dataclass
from typing import Any, cast

from django import forms
from django.db import connection
from django.template import engines
from django.template.backends.jinja2 import Jinja2
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from markupsafe import Markup, escape

from curriculum.forms import LearnerState, ResourceFilterForm, catalogue_criteria, clean_filters
from curriculum.models import Resource, Revision
from lib.durations import duration
from lib.slots import Pieces, slot, split_at_slots
from progress.models import Watch
from progress.pages import watch_controls
from progress.path import ResourceState

# The filters in the order the form shows them; "q" stands apart, above the others.
FILTERS = ("kind", "series", "guide", "architecture", "state")

# Where each request's CSRF field and address go in the cards built once per process.
# PostgreSQL text cannot hold a NUL character: no title or slug of the curriculum has these.
CSRF_SLOT = slot("csrf")
PAGE_SLOT = slot("page")

# The revision token, then the learner's watch rows, in one statement; the token's row is the
# one without a resource. The first branch casts its NULLs (PostgreSQL types a UNION pairwise).
LEARNER_SQL = f"""
SELECT token, CAST(NULL AS integer), CAST(NULL AS integer), CAST(NULL AS boolean)
  FROM {Revision._meta.db_table}
 WHERE id = (SELECT MIN(id) FROM {Revision._meta.db_table})
UNION ALL
SELECT NULL, resource_id, logged_minutes, finished_at IS NOT NULL
  FROM {Watch._meta.db_table} WHERE user_id = %s
"""


@dataclass(frozen=True, slots=True)
class LearnerRows:
    token: str | None
    watches: dict[int, tuple[int, bool]]  # by resource id: (minutes logged, finished)


def learner_rows(user) -> LearnerRows:
    """The curriculum's revision token and the learner's watch rows, read in one statement."""
    with connection.cursor() as cursor:
        cursor.execute(LEARNER_SQL, [user.pk])
        rows = cursor.fetchall()
    token = None
    watches = {}
    for revision, resource_id, logged, finished in rows:
        if resource_id is None:
            token = revision
        else:
            watches[resource_id] = (logged, bool(finished))
    return LearnerRows(token, watches)


def status_of(logged: int, finished: bool) -> str:
    """ "done", "in_progress" or "not_started", as progress.path.ResourceState.status says it."""
    if finished:
        return "done"
    return "in_progress" if logged else "not_started"


def learner_state(resource: Resource, status: str) -> LearnerState:
    """Watched or followed once finished, in progress while sittings are logged, else not started."""
    if status == "done":
        return LearnerState.FOLLOWED if resource.is_followed else LearnerState.WATCHED
    return LearnerState.IN_PROGRESS if status == "in_progress" else LearnerState.NOT_STARTED


@dataclass(frozen=True, slots=True)
class SeriesHeading:
    anchor: str  # "series-gpu-mode", "series-none"
    title: str
    series_id: int | None


@dataclass(frozen=True, slots=True)
class Option:
    """A select's option, printed selected and not (templates/progress/_catalogue.jinja)."""

    value: str
    html: str
    selected_html: str


@dataclass(frozen=True, slots=True)
class FilterField:
    label: str  # with the form's suffix: "Kind:", "Type :"
    name_label: str  # without it, as the ignored filters are named
    options: tuple[Option, ...]  # none for the search box


# Before each card in its series' list, as the template's loop printed it.
CARD_START = "\n      "
CARD_END = "\n      </li>"


class WatchMacros:
    """_watch.jinja's controls, printed with the CSRF field and the address left in their slots."""

    def __init__(self) -> None:
        env = cast(Jinja2, engines["jinja2"]).env
        module: Any = env.get_template("progress/_watch.jinja").module
        self.macro = module.watch_controls

    def render(self, controls, back: str) -> Markup:
        return self.macro(controls, back, Markup(CSRF_SLOT))

    def controls(self, resource: Resource, watch: Watch | None) -> str:
        if watch is not None:
            watch.resource = resource  # Its minutes read the duration: no query for it.
        controls = watch_controls(ResourceState(resource, watch), f"watch-{resource.slug}")
        return str(self.render(controls, f"{PAGE_SLOT}#resource-{resource.slug}"))


@dataclass(frozen=True, slots=True)
class CatalogueCurriculum:
    """The catalogue's curriculum-only parts in one language: built once per revision."""

    cards: dict[int, str]  # by resource id: the card's <li>, as a visitor sees it
    heads: dict[int, str]  # by resource id: the card's <li> up to the learner's controls
    # By resource id, then "not_started" or "done": the card's <li> with the learner's controls.
    learner_cards: dict[int, dict[str, Pieces]]
    watch_macros: WatchMacros
    headings: dict[int | None, SeriesHeading]  # by series id, None for resources of no series
    fields: dict[str, forms.Field]  # the filters' fields, to clean the values of each request
    # A series' count of resources, and of those the learner finished, by number: "3 resources".
    counted: tuple[Markup, ...]
    counted_done: tuple[Markup, ...]
    filters: dict[str, FilterField]
    start_here_series: int | None


def catalogue_curriculum(curriculum) -> CatalogueCurriculum:
    """The cards, headings and filters of the catalogue for this curriculum, in the active
    language."""
    env = cast(Jinja2, engines["jinja2"]).env
    macros: Any = env.get_template("progress/_catalogue.jinja").module
    headings: dict[int | None, SeriesHeading] = {
        None: SeriesHeading("series-none", gettext("Other sources"), None)
    }
    for series in curriculum.series:
        headings[series.pk] = SeriesHeading(f"series-{series.slug}", series.name, series.pk)
    form = ResourceFilterForm(curriculum=curriculum, learner=True)
    start_here = curriculum.start_here
    watch_macros = WatchMacros()
    finished = Watch(finished_at=timezone.now())
    heads = {
        resource.pk: CARD_START + str(macros.card(resource, duration(resource.duration_minutes)))
        for resource in curriculum.resources
    }
    learner_cards = {}
    for resource in curriculum.resources:
        head = heads[resource.pk]
        learner_cards[resource.pk] = {
            "not_started": split_at_slots(head + watch_macros.controls(resource, None) + CARD_END),
            "done": split_at_slots(head + watch_macros.controls(resource, finished) + CARD_END),
        }
    return CatalogueCurriculum(
        cards={pk: head + CARD_END for pk, head in heads.items()},
        heads=heads,
        learner_cards=learner_cards,
        watch_macros=watch_macros,
        headings=headings,
        fields=dict(form.fields),
        counted=tuple(counted(n) for n in range(len(curriculum.resources) + 1)),
        counted_done=tuple(counted_done(n) for n in range(len(curriculum.resources) + 1)),
        filters={
            name: FilterField(
                label=f"{field.label}{form.label_suffix}",
                name_label=str(field.label),
                options=select_options(macros.option, field),
            )
            for name, field in form.fields.items()
        },
        start_here_series=start_here.series_id if start_here is not None else None,
    )


def select_options(option, field: forms.Field) -> tuple[Option, ...]:
    """A select's options, the labels in the active language (none for the search box)."""
    pairs: Any = getattr(field, "choices", ())
    return tuple(
        Option(str(value), str(option(value, label, False)), str(option(value, label, True)))
        for value, label in ((str(value), str(label)) for value, label in pairs)
    )


def fill_address(pieces: Pieces, page: str) -> list[str]:
    """A card's HTML with this request's (escaped) address in its slot; the CSRF slot is filled
    by the template (Group.cards_with), with the field config/jinja.py reads once per render."""
    return [page if piece == PAGE_SLOT else piece for piece in pieces]


def counted(count: int) -> Markup:
    """A series' count of resources, as {% trans %} prints it (CatalogueCurriculum.counted)."""
    return Markup(ngettext("%(counter)s resource", "%(counter)s resources", count)) % {
        "counter": count
    }


def counted_done(done: int) -> Markup:
    return Markup(ngettext("%(counter)s done", "%(counter)s done", done)) % {"counter": done}


@dataclass(frozen=True, slots=True)
class Filter:
    """One filter as the request set it: a select's options, or the search box (no options)."""

    name: str
    label: str
    value: str
    invalid: bool
    options: Markup  # empty for the search box


@dataclass(frozen=True, slots=True)
class Group:
    heading: SeriesHeading
    is_open: bool
    count: Markup  # "3 resources"
    done: Markup  # "1 done", printed for a learner
    # The cards' <li>; without JavaScript, a card's forms come back to its anchor, which opens its
    # series. Their forms' CSRF field is a slot: print them with cards_with(csrf_input).
    cards: Markup

    def cards_with(self, csrf_input: Markup) -> Markup:
        """The cards, their forms carrying the page's CSRF field."""
        return self.cards.replace(CSRF_SLOT, csrf_input)


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
    watches: dict[int, tuple[int, bool]] | None,
    page_url: str,
    swapping: bool,
    clicked: int | None = None,
) -> CataloguePage:
    """The catalogue for the filters of query (request.GET), with the learner's state on each
    card from their watch rows (LearnerRows.watches; None: a visitor, who has no state filter),
    its forms coming back to page_url. The clicked resource is kept whatever the state filter
    says: its card stays on the page the click came from."""
    signed_in = watches is not None
    built = curriculum.built(catalogue_curriculum)
    fields = built.fields if signed_in else {k: v for k, v in built.fields.items() if k != "state"}
    data, invalid = clean_filters(fields, query)
    criteria = catalogue_criteria(curriculum, data)
    wanted_state = data.get("state", "")
    is_filtered = any(criteria.values()) or bool(wanted_state)
    opened_series = None if is_filtered else built.start_here_series

    by_series: dict[int | None, list[str]] = {}  # the HTML of each series' cards, in pieces
    counts: dict[int | None, int] = {}
    done: dict[int | None, int] = {}
    resources = curriculum.catalogue(**criteria)
    if watches is None:
        for resource in resources:
            by_series.setdefault(resource.series_id, []).append(built.cards[resource.pk])
            counts[resource.series_id] = counts.get(resource.series_id, 0) + 1
    else:
        page = str(escape(page_url))
        for resource in resources:
            logged, finished = watches.get(resource.pk, (0, False))
            status = status_of(logged, finished)
            if (
                wanted_state
                and resource.pk != clicked
                and learner_state(resource, status) != wanted_state
            ):
                continue
            series_id = resource.series_id
            counts[series_id] = counts.get(series_id, 0) + 1
            done[series_id] = done.get(series_id, 0) + finished
            if status == "in_progress":
                controls = built.watch_macros.controls(resource, Watch(logged_minutes=logged))
                pieces = split_at_slots(built.heads[resource.pk] + controls + CARD_END)
            else:
                pieces = built.learner_cards[resource.pk][status]
            by_series.setdefault(series_id, []).extend(fill_address(pieces, page))

    single = len(by_series) == 1
    groups = tuple(
        Group(
            heading=built.headings[series_id],
            is_open=is_filtered or single or (series_id is not None and series_id == opened_series),
            count=built.counted[counts[series_id]],
            done=built.counted_done[done.get(series_id, 0)],
            cards=Markup("".join(html)),
        )
        for series_id, html in by_series.items()
    )

    def field(name):
        value = query.get(name, "")
        return Filter(
            name=name,
            label=built.filters[name].label,
            value=value,
            invalid=name in invalid,
            options=Markup(
                "".join(
                    [
                        option.selected_html if option.value == value else option.html
                        for option in built.filters[name].options
                    ]
                )
            ),
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
        count=sum(counts.values()),
        groups=groups,
    )
