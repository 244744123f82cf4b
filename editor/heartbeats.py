"""Heartbeats as WakaTime's clients send them, checked field by field before anything is kept.

The fields and their types are those of wakatime-cli's pkg/heartbeat/heartbeat.go and of the
legacy `wakatime` 13.x package's Heartbeat.dict(); a field Parcours does not know is ignored.
What the clients send is taken as they send it: a number may come as a numeric string (`wakatime`
13 sends `lineno` and `cursorpos` as "42"), and an optional field that cannot be read is dropped
(neither kept nor echoed) rather than refusing the heartbeat. Only `time` and `entity` are needed;
without them a heartbeat is refused, alone: in a bulk, each heartbeat is answered on its own.
"""

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from progress.editor_time import ACCEPTED_AGE, HeartbeatIn

# WakaTime's API and both clients: at most 25 heartbeats a request (wakatime 13's
# HEARTBEATS_PER_REQUEST, wakatime-cli's offline sync). Past that the rest are not answered, and
# the clients queue what was not answered and send it again (wakatime 13's
# _process_server_results: "Missing N results from api").
MOST_IN_A_BULK = 25
ENTITY_MOST_BYTES = 2048
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST_AHEAD = timedelta(days=1)
TEXT_LIMITS = {"project": 200, "language": 100, "category": 32, "type": 32, "branch": 2048}
WHOLE_NUMBER_FIELDS = [
    "lines",
    "lineno",
    "cursorpos",
    "line_additions",
    "line_deletions",
    "project_root_count",
]
# A number written as text, as `wakatime` 13 passes the plugins' --lineno and --cursorpos on.
NUMERIC_TEXT = re.compile(r"-?[0-9]{1,20}(\.[0-9]{1,20})?")
# A longer integer literal is read as a float (infinite past 308 digits), never as a Python int
# whose conversion costs time and whose float() overflows.
MOST_DIGITS = 20
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class BadHeartbeat(ValueError):
    """What is wrong with a request's heartbeats: the field named, and which heartbeat."""

    def __init__(self, field: str, message: str, index: int | None = None):
        super().__init__(message)
        self.field = field
        self.message = message
        self.index = index

    def as_json(self):
        where = "" if self.index is None else _("heartbeat %(number)s: ") % {"number": self.index}
        return {
            "error": f"{where}{self.field}: {self.message}",
            "errors": {self.field: [self.message]},
        }


@dataclass(frozen=True)
class Checked:
    """A heartbeat that was read: what is echoed to the client, and what is kept (None: too old,
    acknowledged and dropped)."""

    echo: dict
    kept: HeartbeatIn | None


def _integer(digits: str) -> int | float:
    return int(digits) if len(digits.lstrip("-")) <= MOST_DIGITS else float(digits)


def parse_json(body: bytes):
    try:
        return json.loads(body, parse_int=_integer)
    except (ValueError, UnicodeDecodeError):
        raise BadHeartbeat("body", _("The body is not valid JSON.")) from None
    except RecursionError:
        raise BadHeartbeat("body", _("The JSON is nested too deeply.")) from None


def parse_bulk(body: bytes, now=None) -> list[Checked | BadHeartbeat]:
    """Each of the first MOST_IN_A_BULK heartbeats, read or refused with the reason; BadHeartbeat
    is raised only when the body is not a JSON array."""
    items = parse_json(body)
    if not isinstance(items, list):
        raise BadHeartbeat("heartbeats", _("Send a JSON array of heartbeats."))
    results: list[Checked | BadHeartbeat] = []
    for index, item in enumerate(items[:MOST_IN_A_BULK]):
        try:
            results.append(checked(item, now, index))
        except BadHeartbeat as error:
            results.append(error)
    return results


def parse_one(body: bytes, now=None) -> Checked:
    return checked(parse_json(body), now)


def checked(item, now=None, index=None) -> Checked:
    """The heartbeat's readable fields, and what is kept of it; BadHeartbeat names a missing or
    unreadable time or entity."""
    now = now or timezone.now()
    try:
        if not isinstance(item, dict):
            raise BadHeartbeat("heartbeat", _("Send each heartbeat as a JSON object."))
        at, seconds = checked_time(item.get("time"), now)
        entity = checked_entity(item.get("entity"))
    except BadHeartbeat as error:
        error.index = index
        raise
    echo: dict = {"time": seconds, "entity": entity}
    for name in TEXT_LIMITS:
        echo[name] = text_in(item.get(name), TEXT_LIMITS[name])
    for name in WHOLE_NUMBER_FIELDS:
        echo[name] = whole_number_in(item.get(name))
    echo["is_write"] = item.get("is_write") if isinstance(item.get("is_write"), bool) else None
    echo = {name: value for name, value in echo.items() if value is not None}
    if at < now - ACCEPTED_AGE:
        return Checked(echo, None)
    kept = HeartbeatIn(
        time=at,
        entity_digest=hashlib.sha256(entity.encode("utf-8", "surrogatepass")).hexdigest(),
        project=echo.get("project", ""),
        language=echo.get("language", ""),
        category=echo.get("category", ""),
    )
    return Checked(echo, kept)


def number_in(value) -> int | float | None:
    """A JSON number, or a number written as text ("42", "1733250000.5"); None otherwise."""
    if isinstance(value, str) and NUMERIC_TEXT.fullmatch(value):
        return float(value) if "." in value else int(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def checked_time(value, now) -> tuple[datetime, int | float]:
    seconds = number_in(value)
    if seconds is None or seconds != seconds:  # not a number, or NaN
        raise BadHeartbeat("time", _("Send the time as a number of seconds since 1970 (UTC)."))
    # Compared before any conversion: Python compares an int of any size with a float exactly.
    if not EARLIEST.timestamp() <= seconds <= (now + LATEST_AHEAD).timestamp():
        raise BadHeartbeat("time", _("The time must be after 2000 and at most a day ahead."))
    return datetime.fromtimestamp(seconds, UTC), seconds


def checked_entity(value) -> str:
    if not isinstance(value, str) or not value:
        raise BadHeartbeat("entity", _("Send the entity (the file) as text."))
    # A file name that is not UTF-8 reaches here with lone surrogates (Python's surrogateescape
    # in the client): only its digest is kept, so its bytes are digested as they are.
    if len(value.encode("utf-8", "surrogatepass")) > ENTITY_MOST_BYTES:
        raise BadHeartbeat(
            "entity", _("The entity is longer than %(most)s bytes.") % {"most": ENTITY_MOST_BYTES}
        )
    return value


def text_in(value, limit: int) -> str | None:
    """Text that can be kept: a lone surrogate (a name that is not UTF-8) becomes U+FFFD, as a
    file manager shows it; None for what is not text, holds a NUL or runs past the limit."""
    if not isinstance(value, str) or "\x00" in value or len(value) > limit:
        return None
    return LONE_SURROGATE.sub("\ufffd", value)


def whole_number_in(value) -> int | None:
    number = number_in(value)
    return number if isinstance(number, int) else None
