"""The site installs on a phone's home screen (issue 29): manifest, icons, service worker,
offline page. ``tests/e2e/test_install_browser.py`` asks Chromium itself."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db

STATIC = Path(settings.BASE_DIR) / "static"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize(
    ("language", "name"), [("en", "Tigris & Euphrates"), ("zh-hans", "《两河流域》")]
)
def test_the_manifest_names_the_game_in_the_pages_language(language: str, name: str) -> None:
    response = Client().get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == manifest["short_name"] == name
    assert manifest["lang"] == language and manifest["description"]
    assert manifest["display"] == "standalone" and manifest["scope"] == "/"
    assert manifest["start_url"] == "/#my-games"  # the player's games
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        path = STATIC / icon["src"].removeprefix(settings.STATIC_URL).removeprefix("/static/")
        assert path.exists(), icon
        if icon["type"] == "image/png":
            width, height = png_size(path)
            assert f"{width}x{height}" == icon["sizes"]


def test_every_page_links_the_manifest_and_registers_the_worker() -> None:
    for path in ("/", "/faq/", "/accounts/login/"):
        page = Client().get(path).content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page, path
        assert "pwa/register.js" in page and 'name="theme-color"' in page, path


def test_the_service_worker_covers_the_site_and_keeps_only_the_offline_page() -> None:
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    body = response.content.decode()
    assert 'OFFLINE = "/offline/"' in body and body.count("cache.add(") == 1
    assert "cache.put" not in body and "addAll" not in body  # no page of a game is kept


def test_the_offline_page_speaks_both_languages() -> None:
    response = Client().get("/offline/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "You are offline" in body and "您已离线" in body
    assert "csrfmiddlewaretoken" not in body  # kept on the device: nothing of a session
