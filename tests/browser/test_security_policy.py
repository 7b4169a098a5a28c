"""The built client under the server's Content-Security-Policy: it loads and plays, and
what the policy forbids (an inline script) is refused and noticed."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser


def test_the_client_runs_under_the_policy_and_inline_scripts_do_not(
        browser: Browser, web_server: LiveServer, no_policy_violations: list[str]) -> None:
    page = browser.new_page()
    response = page.goto(web_server.url)
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["referrer-policy"] == "no-referrer"
    expect(page.locator(".lobby")).to_be_visible()
    assert not no_policy_violations
    # An injected inline script is refused, and the listener hears of it.
    ran = page.evaluate("""() => {
        window.__ran = false;
        const script = document.createElement("script");
        script.textContent = "window.__ran = true";
        document.body.appendChild(script);
        return window.__ran;
    }""")
    assert ran is False
    page.close()
    assert any("inline script" in text for text in no_policy_violations)
    no_policy_violations.clear()
