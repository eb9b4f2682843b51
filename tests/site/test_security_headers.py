"""Content-Security-Policy and Permissions-Policy on every response (issue 20, item 7).

Production enforces a policy that allows only the site's own scripts, styles, images and
connections (Django's ``ContentSecurityPolicyMiddleware``); the embedded mode reports the
same policy without enforcing it, so Django's debug pages keep working while the browser
console still names every violation. The browser tests enforce it (tests/e2e).
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from tests.site.test_configuration import PRODUCTION, manage

pytestmark = pytest.mark.django_db

PROBE = (
    "from django.test import Client;"
    "r = Client().get('/healthz', HTTP_HOST='tigris.example', secure=True);"
    "print(r.headers.get('Content-Security-Policy'));"
    "print(r.headers.get('Content-Security-Policy-Report-Only'));"
    "print(r.headers.get('Permissions-Policy'))"
)


def _directives(header: str) -> dict[str, list[str]]:
    parts = (p.split() for p in header.split(";") if p.strip())
    return {p[0]: p[1:] for p in parts}


def test_production_enforces_a_policy_of_our_own_scripts_and_styles() -> None:
    result = manage("shell", "-c", PROBE, **PRODUCTION)
    assert result.returncode == 0, result.stderr
    enforced, report_only, permissions = result.stdout.strip().splitlines()[-3:]
    assert report_only == "None"
    policy = _directives(enforced)
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["form-action"] == ["'self'"]
    for directive in ("script-src", "style-src"):
        assert policy[directive][0] == "'self'"
        assert not any("unsafe" in v or v in ("*", "data:", "https:") for v in policy[directive])
    assert "camera=()" in permissions and "geolocation=()" in permissions


def test_every_page_carries_the_policy_and_a_fresh_nonce() -> None:
    client = Client()
    first, second = client.get("/"), client.get("/")
    # The embedded mode (these tests' settings) reports; production enforces (above).
    header = "Content-Security-Policy-Report-Only"
    assert settings.SECURE_CSP_REPORT_ONLY and "Content-Security-Policy" not in first.headers
    assert first.headers["Permissions-Policy"] == settings.PERMISSIONS_POLICY
    nonces = [re.search(r"'nonce-([^']+)'", r.headers.get(header, "")) for r in (first, second)]
    # Our pages use no nonce (no inline script or style): the policy then names none.
    assert nonces == [None, None], nonces
    assert "'self'" in first.headers[header]


def test_our_pages_have_no_inline_script_style_or_handler() -> None:
    """What the policy would refuse: inline <script>, <style>, style="" and on…="" handlers."""
    from tests.games.factories import client_for, started_game

    game, seats = started_game(2)
    client = client_for(seats[1])
    pages = [
        client.get(path).content.decode()
        for path in ("/", f"/games/{game.pk}/", "/settings", f"/players/{seats[1].pk}/", "/rules/")
    ]
    pages.append(Client().get("/accounts/login/").content.decode())
    for page in pages:
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), "an inline script"
        assert "<style" not in page and " style=" not in page
        assert not re.search(r"\son[a-z]+=", page), "an inline event handler"
    # htmx's own indicator <style> and eval are turned off in its configuration.
    assert '"includeIndicatorStyles":false' in pages[0] and '"allowEval":false' in pages[0]


def test_the_admin_inline_scripts_and_styles_carry_the_nonce(admin_client: Client) -> None:
    response = admin_client.get("/admin/games/game/")
    header = response.headers.get("Content-Security-Policy") or response.headers.get(
        "Content-Security-Policy-Report-Only", ""
    )
    nonce = re.search(r"'nonce-([^']+)'", header)
    assert nonce, header
    body = response.content.decode()
    for tag in re.findall(r"<(?:script|style)\b[^>]*>", body):
        assert f'nonce="{nonce.group(1)}"' in tag, tag
