"""What the player at the top of a resource page needs: the video, where it starts, and whether
what the learner plays is recorded (progress/views/viewing.py receives the beats)."""

from dataclasses import dataclass

from curriculum.models import Resource
from lib.urls import url_with
from progress.models import Profile, Watch
from progress.path import RESUME_LEAD_SECONDS

MAX_START_SECONDS = 24 * 60 * 60


@dataclass(frozen=True)
class Player:
    resource: Resource
    resume_seconds: int  # where the last viewing stopped; 0 for none
    start_seconds: int  # where the embedded player starts
    record_url: str  # where beats are sent; "" when nothing is recorded

    @property
    def video_id(self):
        return self.resource.video_id


def requested_start(value: str) -> int | None:
    """A start asked for in the address (?t=600), in seconds, or None."""
    if not value.isdigit():
        return None
    return min(int(value), MAX_START_SECONDS)


def player_for(user, resource: Resource, watch: Watch | None, start: str = "") -> Player:
    """The player of a resource with a YouTube video, for a learner or a visitor (one query for
    a learner: the profile's recording setting)."""
    resume = watch.resume_seconds if watch is not None else 0
    asked = requested_start(start)
    records = user.is_authenticated and Profile.objects.for_learner(user).records_viewing
    return Player(
        resource=resource,
        resume_seconds=resume,
        start_seconds=asked if asked is not None else max(resume - RESUME_LEAD_SECONDS, 0),
        record_url=url_with("progress:record_viewing", resource.slug) if records else "",
    )
