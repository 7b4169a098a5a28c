"""Translation catalogs: every language says everything, with the same placeholders."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import pytest

from gametable.core.i18n import LANGUAGES, plural_form, translate

PLACEHOLDER = re.compile(r"\{\{\s*[\w.]+\s*\}\}|\$t\([^)]*\)")


def flat(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(flat(value, f"{prefix}{key}."))
        elif isinstance(value, list):  # lines of a text ("How to play"), each its own
            out.update(flat({str(i): line for i, line in enumerate(value)}, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def load(language: str) -> dict[str, str]:
    text = resources.files("gametable.locales").joinpath(f"{language}.json").read_text("utf-8")
    return flat(json.loads(text))


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_catalog_has_every_english_message(language: str) -> None:
    english, other = load("en"), load(language)
    assert sorted(other) == sorted(english)
    for key, text in english.items():
        found = PLACEHOLDER.findall(other[key])
        if key.endswith("_one") and "{{count}}" not in text:
            # A language whose one form also covers 21, 31 … (Icelandic) gives the number.
            found = [p for p in found if p != "{{count}}"]
        assert sorted(found) == sorted(PLACEHOLDER.findall(text)), key


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_catalogs_are_translated(language: str) -> None:
    english, other = load("en"), load(language)
    # A message with no word of its own ("{{bot}} {{seat}} · {{level}}") needs none.
    same = [k for k, v in english.items() if other[k] == v
            and re.search(r"[^\W\d_]", PLACEHOLDER.sub("", v))
            and v not in {"Sequence Cats", "Triominos", "Dixit"}]
    assert same == []


def test_messages_render_with_card_names_in_each_language() -> None:
    assert translate("sequence_cats.errors.card_not_in_hand", "en", card="manx") == \
        "You do not hold Manx."
    assert "Manarköttur" in translate("sequence_cats.errors.card_not_in_hand", "is", card="manx")


def test_a_missing_translation_falls_back_to_english_then_the_key() -> None:
    assert translate("no.such.key", "pt") == "no.such.key"


def test_a_count_of_one_takes_the_catalogs_one_form_where_it_has_one() -> None:
    """DX-ROUND-4 with one vote allowed: "Vote for one card.", not "Vote for 1 to 1
    card(s)."; two allowed keep the general form, the number a word as in the one form;
    a key without a one form is as it was."""
    assert translate("dixit.errors.vote_count", "en", count=1) == "Vote for one card."
    assert translate("dixit.errors.vote_count", "en", count=2) == "Vote for one or two cards."
    assert translate("dixit.errors.card_count", "en", count=1) == \
        "Give exactly one card from your hand."
    assert translate("dixit.errors.vote_count", "pt", count=1) == "Vota numa carta."
    assert "1" in translate("errors.no_such_seat", "en", seat=1, seats=2, count=1)
    # A Triominos tile worth one point ("Tile 0-0-1 (1 points)" before).
    assert translate("triominos.ui.tile_label", "en", tile="0-0-1", count=1) == (
        "Tile 0-0-1 (1 point)")
    assert translate("triominos.ui.tile_label", "pt", tile="0-1-1", count=2) == (
        "Peça 0-1-1 (2 pontos)")
    # SC-WIN-2 at its default of one sequence: not "of the 1 needed to win".
    assert translate("sequence_cats.ui.sequences_made_help", "en", count=1) == (
        "Sequences made; one wins the game")
    assert translate("sequence_cats.ui.sequences_made_help", "en", count=2) == (
        "Sequences made, of the 2 needed to win")


@pytest.mark.parametrize("key", ["sequence_cats.ui.team_wins", "sequence_cats.ui.you_lose_one",
                                 "sequence_cats.ui.you_lose_other"])
def test_a_sequence_cats_winner_is_named_by_colour_not_as_a_team(key: str) -> None:
    """SC-PLAY-1: two or three players play alone, so "the Orange team wins" (as the
    Portuguese said) was wrong there; every language names the winner by colour, which
    reads right for teams too."""
    for language, team_word in (("en", "team"), ("pt", "equipa"), ("nb", " lag"),
                                ("is", " lið")):
        words = PLACEHOLDER.sub("", load(language)[key]).lower()
        assert team_word not in words, (language, key)


@pytest.mark.parametrize(("language", "marks"), [("is", "„“"), ("nb", "«»"), ("pt", "«»")])
def test_quotations_use_the_languages_own_marks(language: str, marks: str) -> None:
    """Icelandic quotes „so“, Norwegian and European Portuguese «so»; a straight quote is
    left only inside a piece of JSON a message shows ({"type": "hello"})."""
    straight = [key for key, text in load(language).items()
                if '"' in re.sub(r"\{[^{}]*\}", "", text.replace("{{", "").replace("}}", ""))]
    assert straight == []
    opening, closing = marks[0], marks[1]
    for key, text in load(language).items():
        assert text.count(opening) == text.count(closing), key


def test_a_refusal_in_a_language_without_a_catalog_is_said_in_english() -> None:
    """``IllegalAction.message("de")`` raised ``KeyError`` instead of falling back."""
    from gametable.core.errors import ConfigError, IllegalAction  # noqa: PLC0415

    refusal = IllegalAction("PROTOCOL", "errors.no_such_seat", seat="9", seats=2)
    assert refusal.message("de") == refusal.message("en") == refusal.message()
    assert "9" in refusal.message("de")
    assert refusal.message("is") != refusal.message("en")
    config = ConfigError("PROTOCOL", "errors.unknown_game", game="chess", games="dixit")
    assert config.message("xx") == config.message("en")


def test_icelandic_tells_a_turn_from_a_round() -> None:
    """The page says *leikur* for a turn ("Þú átt leik") and *umferð* for a round; the
    turn clock's messages said *umferð* ("Tími á umferð", read as time per round), now
    *umhugsunartími*. The games' "How to play" keep their rulebook's words (the Icelandic
    Triominos sheet says *umferð* for both)."""
    english, icelandic = load("en"), load("is")
    mixed = [key for key, text in english.items()
             if ".how_to_play." not in key
             and re.search(r"\bturns?\b", text, re.IGNORECASE)
             and not re.search(r"\brounds?\b", text, re.IGNORECASE)
             and "umferð" in icelandic.get(key, "").lower()]
    assert mixed == []


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("variant", ["party", "team"])
def test_a_dixit_variant_is_named_one_way_in_each_language(language: str, variant: str
                                                           ) -> None:
    """DX-PARTY and DX-TEAM: the lobby names the variant (``dixit.options.variant``), and
    every message names it the same way; the Portuguese said Dixit Festa and Dixit Party,
    the Icelandic Dixit partí, Party and Partí (its "How to play" said Partí until it said
    Dixit partý, and the Portuguese one Dixit por Equipas), the Norwegian Dixit-fest and
    Dixit Party. Icelandic names them as its rulebook does: Dixit partý, Liða-Dixit."""
    messages = load(language)
    name = messages[f"dixit.options.variant.values.{variant}"]
    others = {"party": ["Dixit Party", "Dixit partí", "Dixit Partí", "Dixit Festa",
                        "Dixit-fest", "Dixit partý", "Partí "],
              "team": ["Team Dixit", "Lag-Dixit", "Liða-Dixit", "Dixit em equipas",
                       "Dixit por equipas", "liðaleik"]}[variant]
    wrong = {key: text for key, text in messages.items()
             if any(other.lower() in text.lower() for other in others
                    if other.lower() != name.lower())}
    assert wrong == {}
    if language == "is":
        assert name == {"party": "Dixit partý", "team": "Liða-Dixit"}[variant]


def test_portuguese_calls_the_storyteller_narrador_as_its_rulebook_does() -> None:
    """The Portuguese rulebook (shared/seeds, the PT edition) says *narrador* for the
    storyteller; the page said *contador (de histórias)*, and called the scoring track a
    *pista*, its word for a clue."""
    messages = load("pt")
    assert [key for key, text in messages.items() if "contador" in text.lower()] == []
    assert messages["dixit.ui.storyteller"] == "Narrador"
    assert "pista" not in messages["dixit.ui.track"].lower()


def test_icelandic_calls_a_dixit_card_spjald_as_its_rulebook_does() -> None:
    """The Icelandic Dixit rulebook (shared/seeds) says *spjald* (plural *spjöld*) for a
    card, 65 times, and *bunki* for the draw pile; the page said *spil*, the word its
    Sequence Cats sheet uses for a playing card (and Icelandic for a game). Dixit's
    messages, its "How to play" and the picture decks' now say *spjald* in every case and
    number; *spil* stays where a message means the game or the cards of any game."""
    messages = load("is")
    noun = re.compile(r"\b(spil|spilið|spilin|spili|spilinu|spilum|spilunum|spilanna|spils"
                      r"|spilsins|spilastokk\w*)\b", re.IGNORECASE)
    dixit = {key: text for key, text in messages.items()
             if key.startswith(("dixit.", "decks.", "games.dixit."))}
    assert [key for key, text in dixit.items() if noun.search(text)] == []
    assert messages["dixit.ui.card"] == "Spjald {{number}}"
    assert messages["dixit.ui.draw_pile_one"].startswith("{{count}} spjald ")
    assert messages["dixit.ui.draw_pile_other"].startswith("{{count}} spjöld ")
    assert "spjöld" in messages["dixit.ui.your_hand"].lower()


def test_portuguese_calls_the_clue_a_frase_as_its_rulebook_does() -> None:
    """The Portuguese rulebook (shared/seeds, the PT edition) calls the storyteller's clue
    a *frase* (14 times: "diz em voz alta uma frase", "a frase pode ... ser constituída
    por apenas uma palavra"); the page said *pista*. The storyteller *says* it (*diz*),
    where the page had it *give* one (*dá uma pista*)."""
    messages = load("pt")
    assert [key for key, text in messages.items()
            if re.search(r"\bpistas?\b", text, re.IGNORECASE)] == []
    assert messages["dixit.ui.clue_label"] == "Frase"
    # Its round is a *turno* ("No primeiro turno, um dos jogadores será o narrador"); two
    # messages said *ronda*, Triominos' word.
    assert [key for key, text in messages.items()
            if key.startswith(("dixit.", "games.dixit.", "decks."))
            and re.search(r"\brondas?\b", text, re.IGNORECASE)] == []
    assert messages["dixit.ui.status.clue"] == "És o narrador: escolhe uma carta e diz uma frase."


def test_icelandic_calls_a_sequence_cats_chip_leikped_as_its_sheet_does() -> None:
    """The Icelandic Sequence Cats sheet (shared/seeds) says *leikpeð* for a chip (16
    times, *peð* once); the page said *leikpeð* in most messages and *peð* in seven."""
    messages = load("is")
    short = re.compile(r"(?<!\w)peð\w*", re.IGNORECASE)
    assert [key for key, text in messages.items()
            if key.startswith("sequence_cats.") and short.search(text)] == []
    assert messages["sequence_cats.ui.blank_space"] == "Horn (tekur ekki leikpeð)"


@pytest.mark.parametrize(("language", "one", "several"), [
    ("is", "Leiknum er lokið: Anna vann.", "Leiknum er lokið: Anna og Bo unnu."),
    ("pt", "Fim do jogo: Anna ganhou.", "Fim do jogo: Anna e Bo ganharam."),
    ("en", "Game over: Anna won.", "Game over: Anna and Bo won."),
])
def test_a_shared_triominos_win_takes_a_plural_verb(language: str, one: str, several: str) -> None:
    """TR-END-4: ties are shared, so the end names every winner and the Icelandic and
    Portuguese verb agrees with them ("Anna og Bo vann" before)."""
    pair = {"is": "Anna og Bo", "pt": "Anna e Bo", "en": "Anna and Bo"}[language]
    assert translate("triominos.ui.events.game_over", language, players="Anna", count=1) == one
    assert translate("triominos.ui.events.game_over", language, players=pair, count=2) == several


@pytest.mark.parametrize(("language", "one", "two"), [
    ("is", "Anna náði 400 stigum í síðustu lotu", "Anna og Bo náðu 400 stigum í síðustu lotu"),
    ("pt", "Anna chegou a 400 pontos na última ronda",
     "Anna e Bo chegaram a 400 pontos na última ronda"),
])
def test_the_pressman_end_counts_who_passed_the_target_apart_from_the_round_winners(
        language: str, one: str, two: str) -> None:
    """TR-END-4 with PRESSMAN's round winner: the verb agrees with the players past the
    target, whatever the number of round winners ("Anna náðu" before, the verb
    following the winners' count)."""
    pair = {"is": "Anna og Bo", "pt": "Anna e Bo"}[language]
    key = "triominos.ui.final.round_reached"
    assert translate(key, language, passed="Anna", target=400, count=1) == one
    assert translate(key, language, passed=pair, target=400, count=2) == two
    sentence = translate("triominos.ui.final.round_winner", language, reached=one,
                         players="Bo", count=1)
    assert sentence.startswith(one + ": Bo ")


def test_icelandic_plural_forms_follow_cldr() -> None:
    """Icelandic takes its one form for 21 and 31 but not 11, as the client's i18next
    (Intl.PluralRules) does; the other languages for 1 alone."""
    assert [plural_form(n, "is") for n in (1, 2, 11, 21, 31, 111)] == [
        "one", "other", "other", "one", "one", "other"]
    assert [plural_form(n, "pt") for n in (0, 1, 2, 21)] == ["other", "one", "other", "other"]


@pytest.mark.parametrize(("key", "params", "english", "icelandic"), [
    ("server.errors.rate_limited", {"seconds": 1},
     "Too many requests from you in a short time. Please wait a second and try again.",
     "Bíddu í 1 sekúndu"),
    ("ui.chat.errors.too_fast", {"limit": 20, "seconds": 1},
     "Slow down: at most 20 messages a second.", "mest 20 skilaboð á hverri 1 sekúndu"),
    ("server.errors.away_too_fast", {"limit": 4, "seconds": 60, "wait": 1},
     "You have stepped away 4 times in the last 60 seconds: wait a second before asking a "
     "computer player to play for you again.", "bíddu í 1 sekúndu"),
    ("server.errors.too_slow", {"seconds": 1},
     "The request arrived too slowly (the limit is one second). Please try again.",
     "hámarkið er 1 sekúnda"),
])
def test_a_wait_of_one_second_is_said_in_the_singular(
        key: str, params: dict[str, int], english: str, icelandic: str) -> None:
    """The server's limits count seconds (chat's default is 20 messages every 1 s, a rate
    limit's wait is rounded up to 1 s): "wait 1 seconds" read wrong in every language."""
    count = params.get("wait", params["seconds"])
    assert translate(key, "en", **params, count=count) == english
    assert icelandic in translate(key, "is", **params, count=count)
    assert "1 " not in translate(key, "pt", **params, count=count).replace("{", "")
    assert translate(key, "en", **params, count=2) != english


@pytest.mark.parametrize(("key", "params"), [
    ("server.errors.rate_limited", {"seconds": 21}),
    ("server.errors.too_slow", {"seconds": 21}),
    ("server.errors.away_too_fast", {"limit": 4, "seconds": 60, "wait": 21}),
    ("ui.chat.errors.too_fast", {"limit": 20, "seconds": 21}),
    ("decks.errors.and_more", {}),
    ("decks.upload.small_pictures", {"pixels": 800, "files": "a.png, b.png"}),
])
def test_icelandic_one_forms_said_of_21_give_the_number(key: str, params: dict[str, Any]) -> None:
    """Icelandic's plural rule (CLDR, as i18next applies it) takes the one form for 21, 31
    … too, so a one form that said "one" ("Og ein í viðbót", "eina sekúndu") was wrong
    for 21 pictures or seconds: it gives the number, with the singular noun Icelandic
    puts after 21."""
    text = translate(key, "is", **params, count=21)
    assert "21" in text
    assert not re.search(r"\b(ein|eina|eitt|einum)\b", text), text


def test_icelandic_puts_no_name_where_icelandic_would_decline_it() -> None:
    """A name filled into an Icelandic sentence stays as it was typed, in the nominative,
    so it may not follow a preposition or a verb that governs another case ("Beðið eftir
    Anna" for "eftir Önnu", "fjarlægði Anna" for "Önnu"): such sentences are worded
    around the name ("sætið sem Anna sat í")."""
    governs = re.compile(
        r"\b(eftir|frá|til|hjá|við|um|á|í|fyrir|með|af|úr|að|handa|gegn|án|fjarlægði|"
        r"fjarlægðir|fjarlægja|gera)\s+\{\{(player|players|name|names|passed)\}\}",
        re.IGNORECASE)
    assert [key for key, text in load("is").items() if governs.search(text)] == []


def test_each_language_says_its_own_word_for_the_game_terms() -> None:
    """A term names one thing one way in a language: Portuguese calls a Sequence Cats
    sequence *sequência* in its refusals (one said "SEQUENCE") and the table's chat
    *conversa* (a button said "chat"); Icelandic's free corner is *fríreitur* (two
    messages spelled it "frírreit"), and a Triominos round is a *lota*, as every other
    Triominos message says (its scoring help said *umferð*, Icelandic's round of turns)."""
    portuguese, icelandic = load("pt"), load("is")
    assert [key for key, text in portuguese.items()
            if key.startswith("sequence_cats.errors.") and "SEQUENCE" in text] == []
    assert [key for key, text in portuguese.items()
            if re.search(r"\bchat\b", text, re.IGNORECASE)] == []
    assert [key for key, text in icelandic.items() if "frírreit" in text.lower()] == []
    assert icelandic["sequence_cats.options.free_corners.label"] == "Fríreitir í hornum"
    assert "Umferð" not in icelandic["triominos.options.scoring.help"]
    assert "fáar lotur" in icelandic["triominos.options.scoring.help"]


@pytest.mark.parametrize(("language", "key", "text"), [
    ("pt", "server.errors.not_over",
     "O jogo ainda não acabou: podes jogar outra vez quando terminar."),
    ("pt", "dixit.ui.vote_choose_two",
     "Escolhe uma ou duas cartas que achas que podem ser a do narrador."),
    ("pt", "dixit.ui.status.vote_two",
     "Vota numa ou em duas cartas que achas que podem ser a do narrador."),
    ("pt", "dixit.ui.clue_mime_check", "Dita à mesa (mímica ou música)"),
    ("pt", "sequence_cats.ui.draw_accepted_by", "Aceite por: {{players}}"),
    ("pt", "ui.host.in_their_seat", "Depois de a pessoa ser removida, o lugar vai para:"),
    ("is", "ui.table.takeover_confirm", "Láta sætið af hendi"),
    ("pt", "dixit.ui.giver_help_computer",
     "A tua equipa dá uma carta. O teu colega de equipa {{player}} é um computador: escolhe "
     "quem a dá, tu ou o teu colega (se esperares, o computador escolhe passado algum "
     "tempo). Quem não dá a carta vota pela equipa."),
])
def test_messages_a_read_through_corrected(language: str, key: str, text: str) -> None:
    """Each was wrong in its language: Portuguese spoke to one person as several
    ("podem jogar"; "a vossa equipa" to a person whose teammate is a computer player),
    said a vote of two cards is for cards that *are* the storyteller's (DX-7P-1: a second
    vote is a second guess, so the cards *may be* it), called a clue given aloud *dada*
    rather than *dita*, left the draw's acceptance without its agent, and made the
    removed person masculine; Icelandic's "Láta sætið" (let the seat) lacked "af hendi"
    (give up)."""
    assert load(language)[key] == text


def test_icelandic_uses_the_cases_its_words_govern() -> None:
    """*sjá* takes the accusative (*hönd*, not the dative *hendi*), the imperative of
    *endurhlaða* said to one person is *endurhladdu* (as *hlaða* gives *hladdu*, which
    the catalog writes elsewhere; not the participle *endurhlaðið*), and a relative
    clause of time after *umferðina* takes *þar sem*. A computer player's level is an
    adjective ("Auðveld"), not a player: "(Auðveld leikur)" had no subject."""
    icelandic = load("is")
    assert "sjá hönd nokkurs" in icelandic["ui.watch.help"]
    assert "Endurhladdu borðið" in icelandic["server.errors.outcome_unknown"]
    assert [key for key, text in icelandic.items()
            if re.search(r"hlaððu|hlaðið (borðið|síðuna|hana)", text, re.IGNORECASE)] == []
    assert "IP-tölu" in icelandic["ui.table.invite_localhost"]  # *netfang* is an e-mail
    assert translate("ui.clock.away", "is", player="Anna", level="Auðveld") == (
        "Anna er fjarverandi: tölvuleikmaður (Auðveld) leikur")
    assert "eftir umferðina þar sem" in icelandic["dixit.options.target_score.help"]
    assert "Þegar vistað er, er gefið" in icelandic["ui.table.change_options_help"]


def test_norwegian_calls_a_sequence_sequence_as_its_sheet_does() -> None:
    """The Norwegian Sequence Cats sheet (shared/seeds) writes a sequence as SEQUENCE
    every time ("Én spiller eller ett lag må lage ÉN SEQUENCE"); the page said SEQUENCE
    in some messages and *rekke* in six. *Rekke* stays for a line of chips, which may
    be longer than a sequence (SC-WIN-1, SC-WIN-2)."""
    messages = load("nb")
    for key in ("sequence_cats.options.sequences_to_win.label", "sequence_cats.ui.sequences_made",
                "sequence_cats.ui.sequences_made_help_one",
                "sequence_cats.ui.sequences_made_help_other",
                "sequence_cats.ui.sequence_choice", "sequence_cats.errors.no_sequence_to_choose"):
        assert messages[key].startswith(("SEQUENCE", "Det er ingen SEQUENCE")), key
    assert translate("sequence_cats.ui.sequences_made_help", "nb", count=1) == (
        "SEQUENCE-er laget; én SEQUENCE vinner spillet")


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "Bo gave a card.", "Bo gave two cards."),
    ("is", "Bo lagði fram spjald.", "Bo lagði fram tvö spjöld."),
    ("pt", "Bo deu uma carta.", "Bo deu duas cartas."),
])
def test_the_dixit_log_says_how_many_cards_a_player_gave(language: str, one: str, two: str
                                                         ) -> None:
    """DX-3P-2: with three players each gives two cards, and the log said "gave a card"."""
    assert translate("dixit.events.submitted", language, player="Bo", count=1) == one
    assert translate("dixit.events.submitted", language, player="Bo", count=2) == two
    took_back = "dixit.events.took_back_cards"
    assert translate(took_back, language, player="Bo", count=2) != translate(
        took_back, language, player="Bo", count=1)


