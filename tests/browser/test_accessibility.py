"""Accessibility audits with axe-core (the npm package, injected into each page): the
lobby, the waiting room, each game's table, the big screen, the watch link and the replay
viewer — no serious or critical violations."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser import seats
from tests.browser.conftest import ARGS, CHROMIUM, ROOT
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

AXE = ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}


@cache
def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(f"axe-core is missing at {AXE}: run scripts/setup --dev (npm ci)")
    return AXE.read_text()


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on ``page`` as it is now (WCAG 2.x A and AA, best
    practices), each with its impact and up to three offending elements."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())
    found: list[dict[str, Any]] = page.evaluate(
        """() => axe.run(document, {resultTypes: ["violations"]}).then(r =>
             r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))})))""")
    return found


def assert_accessible(page: Page, what: str) -> None:
    blocking = [v for v in violations(page) if v["impact"] in BLOCKING]
    assert not blocking, f"{what}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in blocking)


TITLES = {"sequence-cats": "Sequence Cats", "triominos": "Triominos", "dixit": "Dixit"}


@pytest.fixture
def page(browser: Browser) -> Page:
    return browser.new_context(viewport={"width": 1280, "height": 900}).new_page()


def test_the_lobby_and_the_waiting_room(page: Page, web_server: LiveServer) -> None:
    page.goto(web_server.url)
    expect(page.get_by_role("button", name="Create table")).to_be_visible()
    assert_accessible(page, "lobby")
    page.get_by_label("Your name").first.fill("Anna")
    page.get_by_role("button", name="Create table").click()
    expect(page.locator("#invite-url")).to_be_visible()
    assert_accessible(page, "waiting room")


@pytest.mark.parametrize("game, config, expected", [
    ("sequence-cats", {}, ".sc-status"),
    ("triominos", {}, ".tr-table, .tr-status"),
    ("dixit", {}, ".dx-table, .dx-status"),
])
def test_each_game_table_and_its_big_screen(page: Page, web_server: LiveServer, game: str,
                                            config: dict[str, Any], expected: str) -> None:
    kinds = ["human", "easy"] + (["easy"] if game == "dixit" else [])
    table, tokens = seats.create_table(web_server, game, config, kinds, {0: "Anna"})
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(expected).first).to_be_visible()
    page.wait_for_timeout(500)  # let the first computer players' moves settle
    # One heading of the first level, the game's name, for those who move by headings
    # (axe's best practice "page-has-heading-one" flagged the table pages).
    expect(page.get_by_role("heading", level=1)).to_have_count(1)
    expect(page.get_by_role("heading", level=1)).to_have_text(TITLES[game])
    assert "page-has-heading-one" not in {v["id"] for v in violations(page)}
    assert_accessible(page, f"{game} table")
    page.goto(f"{web_server.url}/t/{table}/screen")
    expect(page.locator(".screen-page, .screen").first).to_be_visible()
    assert_accessible(page, f"{game} big screen")


@pytest.mark.parametrize("game", ["sequence-cats", "triominos", "dixit"])
def test_the_replay_viewer(page: Page, web_server: LiveServer, tmp_path: Path,
                           game: str) -> None:
    from tests.browser.test_replay import at_step, open_file, record_file  # noqa: PLC0415

    path, record = record_file(game, tmp_path)
    open_file(page, web_server.url, path)
    table = {"sequence-cats": ".sc-table", "triominos": ".tr-table", "dixit": ".dx-table"}[game]
    at_step(page, table, 0)
    assert_accessible(page, f"{game} replay, at the start")
    middle = len(record.actions) // 2
    page.get_by_label("Move number").fill(str(middle))
    page.get_by_label("Seen by").select_option("0")
    at_step(page, table, middle)
    assert_accessible(page, f"{game} replay, seat 1 in the middle")
    page.get_by_role("button", name="To the end").click()
    at_step(page, table, len(record.actions))
    assert_accessible(page, f"{game} replay, at the end")


def test_the_watch_link(page: Page, web_server: LiveServer) -> None:
    table, tokens = seats.create_table(web_server, "dixit", {}, ["human", "human", "easy"],
                                       {0: "Anna", 1: "Bruno"})
    page.goto(f"{web_server.url}/t/{table}/watch")
    expect(page.locator(".watch-bar")).to_contain_text("Bruno")
    expect(page.locator(".dx-table, .dx-status").first).to_be_visible()
    assert_accessible(page, "watch link")
    # The table chat, read along, with a line in it (its lines were <li> items of an
    # <ol> whose role was "log", so in no list).
    with seats.SeatSocket(web_server, table, tokens[0]) as anna:
        anna.chat("Welcome, watchers")
        expect(page.locator(".chat-message")).to_contain_text("Welcome, watchers")
        page.locator("details.table-chat").evaluate("d => { d.open = true; }")
        expect(page.locator(".chat-message")).to_be_visible()
        assert_accessible(page, "watch link with a line of chat")


def test_a_game_waiting_for_an_open_seat_mid_game(page: Page, web_server: LiveServer) -> None:
    """The host removed a player mid-game: the waiting room over the table, with the
    host's controls opened and the hint on leaving, as the host sees it."""
    from tests.browser.test_host_controls import (  # noqa: PLC0415
        anna_and_bruno,
        open_as_host,
        until_gone,
    )

    created, table_id, bruno_token = anna_and_bruno(web_server)
    with seats.SeatSocket(web_server, table_id, created["token"]) as anna, \
            seats.SeatSocket(web_server, table_id, bruno_token) as bruno:
        anna.act("play")
        bruno.act("play")
    until_gone(web_server, table_id, 1)
    open_as_host(page, web_server, created)
    expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible()
    page.get_by_text("Host controls").click()
    assert_accessible(page, "host controls mid-game")
    removed = httpx.post(f"{web_server.url}/api/tables/{table_id}/seats/1/remove", json={},
                         headers={"X-Host-Token": created["host_token"]})
    assert removed.status_code == 200, removed.text
    expect(page.locator(".sc-status-text")).to_have_text(
        "Waiting for someone to take the open seat…")
    assert_accessible(page, "a game waiting for an open seat")


