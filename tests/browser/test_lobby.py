"""The lobby on a laptop."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Route, expect

from tests.browser.test_lobby_phone import CUT_SELECTS
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

LOCALES = Path(__file__).parents[2] / "src" / "gametable" / "locales"


def test_the_game_cards_line_up_their_titles(browser: Browser, web_server: LiveServer) -> None:
    """Each game's card centred its text in the row's height, so the titles of three
    cards with blurbs of different lengths stood at three heights."""
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(web_server.url)
    titles = page.locator(".game-card-title")
    expect(titles).to_have_count(3)
    tops = titles.evaluate_all("ts => ts.map(t => Math.round(t.getBoundingClientRect().top))")
    assert len(set(tops)) == 1, tops


def test_a_mistyped_address_says_there_is_nothing_there(
        browser: Browser, web_server: LiveServer) -> None:
    """An address the client does not know (a link cut short, a typo) showed the
    server's JSON refusal on a blank page: it is the site's own page now, in the
    reader's language, with the way back; the API still answers JSON."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    answer = page.goto(f"{web_server.url}/nonsense/page")
    assert answer is not None and answer.status == 404
    expect(page.locator('[data-gone="page"] h1')).to_have_text(
        "There is nothing at this address")
    page.get_by_role("button", name="Back to the start page").click()
    expect(page.locator(".game-card").first).to_be_visible()
    api = httpx.get(f"{web_server.url}/api/nonsense", headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.json()["code"] == "not_found"
    portuguese = browser.new_context(locale="pt-PT").new_page()
    portuguese.goto(f"{web_server.url}/t/")
    expect(portuguese.locator('[data-gone="page"] h1')).to_have_text(
        "Não há nada neste endereço")


def test_how_to_play_is_a_click_away_in_the_lobby_and_at_the_table(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """A first-time visitor found one line about each game and no rules anywhere: "How
    to play" gives each game's rules in a few lines (from docs/rules), in the lobby
    and under the table, in the reader's language."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(web_server.url)
    page.locator(".game-card", has_text="Triominos").click()
    page.get_by_role("button", name="How to play").first.click()
    rules = page.get_by_role("dialog", name="How to play Triominos")
    expect(rules).to_contain_text("bridge")  # TR-BONUS-1
    expect(rules.locator("li")).to_have_count(4)
    page.screenshot(path=str(shots / "how-to-play.png"))
    page.keyboard.press("Escape")
    expect(rules).to_have_count(0)
    made = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]}).json()
    table = browser.new_context(locale="pt-PT").new_page()
    table.goto(f"{web_server.url}/t/{made['table']['id']}#seat={made['token']}")
    table.locator(".table-links").get_by_role("button", name="Como se joga").click()
    dialog = table.get_by_role("dialog", name="Como se joga Sequence Cats")
    expect(dialog).to_contain_text("PURRR")  # SC-PURR-1
    dialog.get_by_role("button", name="Fechar").click()
    expect(dialog).to_have_count(0)


def test_the_page_shows_it_is_coming_while_its_script_is_on_the_way(
        browser: Browser, web_server: LiveServer) -> None:
    """On a slow network the start page stayed blank for seconds: the top bar and a
    spinner show until the script arrives, and the page then takes their place; the
    script comes gzipped."""
    page = browser.new_page()
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/assets/*.js", hold)
    page.goto(web_server.url, wait_until="commit")
    expect(page.locator(".boot")).to_be_visible()
    expect(page.locator(".boot")).to_contain_text("gametable")
    for route in held:
        route.continue_()
    page.unroute("**/assets/*.js")
    expect(page.locator(".lobby")).to_be_visible()
    expect(page.locator(".boot")).to_have_count(0)
    script = page.evaluate("document.querySelector('script[type=module]').src")
    answer = httpx.get(script, headers={"Accept-Encoding": "gzip"})
    assert answer.headers["content-encoding"] == "gzip"


CATALOGUE = r"/assets/(is|nb|pt)-[^/]*\.json$"
EVERY_TEXT = """
window.__texts = [];
new MutationObserver(() => {
  const root = document.getElementById("root");
  if (root && root.textContent.trim()) window.__texts.push(root.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_a_page_fetches_its_own_languages_texts_only_and_shows_none_in_english_first(
        browser: Browser, web_server: LiveServer) -> None:
    """The four catalogues were all in the first page's script (a third of it): now
    English, the fallback, comes with the page and another language's texts when the
    page is first shown in it. A page opened in Icelandic shows Icelandic from its first
    text on, never English on the way; switched to Portuguese, it fetches that once."""
    english = browser.new_context(locale="en-GB").new_page()
    fetched: list[str] = []
    english.on("request", lambda request: fetched.append(request.url))
    english.goto(web_server.url)
    expect(english.get_by_text("Board and card games with friends, in the browser")).to_be_visible()
    expect(english.locator(".game-card-title")).to_have_count(3)
    assert not [url for url in fetched if re.search(CATALOGUE, url)], fetched
    english.select_option(".language-switch select", "pt")
    expect(english.get_by_text("Jogos de tabuleiro e de cartas com amigos, no navegador")
           ).to_be_visible()
    assert [re.search(CATALOGUE, url).group(1) for url in fetched  # type: ignore[union-attr]
            if re.search(CATALOGUE, url)] == ["pt"]
    english.context.close()

    context = browser.new_context(locale="is-IS")
    context.add_init_script(EVERY_TEXT)
    icelandic = context.new_page()
    icelandic.goto(web_server.url)
    expect(icelandic.get_by_text("Borð- og spilaleikir með vinum, beint í vafranum")
           ).to_be_visible()
    texts = icelandic.evaluate("window.__texts")
    assert texts and not [text for text in texts if "with friends" in text], texts
    context.close()


def test_of_two_quick_language_choices_the_last_stands(
        browser: Browser, web_server: LiveServer) -> None:
    """Icelandic, then at once Portuguese, whose texts arrive first: the page stays in
    Portuguese when the Icelandic texts come after (it switched back to Icelandic)."""
    page = browser.new_context(locale="en-GB").new_page()
    held: list[Route] = []

    def hold(route: Route) -> None:  # answered later, by the test
        held.append(route)

    page.route(re.compile(r"/assets/is-[^/]*\.json$"), hold)
    page.goto(web_server.url)
    expect(page.get_by_text("Board and card games with friends, in the browser")).to_be_visible()
    page.select_option(".language-switch select", "is")
    while not held:
        page.wait_for_timeout(50)
    page.select_option(".language-switch select", "pt")
    portuguese = page.get_by_text("Jogos de tabuleiro e de cartas com amigos, no navegador")
    expect(portuguese).to_be_visible()
    with page.expect_response(re.compile(r"/assets/is-[^/]*\.json$")):
        held[0].continue_()
    page.wait_for_timeout(500)  # the Icelandic texts are in
    expect(portuguese).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "pt"
    assert page.locator(".language-switch select").input_value() == "pt"
    page.context.close()


def test_texts_that_do_not_arrive_leave_the_page_as_it_was_and_say_so(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """The network dropped as Norwegian was chosen: the page stayed in English but its
    switch said "Norsk bokmål", and nothing told why. Now the switch stays on the page's
    language, a notice says the texts did not come, and "Try again" fetches them."""
    page = browser.new_context(locale="en-GB").new_page()
    refused: list[str] = []

    def drop(route: Route) -> None:
        if not refused:
            refused.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(re.compile(r"/assets/nb-[^/]*\.json$"), drop)
    page.goto(web_server.url)
    expect(page.get_by_text("Board and card games with friends, in the browser")).to_be_visible()
    page.select_option(".language-switch select", "nb")
    notice = page.get_by_role("alert").filter(has_text="could not be fetched")
    expect(notice).to_have_text(re.compile(
        r"The texts in Norsk bokmål could not be fetched\. Check the connection"))
    assert refused
    assert page.locator(".language-switch select").input_value() == "en"
    assert page.evaluate("document.documentElement.lang") == "en"
    page.screenshot(path=shots / "language-failed.png")
    notice.get_by_role("button", name="Try again").click()
    expect(page.get_by_text("Brett- og kortspill med venner, rett i nettleseren")).to_be_visible()
    expect(notice).to_have_count(0)
    assert page.locator(".language-switch select").input_value() == "nb"
    page.context.close()

    # A page opened in Portuguese whose texts do not come shows English, and says so.
    context = browser.new_context(locale="pt-PT")
    context.route(re.compile(r"/assets/pt-[^/]*\.json$"),
                  lambda route: route.abort("internetdisconnected"))
    page = context.new_page()
    page.goto(web_server.url)
    expect(page.get_by_role("alert")).to_contain_text("The texts in Português could not be")
    expect(page.get_by_text("Board and card games with friends, in the browser")).to_be_visible()
    assert page.locator(".language-switch select").input_value() == "en"
    context.close()


def test_the_name_typed_stays_when_another_game_is_chosen(
        browser: Browser, web_server: LiveServer) -> None:
    """Rita typed her name under Triominos, then chose Sequence Cats: the name field was
    empty again, and the table seated her as "Player 1". The name stays, and seats her."""
    page = browser.new_context(locale="en-GB").new_page()
    page.goto(web_server.url)
    page.locator(".game-card", has_text="Triominos").click()
    page.get_by_label("Your name").fill("Rita")
    page.locator(".game-card", has_text="Sequence Cats").click()
    expect(page.get_by_label("Your name")).to_have_value("Rita")
    page.get_by_role("button", name="Create table").click()
    expect(page.locator(".seat-row.mine")).to_contain_text("Rita")
    page.context.close()


@pytest.mark.parametrize("language", ["en", "is", "nb", "pt"])
def test_the_seat_menu_says_which_level_a_player_by_name_is(
        browser: Browser, web_server: LiveServer, shots: Path, language: str) -> None:
    """Sequence Cats' seat menu offered "Computer player (Hard)" and "Computer player
    (Simulator)" as two opponents, and "(Medium)" and "(Greedy)": each pair is one
    player under two names (GET /api/games, ``levels``). The player by name says its
    level in the menu (in its text where the menu has room, to a screen reader in its
    name everywhere), and either of the two, once chosen, names the other below."""
    games = httpx.get(f"{web_server.url}/api/games").json()["games"]
    twins = next(g for g in games if g["name"] == "sequence-cats")["levels"]
    assert twins == {"medium": "greedy", "hard": "rollout"}
    texts = json.loads((LOCALES / f"{language}.json").read_text(encoding="utf-8"))
    words = {bot: texts["bots"][bot] for bot in ("medium", "hard", "greedy", "rollout")}
    for width, narrow in ((1280, False), (360, True)):
        context = browser.new_context(viewport={"width": width, "height": 780},
                                      is_mobile=narrow, has_touch=narrow, locale=language)
        page = context.new_page()
        try:
            page.goto(web_server.url)
            page.select_option(".language-switch select", language)
            page.locator(".game-card", has_text="Sequence Cats").click()
            seat = page.locator(".seat-plan li").nth(1)
            menu = seat.locator("select")
            expect(menu).to_be_visible()
            named = menu.locator("optgroup").nth(1)
            for level, bot in twins.items():
                option = named.locator(f'option[value="bot:{bot}"]')
                # Said to a screen reader at every width: "Computer player (Simulator),
                # the same player as Computer player (Hard)".
                name = option.get_attribute("aria-label") or ""
                assert words[bot] in name and words[level] in name, name
                text = option.inner_text()
                assert words[bot] in text
                # In its text where the menu has room; a phone's keeps it short.
                assert (words[level] in text) is not narrow, text
                for chosen, other in ((bot, level), (level, bot)):
                    menu.select_option(f"bot:{chosen}")
                    same = seat.locator(".seat-same")
                    expect(same).to_contain_text(words[other])
                    expect(menu).to_have_attribute("aria-describedby",
                                                   same.get_attribute("id") or "")
            # A level without a player of that name, and a player that is no level,
            # have no line beneath.
            for alone in ("bot:easy", "bot:planner", "friend"):
                menu.select_option(alone)
                expect(seat.locator(".seat-same")).to_have_count(0)
            menu.select_option("bot:rollout")
            page.locator(".seat-plan").screenshot(
                path=str(shots / f"seat-menu-twin-{language}-{width}.png"))
        finally:
            context.close()


@pytest.mark.parametrize("language", ["en", "is", "nb", "pt"])
def test_a_seat_menu_that_names_the_level_has_room_for_it(
        browser: Browser, web_server: LiveServer, language: str) -> None:
    """The longest choice that names its level, Dixit's "Datamaskinspiller (Ettertenksom,
    forstår ledetråder · Vanskelig)", was cut short in a 701-pixel window: the level is
    named in the text from 768 pixels, where every language's fits."""
    for width, named in ((768, True), (701, False)):
        page = browser.new_page(viewport={"width": width, "height": 900}, locale=language)
        try:
            page.goto(web_server.url)
            page.select_option(".language-switch select", language)
            page.locator(".game-card", has_text="Dixit").click()
            menu = page.locator(".seat-plan select").nth(1)
            menu.select_option("bot:semantic")
            text = menu.locator("option:checked").inner_text()
            assert page.evaluate(CUT_SELECTS) == [], width
            assert ("·" in text) is named, text
        finally:
            page.close()
