"""The site installs in Chromium and shows its offline page without the network (issue 29)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_chromium_finds_the_site_installable_and_offline_it_shows_the_offline_page(
    browser: Any, live_server: Any
) -> None:
    context = browser.new_context()
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/")
        assert page.evaluate("navigator.serviceWorker.ready.then(r => r.active.scriptURL)") == (
            f"{live_server.url}/sw.js"
        )
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == f"{live_server.url}/manifest.webmanifest"
        assert not manifest["errors"], manifest["errors"]
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        # A Playwright context is incognito, where Chromium installs nothing: every other
        # criterion (manifest, icons, start URL, display, the worker) must hold.
        assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == [], errors
        page.reload()  # now controlled by the worker, which has kept the offline page
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        context.set_offline(True)
        page.goto(f"{live_server.url}/games/")
        assert page.locator("h1").text_content() == "You are offline"
        assert page.locator("section[lang='zh-Hans'] h2").text_content() == "您已离线"
    finally:
        context.close()