def test_a_table_of_one_seat_and_a_deck_of_one_picture_are_said_in_the_singular() -> None:
    """Triominos is played alone (TR-SETUP-2) and a deck of one picture can be uploaded:
    "a table of 1 seats" and "has 1 cards" read wrong in every language."""
    from gametable.core.errors import IllegalAction, seat_index  # noqa: PLC0415

    with pytest.raises(IllegalAction) as refusal:
        seat_index(3, 1)
    assert refusal.value.message("en") == "There is no seat 3 at a table of 1 seat."
    assert refusal.value.message("pt") == "Não existe o lugar 3 numa mesa de 1 lugar."
    assert translate("errors.no_such_seat", "en", seat=3, seats=2, count=2) == (
        "There is no seat 3 at a table of 2 seats.")
    assert translate("dixit.errors.deck_too_small", "en", deck="Cats", cards=1, seats=3,
                     minimum=18, count=1).startswith('The deck "Cats" has 1 card;')
    assert "21 spjald;" in translate("dixit.errors.deck_too_small", "is", deck="K", cards=21,
                                     seats=6, minimum=36, count=21)


def test_an_english_message_does_not_put_a_before_a_name_that_may_start_with_a_vowel(
) -> None:
    """An action's type fills "{{action_type}}" ("exchange", "offer_draw"), an HTTP
    method "{{method}}" ("OPTIONS"): "A "exchange" action" and "a OPTIONS request" read
    wrong, so no English message puts "a" before them."""
    english = load("en")
    assert [key for key, text in english.items()
            if re.search(r"\ba \"?\{\{(action_type|method)\}\}", text, re.IGNORECASE)] == []
    assert translate("server.errors.method_not_allowed", "en", method="OPTIONS") == (
        "This address does not take OPTIONS requests.")


