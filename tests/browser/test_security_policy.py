"""The built client under the server's Content-Security-Policy: it loads and plays, and
what the policy forbids (an inline script) is refused and noticed."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.test_sequence_cats_browser import create_table
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


def test_a_client_over_its_rate_is_told_in_its_language(browser: Browser,
                                                        tmp_path: Path) -> None:
    """One table per client every ten minutes: the second is refused (429) and the lobby
    says so, in English and, after the language switch, in Icelandic."""
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=0.15,
                        options=["--limit-tables", "1/600"])
    server.start()
    try:
        page = browser.new_page()
        create_table(page, server, "Anna", ["bot:random"])
        create_table(page, server, "Anna", ["bot:random"], wait=False)
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("Too many requests from you")
        expect(alert).to_contain_text("seconds")
        page.select_option(".language-switch select", "is")
        page.get_by_role("button", name="Búa til borð").click()
        expect(page.get_by_role("alert")).to_contain_text("Of margar beiðnir frá þér")
    finally:
        server.stop()
