"""The lobby on a phone: every game's new-table form fits the screen's width."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.browser.conftest import wait_for
from tests.server.conftest import LiveServer

PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.mark.parametrize("game", ["Dixit", "Sequence Cats", "Triominos"])
def test_the_new_table_form_fits_a_phone_and_its_button_takes_the_tap(
    browser: Browser, web_server: LiveServer, game: str
) -> None:
    """A select's natural width is its longest option; none may push the form off screen."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(web_server.url)
        page.locator(".game-card", has_text=game).click()
        expect(page.locator(".config-form")).to_be_visible()
        # The form comes up once a game is chosen (it lay below the fold, and "Create
        # table" in sight made a table of default seats one tap away).
        wait_for(page, "Math.abs(document.querySelector('.new-table')"
                       ".getBoundingClientRect().top) < 80")
        too_wide = page.evaluate(
            """(width) => [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > width + 1)
                .map(e => e.tagName.toLowerCase() + '.' + e.className)""",
            PHONE["width"],
        )
        assert too_wide == []
        button = page.get_by_role("button", name="Create table")
        # The form is several screens long: its button waits at the window's bottom
        # from the start (it was at the very end of the page).
        expect(button).to_be_in_viewport(ratio=1)
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box is not None
        on_top = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.textContent",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert on_top == "Create table"
    finally:
        context.close()


def test_the_computer_players_clue_language_follows_a_language_switched_in_the_lobby(
    browser: Browser, web_server: LiveServer
) -> None:
    """Dixit's computer players tell clues in the interface's language by default; one
    who switches the language with the form open gets clues in the new one, unless they
    chose the clue language themselves."""
    page = browser.new_page()
    page.goto(web_server.url)
    page.select_option(".language-switch select", "en")
    page.locator(".game-card", has_text="Dixit").click()
    clues = page.locator(".config-form .field",
                         has=page.locator(".field-label", has_text="Computer players' clues"))
    expect(clues.locator("select")).to_have_value('"en"')
    page.select_option(".language-switch select", "pt")
    clues = page.locator(".config-form .field", has=page.locator(
        ".field-label", has_text="Frases dos jogadores do computador"))
    expect(clues.locator("select")).to_have_value('"pt"')
    clues.locator("select").select_option('"nb"')  # a choice of one's own stays
    page.select_option(".language-switch select", "is")
    expect(page.locator(".config-form select").filter(has=page.locator(
        'option[value="\\"nb\\""]')).first).to_have_value('"nb"')


# The selected option's text wider than its select (less the arrow's room): cut short.
CUT_SELECTS = """() => {
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
  document.body.append(probe);
  const cut = [...document.querySelectorAll('.seat-plan select')].filter(select => {
    const style = getComputedStyle(select);
    probe.style.font = style.font;
    probe.textContent = select.selectedOptions[0].textContent;
    const room = select.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - 18;  // the arrow
    return probe.getBoundingClientRect().width > room;
  }).map(select => select.selectedOptions[0].textContent);
  probe.remove();
  return cut;
}"""