def test_norwegian_says_each_thing_one_way() -> None:
    """A read-through found Norwegian naming one thing two ways: a game record
    *spillprotokoll* and *opptak*, the server *serveren* and *tjeneren*, a computer
    player *datamaskinspiller* and *datamaskin*, Team Dixit *Lag-Dixit* and *lagspillet*,
    the chat *chatten* and *praten*, the discard pile *kastebunke* and *avkastbunke* (the
    Norwegian Sequence Cats sheet's *avkastbunken*, in every game now); and How to play
    called a sequence *rekke*, a line of any length (SC-WIN-1)."""
    messages = load("nb")
    # (*Datamaskin 3* names a computer player's seat, as "Computer 3" does.)
    odd = re.compile(r"\bopptak|\btjeneren\b|\bdatamaskin kan\b|\blagspillet\b|"
                     r"\bpraten\b|\bfrifelt|(?<!av)kastebunk", re.IGNORECASE)
    assert [key for key, text in messages.items() if odd.search(text)] == []
    how_to_play = " ".join(text for key, text in messages.items()
                           if key.startswith("games.sequence-cats.how_to_play."))
    assert re.search(r"\brekke(ne)?\b", how_to_play) is None
    assert "er en SEQUENCE." in how_to_play


def test_icelandic_says_each_thing_as_its_rulebook_does() -> None:
    """A read-through against the Icelandic rulebooks found words of our own: a blocked
    Triominos game a *stífla* (the sheet: "spilið er komið í strand"), its penalties
    *frádrættir* (*refsistig*), Dixit's bonus for votes *aukastig* (*bónusstig*; the
    Triominos sheet's word for bridges and hexagons), the other side in Sequence Cats a
    *mótherji* (*andstæðingur*), a player once a *spilari* (*leikmaður*), the invite link
    once a *boðstengill* (*boðshlekkur*), and the same button to download a record
    named two ways."""
    messages = load("is")
    odd = re.compile(r"stífl|frádrátt|frádrætt|mótherj|\bspilari|boðstengil", re.IGNORECASE)
    assert [key for key, text in messages.items() if odd.search(text)] == []
    assert [key for key, text in messages.items()
            if key.startswith("dixit.") and re.search(r"aukastig", text, re.IGNORECASE)] == []
    assert messages["ui.host.record"] == messages["ui.table.download_record"]


def test_portuguese_triominos_says_comprar_for_a_tile_drawn_from_the_pool() -> None:
    """TR-DRAW-1: the button, the refusals and the log say *comprar*, as Portuguese domino
    games do; How to play, the button's help and the drawn tile's mark said *tirar*.
    *Tirar* stays for the tiles drawn to choose who starts (TR-SETUP-3), which go back."""
    messages = load("pt")
    drawing = ("games.triominos.how_to_play.", "triominos.ui.draw_help", "triominos.ui.just_drawn")
    assert [key for key, text in messages.items()
            if key.startswith(drawing) and re.search(r"\btira", text, re.IGNORECASE)] == []
    assert messages["triominos.ui.just_drawn"] == "comprada"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_cards_vote_button_and_the_button_that_sends_the_vote_differ(language: str) -> None:
    """DX-SETUP-3, two votes from seven players: "Votar" under each card and "Votar" on
    the button that sends the vote let a Portuguese player send one vote while still
    choosing the second."""
    catalog = load(language)
    assert catalog["dixit.ui.vote"] != catalog["dixit.ui.cast_vote_one"]
