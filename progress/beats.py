"""What the player on a resource page sends while a video plays (a beat), read and checked.

A beat is JSON: {"viewing": a UUID the player made up for this session, "duration": the video's
length in seconds as the player reports it, "ranges": [[start, end], ...] seconds of the video
played in this session so far}. Anything else is refused with the field it is about.
"""

import json
import uuid
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from progress.ranges import Ranges, merged

MAX_DURATION_SECONDS = 24 * 60 * 60
MAX_RANGES = 500
# A player may seek while sending: a range may end this far past the length it reported.
END_TOLERANCE_SECONDS = 1


class BadBeat(ValueError):
    """A beat that cannot be recorded; field names what is wrong, the message says how."""

    def __init__(self, field: str, message):
        super().__init__(str(message))
        self.field = field
        self.message = str(message)


@dataclass(frozen=True)
class Beat:
    viewing: uuid.UUID
    duration: int
    ranges: Ranges


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value


def read_beat(body: bytes) -> Beat:
    """The beat in a request body, or BadBeat naming the first field that is wrong."""
    try:
        data = json.loads(body or b"null")
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: JSON nested deeper than the parser goes, which no player sends.
        raise BadBeat("body", _("Send the beat as a JSON object.")) from None
    if not isinstance(data, dict):
        raise BadBeat("body", _("Send the beat as a JSON object."))
    viewing = _viewing_key(data.get("viewing"))
    duration = _duration(data.get("duration"))
    return Beat(viewing=viewing, duration=duration, ranges=_ranges(data.get("ranges"), duration))


def _viewing_key(value) -> uuid.UUID:
    if isinstance(value, str):
        try:
            return uuid.UUID(value)
        except ValueError:
            pass
    raise BadBeat("viewing", _("The viewing key must be a UUID made up by the player."))


def _duration(value) -> int:
    if not _number(value) or not 0 < value <= MAX_DURATION_SECONDS:
        raise BadBeat(
            "duration", _("The video's length must be a number of seconds, up to 24 hours.")
        )
    return max(1, round(value))


def _ranges(value, duration) -> Ranges:
    if not isinstance(value, list) or len(value) > MAX_RANGES:
        raise BadBeat(
            "ranges",
            _("Ranges must be a list of at most %(count)s [start, end] pairs.")
            % {"count": MAX_RANGES},
        )
    pairs = []
    for pair in value:
        if not (isinstance(pair, list) and len(pair) == 2 and all(map(_number, pair))):
            raise BadBeat("ranges", _("Each range must be a [start, end] pair of seconds."))
        start, end = pair
        if not 0 <= start <= end <= duration + END_TOLERANCE_SECONDS:
            raise BadBeat(
                "ranges",
                _("Each range must run forward, from 0 to the video's length (%(seconds)s s).")
                % {"seconds": duration},
            )
        pairs.append([int(start), min(int(end), duration)])
    return merged(pairs)