@pytest.mark.parametrize("language", ["is", "en", "pt", "nb"])
def test_on_a_phone_the_seat_choices_show_whole(
    browser: Browser, web_server: LiveServer, language: str
) -> None:
    """ "Computer player (Medium" lost its closing bracket in the seat plan, as did
    "Tölvuleikmaður (Miðlungs"."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  locale=language)
    page = context.new_page()
    try:
        page.goto(web_server.url)
        page.select_option(".language-switch select", language)
        page.locator(".game-card", has_text="Triominos").click()
        page.locator(".count-buttons button, [role=group] button", has_text="3").first.click()
        expect(page.locator(".seat-plan select")).to_have_count(2)
        for select in page.locator(".seat-plan select").all():
            values = select.locator("option").evaluate_all(
                "options => options.map(o => o.value)")
            for value in values:
                select.select_option(value)
                assert page.evaluate(CUT_SELECTS) == []
        if language == "is":
            # A level is an adjective that agrees with "tölva" (feminine), as at the
            # table ("Tölva 2 · Auðveld"): "Tölvuleikmaður (Auðveld)" did not.
            labels = page.locator(".seat-plan select").first.locator(
                "option[value='bot:easy'], option[value='bot:hard']").all_inner_texts()
            assert labels == ["Tölva (Auðveld)", "Tölva (Erfið)"], labels
            # and every computer player of the list is named so, the levels and the
            # players by kind alike ("Tölvuleikmaður (Gráðugur)" came after the levels)
            bots = page.locator(".seat-plan select").first.locator(
                "option[value^='bot:']").all_inner_texts()
            assert len(bots) > 3 and all(b.startswith("Tölva (") for b in bots), bots
            assert "Tölva (Gráðug)" in bots, bots
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "is", "nb", "pt"])
def test_on_a_small_phone_every_seat_choice_of_every_game_shows_whole(
    browser: Browser, web_server: LiveServer, shots: Path, language: str
) -> None:
    """On a 360 px phone in Norwegian, Dixit's seat menu cut "Datamaskinspiller
    (Ettertenksom, forstår ledetråder)" short. Every choice of every game's seat menu
    shows whole once chosen, in every language; the computer player that understands
    clues says so on the line under the menu."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True, locale=language)
    page = context.new_page()
    try:
        page.goto(web_server.url)
        page.select_option(".language-switch select", language)
        expect(page.locator("html")).to_have_attribute("lang", language)
        for game in ("Dixit", "Sequence Cats", "Triominos"):
            page.locator(".game-card", has_text=game).click()
            menu = page.locator(".seat-plan select").first
            expect(menu).to_be_visible()
            values = menu.locator("option").evaluate_all(
                "options => options.map(o => o.value)")
            assert len(values) > 3, values
            cut = []
            for value in values:
                menu.select_option(value)
                cut += page.evaluate(CUT_SELECTS)
            assert (game, cut) == (game, [])
            if game == "Dixit":
                menu.select_option("bot:semantic")
                page.locator(".seat-plan").screenshot(
                    path=str(shots / f"phone-seat-menu-dixit-{language}.png"))
    finally:
        context.close()


def test_on_a_phone_the_name_field_comes_out_from_under_the_create_bar(
    browser: Browser, web_server: LiveServer
) -> None:
    """On a phone the sticky "Create table" bar lay over the name field as the form came
    into view; focusing the field (a tap on its label, Tab) brings it above the bar."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(web_server.url)
        page.locator(".game-card", has_text="Dixit").click()
        name = page.locator("input[autocomplete=nickname]")
        expect(name).to_be_attached()
        page.evaluate("window.scrollTo(0, 0)")
        name.focus()
        bar = page.locator(".create-bar").bounding_box()
        field = name.bounding_box()
        assert bar is not None and field is not None
        assert field["y"] + field["height"] <= bar["y"], (field, bar)
    finally:
        context.close()


def test_on_a_phone_why_create_table_is_greyed_out_shows_beside_it(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-SETUP-3: eight players by the EN rulebook greyed out "Create table" at the
    window's foot, and the reason stood 930 px further down the form. (A small phone,
    360 × 740: the bar, taller with the reason, hid the fields to change under it.)"""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        page.goto(web_server.url)
        page.locator(".game-card", has_text="Dixit").click()
        page.get_by_role("group", name="Players").get_by_role("button").get_by_text(
            "8", exact=True).tap()
        page.locator(".config-form .field", has=page.locator(
            ".field-label", has_text="Edition")).locator("select").select_option(
            label="English (EN)")
        create = page.get_by_role("button", name="Create table")
        expect(create).to_be_disabled()
        reason = page.locator(".create-bar .options-refusal")
        expect(reason).to_have_text("Dixit by the EN rulebook is for 3–6 players, not 8.")
        expect(reason).to_be_in_viewport()
        expect(page.locator(".options-refusal")).to_have_count(1)  # said once
        page.screenshot(path=shots / "lobby-phone-refused-reason.png")
        # The taller bar hid the fields Tab brought into view under it: each comes out
        # above it.
        page.locator("input[autocomplete=nickname]").focus()
        hidden = []
        for _ in range(30):
            page.keyboard.press("Tab")
            place = page.evaluate("""(() => {
                const field = document.activeElement, bar = document.querySelector('.create-bar');
                if (!field || bar.contains(field)) return null;
                const box = field.getBoundingClientRect();
                return [field.outerHTML.slice(0, 60), box.bottom, bar.getBoundingClientRect().top];
            })()""")
            if place is not None and place[1] > place[2]:
                hidden.append(place)
        assert hidden == []
    finally:
        context.close()


