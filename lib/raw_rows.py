"""Values of a raw SQL row as the ORM would give them: PostgreSQL's driver returns dates, times
and aware instants, SQLite's returns them as ISO text (instants in UTC); and the day arithmetic
raw SQL writes differently on each."""

import datetime

from django.utils import timezone
from django.utils.dateparse import parse_datetime


def day_of(value):
    """A date column's value as a date (None stays None)."""
    return datetime.date.fromisoformat(value[:10]) if isinstance(value, str) else value


def time_of(value):
    """A time column's value as a time (None stays None)."""
    return datetime.time.fromisoformat(value) if isinstance(value, str) else value


def instant_of(value):
    """A timestamp column's value as an aware datetime (None stays None)."""
    if isinstance(value, str):
        value = parse_datetime(value)
        if value is not None and timezone.is_naive(value):
            value = value.replace(tzinfo=datetime.UTC)
    return value


# The day before a date column's day: PostgreSQL subtracts days from a date, SQLite has date().
DAY_BEFORE = {"postgresql": "{} - 1", "sqlite": "date({}, '-1 day')"}


def day_before(column: str, vendor: str) -> str:
    """SQL for the day before the day in column, on the database vendor."""
    return DAY_BEFORE.get(vendor, DAY_BEFORE["postgresql"]).format(column)
