"""The catalogue as one learner sees it: series by series, each resource with the learner's state.

The catalogue page belongs to curriculum, which never imports progress; its template reaches
this module through the watching tags.
"""

from dataclasses import dataclass, field
from typing import NamedTuple

from curriculum.forms import LearnerState
from curriculum.models import Resource, Series
from progress.models import Watch
from progress.path import ResourceState


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


class Card(NamedTuple):
    """A resource's card, with the ids and return address of its watch forms when signed in."""

    resource: Resource
    state: ResourceState | None  # None for a visitor
    place: str
    next_url: str  # Back to the card: without JavaScript, its anchor opens its series.


@dataclass
class SeriesGroup:
    """The resources of one series (None: those of no series) that the filters kept."""

    series: Series | None
    cards: list[Card] = field(default_factory=list)

    @property
    def done(self):
        """How many of them the learner watched or followed."""
        return sum(1 for card in self.cards if card.state is not None and card.state.is_done)


@dataclass
class Results:
    """The cards the filters kept, series by series."""

    groups: list[SeriesGroup]

    @property
    def count(self):
        return sum(len(group.cards) for group in self.groups)


def results(
    resources: list[Resource], watches: dict[int, Watch] | None, *, page_url: str, state=""
) -> Results:
    """resources by series, in catalogue order, with the learner's state on each (watches None:
    a visitor), keeping only those in state when one is given."""
    groups = {}
    for resource in resources:
        progress = None if watches is None else resource_state(resource, watches)
        if state and progress is not None and learner_state(progress) != state:
            continue
        slug = resource.slug
        card = Card(resource, progress, f"watch-{slug}", f"{page_url}#resource-{slug}")
        groups.setdefault(resource.series_id, SeriesGroup(resource.series)).cards.append(card)
    return Results(list(groups.values()))
