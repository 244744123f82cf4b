"""Values of a raw SQL row as the ORM would give them: PostgreSQL's driver returns dates and
times, SQLite's returns them as ISO text."""

import datetime


def day_of(value):
    """A date column's value as a date (None stays None)."""
    return datetime.date.fromisoformat(value[:10]) if isinstance(value, str) else value


def time_of(value):
    """A time column's value as a time (None stays None)."""
    return datetime.time.fromisoformat(value) if isinstance(value, str) else value