def test_on_a_touch_screen_a_tapped_button_does_not_keep_the_hover_look(
    browser: Browser, web_server: LiveServer
) -> None:
    """A touch screen has no pointer that hovers, but it applies :hover to the control
    last tapped until the next tap: a tapped button kept its orange border (the look of
    a pointer over it). Hover looks apply only where a pointer hovers."""
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                               device_scale_factor=2).new_page()
    page.goto(web_server.url)
    assert page.evaluate("matchMedia('(hover: hover)').matches") is False
    button = page.get_by_role("button", name="How to play").first
    before = button.evaluate("b => getComputedStyle(b).borderColor")
    button.tap()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert button.evaluate("b => getComputedStyle(b).borderColor") == before


# Every option of the new-table form's selects wider than its select (less the arrow's
# room), as "text in select": an option cut short when chosen.
CUT_OPTIONS = """() => {
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
  document.body.append(probe);
  const cut = [];
  for (const select of document.querySelectorAll('.config-form select')) {
    const style = getComputedStyle(select);
    probe.style.font = style.font;
    // Chromium's arrow takes about 16 px (a 227 px text shows whole in a 266 px select
    // of 11.2 px paddings).
    const room = select.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - 16;
    for (const option of select.options) {
      probe.textContent = option.textContent;
      const width = probe.getBoundingClientRect().width;
      if (width > room) {
        cut.push(`${option.textContent}: ${Math.ceil(width)} px in ${Math.floor(room)}`);
      }
    }
  }
  probe.remove();
  return cut;
}"""


@pytest.mark.parametrize("width", [390, 820, 900, 1100, 1280])
def test_every_option_of_the_new_table_form_shows_whole(
    browser: Browser, web_server: LiveServer, width: int
) -> None:
    """On a tablet Triominos' rounds read "Sem limite: até à pontuaç" and "Ingen grense:
    til poengsu", the select's arrow over their end; every option of every game's form,
    in every language, now shows whole on a phone, a tablet and a laptop."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    cut: dict[str, list[str]] = {}
    try:
        page.goto(web_server.url)
        for language in ("en", "is", "nb", "pt"):
            page.select_option(".language-switch select", language)
            for game in ("Dixit", "Sequence Cats", "Triominos"):
                page.locator(".game-card", has_text=game).click()
                expect(page.locator(".config-form")).to_be_visible()
                found = page.evaluate(CUT_OPTIONS)
                if found:
                    cut[f"{language} {game}"] = found
    finally:
        context.close()
    assert cut == {}


def test_on_a_small_phone_the_header_keeps_to_one_line(
        browser: Browser, web_server: LiveServer) -> None:
    """At 320 px the header's "◆ gametable" broke between the mark and the word, and the
    header grew from 55 to 85 px above every page; kept whole, it pushed the language
    menu past the screen's edge."""
    page = browser.new_context(viewport={"width": 320, "height": 658}, is_mobile=True,
                               has_touch=True).new_page()
    page.goto(web_server.url)
    brand = page.locator(".brand")
    expect(brand).to_be_visible()
    box = brand.bounding_box()
    header = page.locator(".topbar").bounding_box()
    assert box is not None and header is not None
    assert box["height"] <= 32 and header["height"] <= 60, (box, header)
    # Nor is the header wider than the phone (it was 341 px, and every page scrolled
    # sideways by 4 px).
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.context.close()
