"""Time-zone names: which a learner may choose, and the zone a name stands for."""

from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


@cache
def time_zone_names() -> tuple[str, ...]:
    """Every IANA zone name the system knows, sorted."""
    return tuple(sorted(available_timezones()))


@cache
def _known_names() -> frozenset[str]:
    return frozenset(time_zone_names())


def is_time_zone(name: str) -> bool:
    return name in _known_names()


def validate_time_zone(name):
    if name and not is_time_zone(name):
        raise ValidationError(_("“%(name)s” is not a time zone."), params={"name": name})


def zone_or_default(name: str) -> ZoneInfo:
    """The zone named, or the site's (TIME_ZONE) for an empty or unknown name."""
    return ZoneInfo(name) if name and is_time_zone(name) else ZoneInfo(settings.TIME_ZONE)
