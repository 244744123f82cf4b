"""A signed-in learner's pages, kept whole in the shared cache until something they show changes.

A page is cached per URL, language, day (weeks, streaks and "today" follow the calendar) and
CSRF secret (its forms carry tokens made from it), and is served only while the learner's own
rows and the curriculum are as they were when it was rendered (config.cache_versions). Requests
with messages to show, htmx requests and anything but a signed-in learner's GET are rendered as
usual. Without a shared cache (no REDIS_URL) nothing is kept.
"""

import hashlib
import re
import uuid
from functools import wraps

from django.contrib.messages import get_messages
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.translation import get_language

from config import cache_versions

TIMEOUT = 60 * 60


# The practice form's idempotency key tells a double submit from a second session: each rendering
# needs its own, or two tabs of one cached page would save only the first of two sessions.
IDEMPOTENCY_KEY_INPUT = re.compile(rb'(<input type="hidden" name="idempotency_key" value=")[^"]*"')


def cache_per_learner(view):
    """Serve the learner's last rendering of the page while nothing it shows has changed."""

    @wraps(view)
    def cached_view(request, *args, **kwargs):
        if not is_cacheable(request):
            return view(request, *args, **kwargs)
        response = cache_versions.cached(
            page_key(request),
            [cache_versions.learner(request.user.pk), cache_versions.CURRICULUM],
            lambda: view(request, *args, **kwargs),
            TIMEOUT,
            keep=lambda response: response.status_code == 200 and not response.streaming,
        )
        if not response.streaming:
            response.content = with_new_idempotency_keys(response.content)
        return response

    return cached_view


def with_new_idempotency_keys(content: bytes) -> bytes:
    return IDEMPOTENCY_KEY_INPUT.sub(
        lambda match: match.group(1) + str(uuid.uuid4()).encode() + b'"', content
    )


def is_cacheable(request):
    return (
        request.method == "GET"
        and request.user.is_authenticated
        and not request.htmx
        and not len(get_messages(request))
    )


def page_key(request):
    get_token(request)  # gives the request a CSRF secret if it has none, as rendering would
    parts = [
        request.get_full_path(),
        get_language(),
        timezone.localdate().isoformat(),
        request.META["CSRF_COOKIE"],
    ]
    digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()
    return f"page:{request.user.pk}:{digest}"
