"""A count of requests per learner in fixed windows of the shared "throttle" cache.

accounts/throttling.py counts reset mails the same way; progress cannot import accounts (the app
ladder), so the few lines live here for the apps at and above progress.
"""

import time

from django.core.cache import caches


def within_rate(key: str, limit: int, period: int) -> bool:
    """Count one more request under key in the current window of period seconds; whether the
    window still holds no more than limit."""
    window = int(time.time() // period)
    cache = caches["throttle"]
    window_key = f"throttle:{key}:{window}"
    cache.add(window_key, 0, period + 1)
    try:
        count = cache.incr(window_key)
    except ValueError:  # the window's key expired between add() and incr()
        cache.set(window_key, 1, period + 1)
        count = 1
    return count <= limit
