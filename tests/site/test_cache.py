"""The shared Redis cache: Redis when it answers, each process's memory while it does not."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache, caches
from django.test import Client

from tests import services


def _redis_cache(settings: Any, url: str) -> Any:
    settings.CACHES = {
        "default": {
            "BACKEND": "tigris_site.cache.FallbackRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    return caches["default"]


@pytest.fixture
def dead_redis(settings: Any) -> Iterator[Any]:
    """The default cache pointed at a port where no Redis listens."""
    yield _redis_cache(settings, f"redis://127.0.0.1:{services.free_port()}/0")


def _exercise(backend: Any) -> None:
    backend.set("k", {"v": 1}, 60)
    assert backend.get("k") == {"v": 1}
    assert backend.add("k", "other") is False and backend.add("n", 1) is True
    assert backend.incr("n", 2) == 3
    backend.set_many({"a": 1, "b": 2})
    assert backend.get_many(["a", "b", "zz"]) == {"a": 1, "b": 2}
    assert backend.has_key("a") and backend.touch("a", 30)
    backend.delete_many(["a", "b"])
    assert backend.get("a") is None and backend.delete("k") is True


def test_with_redis_up_values_live_in_redis(settings: Any, redis_url: str) -> None:
    backend = _redis_cache(settings, redis_url)
    _exercise(backend)
    backend.set("shared", "yes")
    assert backend._cache.client.get_client().exists(backend.make_key("shared")) == 1
    assert backend._cache.local.get(backend.make_key("shared")) is None  # not in memory
    assert backend.redis_status() == "ok"


def test_with_redis_down_this_process_memory_stands_in(dead_redis: Any, caplog: Any) -> None:
    _exercise(dead_redis)
    assert dead_redis.redis_status().startswith("error: ")
    warnings = [r for r in caplog.records if r.name == "tigris_site.cache"]
    assert len(warnings) == 1 and "does not answer" in warnings[0].getMessage()


def test_redis_is_tried_again_after_the_pause(
    dead_redis: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = dead_redis._cache
    dead_redis.set("k", 1)
    assert client.down_until > 0
    tried = []
    real = client.client.get

    def counting(*args: Any) -> Any:
        tried.append(args)
        return real(*args)

    monkeypatch.setattr(client.client, "get", counting)
    assert dead_redis.get("k") == 1 and tried == []  # within the pause: memory only
    client.down_until = 0.0
    assert dead_redis.get("k") == 1 and len(tried) == 1  # after it: Redis first, then memory


@pytest.mark.django_db
def test_logging_in_and_healthz_work_while_redis_is_down(
    dead_redis: Any, client: Client, django_user_model: Any
) -> None:
    django_user_model.objects.create_user("ana", "ana@example.com", "a long pass phrase")
    assert cache.get("anything") is None  # the proxy allauth uses reaches the stand-in
    response = client.post(
        "/accounts/login/", {"login": "ana", "password": "wrong pass phrase"}, follow=False
    )
    assert response.status_code == 200  # the form again, with its error: not a 500
    assert b"you specified are not correct" in response.content
    health = client.get("/healthz")
    assert health.status_code == 200
    assert health.json()["status"] == "degraded"
    assert health.json()["cache"].startswith("error: ")
