"""Where the player at the top of a resource page starts when the address asks (?t=600);
progress/resource_page.py builds the player, progress/views/viewing.py receives its beats."""

MAX_START_SECONDS = 24 * 60 * 60


def requested_start(value: str) -> int | None:
    """A start asked for in the address (?t=600), in seconds, or None."""
    if not value.isdigit():
        return None
    return min(int(value), MAX_START_SECONDS)
