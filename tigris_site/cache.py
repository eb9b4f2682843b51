"""The shared Redis cache, with this process's memory standing in while Redis does not answer.

Django's own ``RedisCache`` raises when Redis is down, and allauth keeps its login and
sign-up rate limits in the default cache, so a Redis outage turned every login into a 500.
Nothing the site keeps in the cache is of record (rate-limit counters, partials rendered
ahead, render stamps), so ``FallbackRedisCache`` serves each call from a per-process
``LocMemCache`` instead, and for ``RETRY_AFTER`` seconds after a failure does not try Redis
at all, so a Redis that hangs rather than refuses costs one socket timeout, not one per
request. During an outage rate limits count per process, as without ``CACHE_URL``.

``settings.CACHES`` uses it for ``CACHE_URL=redis://…``; ``/healthz`` reports its state.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import cached_property
from typing import Any

import redis
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)

RETRY_AFTER = 5.0  # seconds without trying Redis after it failed
_FAILURES = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


class _FallbackClient:
    """Calls ``RedisCacheClient`` methods, or the same ``LocMemCache`` methods when Redis fails.

    The two share the methods ``RedisCache`` calls (``get(key, default)``, ``set(key,
    value, timeout)``, ``add``, ``touch``, ``delete``, ``get_many``, ``has_key``, ``incr``,
    ``set_many``, ``delete_many``, ``clear``) with compatible positional arguments; keys
    arrive already made and validated by ``RedisCache``.
    """

    def __init__(self, client: Any, local: LocMemCache) -> None:
        self.client = client
        self.local = local
        self.down_until = 0.0

    def __getattr__(self, name: str) -> Callable[..., Any]:
        remote = getattr(self.client, name)
        local = getattr(self.local, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            if time.monotonic() >= self.down_until:
                try:
                    return remote(*args, **kwargs)
                except _FAILURES as exc:
                    self.down_until = time.monotonic() + RETRY_AFTER
                    log.warning(
                        "cache: Redis does not answer (%s); this process's memory stands in "
                        "for %.0f s",
                        type(exc).__name__,
                        RETRY_AFTER,
                    )
            return local(*args, **kwargs)

        return call


class FallbackRedisCache(RedisCache):
    """Django's ``RedisCache``; while Redis fails, a per-process memory cache answers instead.

    Configured like ``RedisCache`` (``LOCATION`` ``redis://host:6379/1``, ``OPTIONS`` passed
    to redis-py's connection pool, e.g. ``socket_timeout`` in seconds). Never raises for a
    Redis that refuses, drops or times out a connection.
    """

    @cached_property
    def _cache(self) -> Any:
        this: Any = self  # RedisCache's _class, _servers and _options: not in django-stubs
        local = LocMemCache("tigris-fallback", {"TIMEOUT": self.default_timeout})
        return _FallbackClient(this._class(this._servers, **this._options), local)

    def redis_status(self) -> str:
        """Return ``"ok"`` when Redis answers a PING now, else ``"error: <exception class>"``."""
        try:
            self._cache.client.get_client(write=True).ping()
        except _FAILURES as exc:
            return f"error: {type(exc).__name__}"
        return "ok"
