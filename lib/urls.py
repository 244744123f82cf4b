"""URLs for the rows of a list or the steps of a path, reversed once rather than once per row."""

from functools import cache

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

# Digits match both the int and the slug converters, and appear nowhere else in our URLs.
SENTINEL = "2147483647"


@cache
def _around_sentinel(name: str, urlconf: str, script_prefix: str) -> tuple[str, str]:
    prefix, suffix = reverse(name, urlconf=urlconf, args=[SENTINEL]).split(SENTINEL)
    return prefix, suffix


def url_with(name: str, key: object) -> str:
    """reverse(name, args=[key]), from one reverse() per process, URLconf and script prefix."""
    urlconf = get_urlconf() or settings.ROOT_URLCONF
    prefix, suffix = _around_sentinel(name, urlconf, get_script_prefix())
    return f"{prefix}{key}{suffix}"


def url_for_each(name: str):
    """A function of a pk (or slug) that gives the URL named name: url_with() for each row."""
    return lambda key: url_with(name, key)
