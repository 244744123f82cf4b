"""Lengths of time and positions in a video as a learner reads them, on every page and in every
sentence (the templates' `duration` filter: config/jinja.py)."""

import datetime
from functools import lru_cache

from django.utils.formats import date_format
from django.utils.translation import get_language, gettext

# Between a number and its unit, so that "1 h 30" never breaks across two lines.
NBSP = "\N{NO-BREAK SPACE}"


def duration(minutes):
    """Minutes as a learner reads them: "45 min", "1 h", "1 h 30", "12 h"; empty when unknown.

    The one way Parcours writes a length of time, on every page and in every sentence; its
    spaces are non-breaking, whatever the translation says.
    """
    if minutes is None or minutes == "":
        return ""
    return _duration(max(int(minutes), 0), get_language())


def duration_in(minutes: int, language: str | None) -> str:
    """duration() of a known number of minutes for a caller that read the language once (a board
    writes a hundred lengths)."""
    return _duration(max(minutes, 0), language)


# A page prints dozens of lengths: each is worded once per process and language, the catalogues
# being fixed while it runs.
@lru_cache(maxsize=4096)
def _duration(minutes: int, language: str | None) -> str:
    hours, rest = divmod(minutes, 60)
    if not hours:
        text = gettext("%(minutes)s min") % {"minutes": rest}
    elif not rest:
        text = gettext("%(hours)s h") % {"hours": hours}
    else:
        text = gettext("%(hours)s h %(minutes)02d") % {"hours": hours, "minutes": rest}
    return text.replace(" ", NBSP)


def video_time(seconds):
    """A position in a video as a learner reads it: "2:14:00" or "10:05" in English, "2 h 14"
    or "10 min 05" in French."""
    hours, rest = divmod(max(int(seconds or 0), 0), 3600)
    minutes, seconds = divmod(rest, 60)
    values = {"hours": hours, "minutes": minutes, "seconds": seconds}
    # A translation may leave the seconds out ("2 h 14"): gettext must not check the placeholders.
    if hours:
        # xgettext:no-python-format
        text = gettext("%(hours)d:%(minutes)02d:%(seconds)02d") % values
    else:
        # xgettext:no-python-format
        text = gettext("%(minutes)d:%(seconds)02d") % values
    return text.replace(" ", NBSP)


def day_label(day: datetime.date) -> str:
    """A day as the templates' `date` filter writes it by default (DATE_FORMAT): "4 December
    2026", "4 décembre 2026"."""
    return _day_label(day, get_language())


# A coding log prints twenty days: each is worded once per process and language, as durations are.
@lru_cache(maxsize=4096)
def _day_label(day: datetime.date, language: str | None) -> str:
    return date_format(day, "DATE_FORMAT")
