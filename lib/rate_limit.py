"""Fixed-window request counts in the shared cache, so that every app server counts together."""

import time

from django.core.cache import cache


def seconds_to_wait(name: str, *, limit: int, period: int, cost: int = 1) -> int | None:
    """Count cost (one request, or what it carries) under name in the current window; past limit,
    the seconds until the next.

    add() then incr() are atomic in Redis, so two servers never lose a count (a read-modify-write
    of a history list would).
    """
    now = time.time()
    window = int(now // period)
    key = f"{name}:{window}"
    cache.add(key, 0, timeout=period + 1)
    try:
        count = cache.incr(key, cost)
    except ValueError:
        return None  # the window's key expired between add() and incr(): a new window begins
    if count <= limit:
        return None
    return max(1, int((window + 1) * period - now + 0.999))