def test_triominos_round_and_final_results(page: Page, tmp_path: Path) -> None:
    """Triominos' round summary mid-game and its final result, which no audit opened: a
    round winner's points were green on the shown round's row at 3.1:1 (axe
    "color-contrast", serious), and mid-game each seat's heading was an h4 under the
    dialog's h2 ("heading-order")."""
    from tests.browser.test_triominos_browser import (  # noqa: PLC0415
        FOUR_SEATS,
        serve_played,
    )

    server, url = serve_played(tmp_path / "middle", {"rounds": 3}, 7, FOUR_SEATS,
                               stop=lambda state: state.round >= 2)
    try:
        page.goto(url)
        page.get_by_role("button", name="Scores").click()
        summary = page.locator(".tr-summary")
        expect(summary).to_have_attribute("data-round", "1")
        expect(summary.locator("td.winner").first).to_be_visible()
        expect(summary.locator(".tr-round-seat-heading").first).to_have_js_property(
            "tagName", "H3")
        found = violations(page)
        assert not [v for v in found if v["impact"] in BLOCKING or v["id"] == "heading-order"
                    ], found
    finally:
        server.stop()
    server, url = serve_played(tmp_path / "end", {"rounds": 1}, 7, [None, "easy"])
    try:
        page.goto(url)
        final = page.locator('.tr-summary[data-finished="true"]')
        expect(final).to_be_visible()
        expect(final.locator("td.winner").first).to_be_visible()
        assert_accessible(page, "Triominos' final result")
    finally:
        server.stop()


def test_sequence_cats_in_forced_colours_keeps_its_targets_and_teams_apart(
        page: Page, web_server: LiveServer, shots: Path) -> None:
    """Windows' contrast themes (forced colours) drop box shadows and replace colours:
    the spaces a chosen card can take glowed by a shadow and looked like every other
    space, and the team dots beside the names became the same plain circle. The targets
    get an outline in the theme's highlight; the chips and dots keep their colours."""
    table, tokens = seats.create_table(web_server, "sequence-cats", {}, ["human", "easy"],
                                       {0: "Anna"})
    page.emulate_media(forced_colors="active")
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    # A cat card: a PURRR's targets are every free space, leaving none to compare with.
    page.locator(".sc-card:not([disabled]):not(.dead):not(.special)").first.click()
    target = page.locator(".sc-space.target").first
    expect(target).to_be_visible()
    other = page.locator(".sc-space:not(.target):not(.hint):not(.last):not(.free)").first
    style = "e => { const s = getComputedStyle(e); return [s.outlineStyle, s.outlineWidth]; }"
    assert target.evaluate(style) == ["solid", "3px"], target.evaluate(style)
    assert other.evaluate(style)[0] == "none"
    colours = page.locator(".sc-player .sc-team-dot").evaluate_all(
        "dots => dots.map(d => getComputedStyle(d).backgroundColor)")
    assert len(colours) == 2 and len(set(colours)) == 2, colours
    page.screenshot(path=str(shots / "sequence-cats-forced-colours.png"))


COVERED = """el => { const box = el.getBoundingClientRect();
    const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return !(top && (el.contains(top) || top.contains(el))); }"""


def test_larger_text_set_in_the_browser_gets_the_layout_of_a_narrower_window(
        playwright: Playwright, web_server: LiveServer, tmp_path: Path, shots: Path) -> None:
    """WCAG 1.4.4 (resize text): a person whose browser shows text at 200 % (its default
    font size set to 32 px) saw a laptop's Dixit table laid out for 16 px: the hand's
    panel lay over the clue, and "Choose" ran out of its buttons into the next. The
    layout's widths are in ems, so that they get the layout that 200 % zoom gives."""
    table, tokens = seats.create_table(
        web_server, "dixit", {"first_storyteller": "first_seat"},
        ["easy", "human", "easy", "easy"], {1: "Anna"})
    profile = tmp_path / "profile"
    (profile / "Default").mkdir(parents=True)
    (profile / "Default" / "Preferences").write_text(json.dumps(
        {"webkit": {"webprefs": {"default_font_size": 32, "default_fixed_font_size": 32}}}))
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, args=ARGS, headless=True,
        viewport={"width": 1280, "height": 800}, locale="en-GB")
    try:
        page = context.new_page()
        page.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
        assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "32px"
        clue = page.locator(".dx-clue-box")
        expect(clue).to_be_visible(timeout=30_000)  # Computer 1 told
        expect(page.locator(".dx-choose").first).to_be_visible()
        page.screenshot(path=shots / "dixit-text-200.png")
        assert not clue.evaluate(COVERED), "the clue lies under another part of the page"
        overflowing = page.locator(".dx-choose").evaluate_all(
            "bs => bs.filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent)")
        assert overflowing == [], overflowing
    finally:
        context.close()
