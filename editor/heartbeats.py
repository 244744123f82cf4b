"""Heartbeats as WakaTime's clients send them, checked field by field before anything is kept.

The fields and their types are those of wakatime-cli's pkg/heartbeat/heartbeat.go and of the
legacy `wakatime` 13.x package's Heartbeat.dict(); a field Parcours does not know is ignored.
"""

import hashlib
import json
import math
from datetime import UTC, datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from progress.editor_time import ACCEPTED_AGE, HeartbeatIn

MOST_IN_A_BULK = 1000
ENTITY_MOST_BYTES = 2048
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST_AHEAD = timedelta(days=1)
TEXT_LIMITS = {"project": 200, "language": 100, "category": 32, "type": 32, "branch": 2048}
TEXT_FIELDS = [*TEXT_LIMITS, "user_agent"]
WHOLE_NUMBER_FIELDS = [
    "lines",
    "lineno",
    "cursorpos",
    "line_additions",
    "line_deletions",
    "project_root_count",
]
ECHOED = ["time", "entity", "type", "category", "is_write", *TEXT_LIMITS, *WHOLE_NUMBER_FIELDS]


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


def parse_json(body: bytes):
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise BadHeartbeat("body", _("The body is not valid JSON.")) from None


def parse_bulk(body: bytes, now=None) -> list[tuple[dict, HeartbeatIn | None]]:
    """Each heartbeat of a bulk with what is kept of it (None: too old, acknowledged and dropped)."""
    items = parse_json(body)
    if not isinstance(items, list):
        raise BadHeartbeat("heartbeats", _("Send a JSON array of heartbeats."))
    if len(items) > MOST_IN_A_BULK:
        raise BadHeartbeat(
            "heartbeats",
            _("Send at most %(most)s heartbeats at once.") % {"most": MOST_IN_A_BULK},
        )
    return [checked(item, now, index) for index, item in enumerate(items)]


def parse_one(body: bytes, now=None) -> tuple[dict, HeartbeatIn | None]:
    return checked(parse_json(body), now)


def checked(item, now=None, index=None) -> tuple[dict, HeartbeatIn | None]:
    """The heartbeat's known fields, and what is kept of it; BadHeartbeat names a wrong field."""
    try:
        if not isinstance(item, dict):
            raise BadHeartbeat("heartbeat", _("Send each heartbeat as a JSON object."))
        at = checked_time(item.get("time"), now or timezone.now())
        entity = checked_entity(item.get("entity"))
        texts = {name: checked_text(item, name) for name in TEXT_FIELDS}
        for name in WHOLE_NUMBER_FIELDS:
            checked_whole_number(item, name)
        checked_flag(item, "is_write")
        checked_dependencies(item.get("dependencies"))
    except BadHeartbeat as error:
        error.index = index
        raise
    echo = {name: item[name] for name in ECHOED if name in item}
    if at < (now or timezone.now()) - ACCEPTED_AGE:
        return echo, None
    kept = HeartbeatIn(
        time=at,
        entity_digest=hashlib.sha256(entity.encode()).hexdigest(),
        project=texts["project"],
        language=texts["language"],
        category=texts["category"],
    )
    return echo, kept


def checked_time(value, now) -> datetime:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise BadHeartbeat("time", _("Send the time as a number of seconds since 1970 (UTC)."))
    if not EARLIEST.timestamp() <= value <= (now + LATEST_AHEAD).timestamp():
        raise BadHeartbeat("time", _("The time must be after 2000 and at most a day ahead."))
    return datetime.fromtimestamp(value, UTC)


def checked_entity(value) -> str:
    if not isinstance(value, str) or not value:
        raise BadHeartbeat("entity", _("Send the entity (the file) as text."))
    if len(value.encode()) > ENTITY_MOST_BYTES:
        raise BadHeartbeat(
            "entity", _("The entity is longer than %(most)s bytes.") % {"most": ENTITY_MOST_BYTES}
        )
    return value


def checked_text(item, name) -> str:
    value = item.get(name)
    if value is None:
        return ""
    if not isinstance(value, str) or "\x00" in value:
        raise BadHeartbeat(name, _("Send text or null."))
    limit = TEXT_LIMITS.get(name)
    if limit and len(value) > limit:
        raise BadHeartbeat(name, _("At most %(most)s characters.") % {"most": limit})
    return value


def checked_whole_number(item, name) -> None:
    value = item.get(name)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise BadHeartbeat(name, _("Send a whole number or null."))


def checked_flag(item, name) -> None:
    value = item.get(name)
    if value is not None and not isinstance(value, bool):
        raise BadHeartbeat(name, _("Send true, false or null."))


def checked_dependencies(value) -> None:
    if value is None:
        return
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise BadHeartbeat("dependencies", _("Send a list of names or null."))
