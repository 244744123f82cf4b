"""Django's Redis cache, degraded rather than failing while Redis is unreachable, hangs or refuses.

Nothing the site needs to answer lives in the cache (sessions and lockouts are in the database):
a read then misses, a write is dropped, an increment counts as the first, with a warning logged.
After a failure Redis is left alone for a few seconds, so that a hanging server costs one
timeout per pause rather than one per cache call.

A Redis that answers with an error is as good as away: full under `noeviction` ("OOM command not
allowed"), a read-only replica after a failover ("READONLY"), a failed save with
`stop-writes-on-bgsave-error` ("MISCONF"). Each is a ResponseError, degraded the same way.
"""

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError, ResponseError, TimeoutError

logger = logging.getLogger(__name__)

UNREACHABLE = (ConnectionError, TimeoutError, OSError)
# What a server that refuses the command answers (ReadOnlyError, OutOfMemoryError and the rest).
UNAVAILABLE = (*UNREACHABLE, ResponseError)
PAUSE_SECONDS = 5.0


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._paused_until = 0.0
        self._lock = threading.Lock()

    def ping(self):
        """Ask Redis itself to write, without the fallback: /readyz wants the error.

        PING alone is answered by a full server and by a read-only replica, which refuse every
        count the site keeps; a short-lived SET is refused by both.
        """
        key = self.make_and_validate_key("readyz")
        client = self._cache.get_client(key, write=True)
        client.ping()
        return client.set(key, 1, px=10_000)

    def _degraded(self, operation, fallback, *args, **kwargs):
        if time.monotonic() < self._paused_until:
            return fallback
        try:
            return operation(*args, **kwargs)
        except UNAVAILABLE as error:
            with self._lock:
                self._paused_until = time.monotonic() + PAUSE_SECONDS
            logger.warning(
                "Redis unreachable or refusing (%s): cache %s degraded for %.0f s",
                error,
                operation.__name__,
                PAUSE_SECONDS,
            )
            return fallback

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._degraded(super().add, False, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._degraded(super().get, default, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._degraded(super().set, None, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._degraded(super().touch, False, key, timeout, version)

    def delete(self, key, version=None):
        return self._degraded(super().delete, False, key, version)

    def get_many(self, keys, version=None):
        return self._degraded(super().get_many, {}, keys, version)

    def has_key(self, key, version=None):
        return self._degraded(super().has_key, False, key, version)

    def incr(self, key, delta=1, version=None):
        """While Redis is away every count is the first: rate limits let requests through."""
        return self._degraded(super().incr, delta, key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._degraded(super().set_many, list(data), data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._degraded(super().delete_many, None, keys, version)

    def clear(self):
        return self._degraded(super().clear, False)
