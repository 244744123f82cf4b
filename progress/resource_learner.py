"""What the resource page shows of the signed-in learner: their watch row of the resource, whether
the player records, their sittings of it, the minutes that make the balances and its coded state,
their latest coding sessions on it and their note. One QuerySet each, read when a block first
asks for it: the page reads them all, an htmx answer only what its block prints."""

from dataclasses import dataclass
from datetime import date, datetime
from functools import cached_property

from progress.balance import LearnerMinutes, learner_minutes
from progress.models import CodingSession, Note, Profile, Watch, WatchEvent

RESOURCE_SESSIONS_SHOWN = 5


@dataclass(frozen=True, slots=True)
class Sitting:
    pk: int
    logged_minutes: int
    at: datetime


@dataclass(frozen=True, slots=True)
class RecentSession:
    day: date
    minutes: int
    built: str


class LearnerRows:
    """The learner's rows for the page of resource, weeks counted from today (their day)."""

    def __init__(self, user, resource, today: date):
        self.user, self.resource, self.today = user, resource, today

    @cached_property
    def watch(self) -> Watch | None:
        watch = Watch.objects.for_learner(self.user).filter(resource=self.resource).first()
        if watch is not None:
            watch.resource = self.resource  # Its minutes read the duration: no query for it.
        return watch

    @cached_property
    def records_viewing(self) -> bool:
        """Whether the player records what is played; a learner without a profile yet has the
        default, on."""
        off = Profile.objects.filter(user=self.user, records_viewing=False)
        return not off.exists()

    @cached_property
    def sittings(self) -> tuple[Sitting, ...]:
        """Newest first."""
        rows = (
            WatchEvent.objects.for_learner(self.user)
            .filter(resource=self.resource)
            .sittings()
            .order_by("-at", "-pk")
            .values_list("pk", "logged_minutes", "at")
        )
        return tuple(Sitting(*row) for row in rows)

    @cached_property
    def minutes(self) -> LearnerMinutes:
        """The balances, with the coding of this resource alone."""
        return learner_minutes(self.user, [self.resource], self.today)

    @cached_property
    def sessions(self) -> tuple[RecentSession, ...]:
        """Newest first, at most RESOURCE_SESSIONS_SHOWN."""
        rows = (
            CodingSession.objects.for_learner(self.user)
            .filter(resource=self.resource)
            .order_by("-day", "-created_at", "-pk")
            .values_list("day", "minutes", "built")[:RESOURCE_SESSIONS_SHOWN]
        )
        return tuple(RecentSession(*row) for row in rows)

    @cached_property
    def note(self) -> str | None:
        """None: no note; "" a note emptied."""
        notes = Note.objects.for_learner(self.user).filter(resource=self.resource)
        return notes.values_list("text", flat=True).first()


def learner_rows(user, resource, today: date) -> LearnerRows:
    """The learner's rows for the page of resource, weeks counted from today (their day)."""
    return LearnerRows(user, resource, today)
