"""GET <api_url>/users/current/statusbar/today: the day's coded time and its 1:3 target.

The shape is WakaTime's (wakatime-cli's pkg/summary Summary, testdata
api_statusbar_today_response.json): the plugins print data.grand_total.text, or the categories'
texts when there are two or more, so there is one category and the target is in the text.
"""

from django.utils import timezone
from django.utils.translation import gettext as _

from lib.durations import duration
from progress.editor_time import day_bounds
from progress.today import Today


def plain_duration(minutes: int) -> str:
    """Minutes as pages write them, with plain spaces: a status bar is not HTML."""
    return duration(minutes).replace("\N{NO-BREAK SPACE}", " ")


def day_text(today: Today) -> str:
    """What the status bar shows, e.g. "1 h 20 of 3 h"."""
    coded = plain_duration(today.coded)
    if today.target:
        return _("%(coded)s of %(target)s") % {
            "coded": coded,
            "target": plain_duration(today.target),
        }
    return _("%(coded)s, nothing owed today") % {"coded": coded}


def counter(minutes: int, text: str) -> dict:
    """A WakaTime time counter; its types are those the Go client unmarshals."""
    hours, rest = divmod(minutes, 60)
    return {
        "decimal": f"{minutes / 60:.2f}",
        "digital": f"{hours}:{rest:02d}",
        "hours": hours,
        "minutes": rest,
        "text": text,
        "total_seconds": float(minutes * 60),
    }


def summary(today: Today) -> dict:
    text = day_text(today)
    coding = {**counter(today.coded, text), "name": "Coding", "percent": 100.0, "seconds": 0}
    start, end = (instant.isoformat() for instant in day_limits(today))
    return {
        "cached_at": timezone.now().isoformat(),
        "data": {
            "categories": [coding],
            "dependencies": [],
            "editors": [],
            "grand_total": counter(today.coded, text),
            "languages": [],
            "machines": [],
            "operating_systems": [],
            "projects": [],
            "range": {
                "date": today.day.isoformat(),
                "start": start,
                "end": end,
                "text": today.day.isoformat(),
                "timezone": timezone.get_current_timezone_name(),
            },
            # Parcours' own figures, for a plugin or script that wants them as numbers.
            "target": counter(today.target, plain_duration(today.target)),
        },
        "has_team_features": False,
    }


def day_limits(today: Today):
    return day_bounds(today.day, timezone.get_current_timezone())
