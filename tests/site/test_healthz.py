"""The /healthz endpoint: 503 only for the database; a failing broker or cache is *degraded*."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from tests import services


@pytest.mark.django_db
def test_healthy_in_embedded_mode(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["broker"].startswith("not configured")
    assert body["cache"].startswith("not configured")


@pytest.mark.django_db
def test_broken_database_answers_503(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.db import OperationalError

    def broken_cursor(*args: object, **kwargs: object) -> object:
        raise OperationalError("server closed the connection")

    monkeypatch.setattr(connection, "cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unhealthy",
        "database": "error: OperationalError",
        "broker": "not configured (tasks run eagerly)",
        "cache": "not configured (each process's memory)",
    }


@pytest.mark.django_db
def test_real_broker_up_and_down(client: Client, settings, redis_url: str) -> None:
    from tigris_site.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    original = app.conf.broker_url
    try:
        app.conf.broker_url = redis_url
        assert client.get("/healthz").json()["broker"] == "ok"
        app.conf.broker_url = f"redis://127.0.0.1:{services.free_port()}/0"
        response = client.get("/healthz")
        assert response.status_code == 200  # the site still serves: moves apply, emails wait
        assert response.json()["status"] == "degraded"
        assert response.json()["broker"].startswith("error:")
    finally:
        app.conf.broker_url = original


@pytest.mark.django_db
def test_head_is_answered_and_post_is_refused(client: Client) -> None:
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405


@pytest.mark.django_db
def test_plain_http_is_answered_even_where_https_is_enforced(client: Client, settings) -> None:
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200  # a load balancer probing gunicorn
    assert client.get("/").status_code == 301  # everything else goes to HTTPS
