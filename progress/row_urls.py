"""URLs for the rows of a list, reversed once per list rather than once per row."""

from django.urls import reverse

# Digits match both the int and the slug converters, and appear nowhere else in our URLs.
SENTINEL = "2147483647"


def url_for_each(name):
    """A function of a pk (or slug) that gives the URL named name, from a single reverse()."""
    prefix, suffix = reverse(name, args=[SENTINEL]).split(SENTINEL)
    return lambda key: f"{prefix}{key}{suffix}"
