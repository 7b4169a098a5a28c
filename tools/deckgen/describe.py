"""Write one or two plain sentences describing a planned card.

Computer players match clue words against these sentences, so every motif is named by
its noun, together with the ground and the mood; the wording varies between templates.
"""

from __future__ import annotations

import random

from .compose import Placement, Scene

PROPER = frozenset({"Saturn", "Jupiter", "Mars", "Venus", "Earth"})

REST_VERBS: dict[str, tuple[str, ...]] = {
    "beast": ("stands", "waits", "sits"),
    "bird": ("stands", "waits", "perches"),
    "bug": ("rests", "sits", "crawls"),
    "sea": ("rests", "lies", "waits"),
    "plant": ("grows", "stands", "blooms"),
    "building": ("stands", "rises", "waits"),
    "vehicle": ("waits", "stands", "rests"),
    "boat": ("rests", "lies", "waits"),
    "flyer": ("rests", "waits", "stands"),
    "instrument": ("stands", "rests", "waits"),
    "object": ("rests", "stands", "sits"),
    "celestial": ("rests", "glows", "sits"),
}
PERCH_VERBS: dict[str, tuple[str, ...]] = {
    "beast": ("balances", "stands", "sits", "sleeps"),
    "bird": ("perches", "sits", "stands"),
    "bug": ("rests", "sits", "crawls"),
}
FLY_VERBS: dict[str, tuple[str, ...]] = {
    "bird": ("flies", "glides", "circles"),
    "bug": ("flutters", "drifts", "hovers"),
    "sea": ("swims", "drifts", "glides"),
    "flyer": ("drifts", "flies", "sails"),
    "boat": ("sails", "drifts", "floats"),
    "vehicle": ("drifts", "floats", "glides"),
    "beast": ("floats", "drifts", "hovers"),
    "building": ("floats", "drifts", "hovers"),
    "plant": ("floats", "drifts", "hovers"),
    "instrument": ("floats", "drifts", "hangs"),
    "object": ("floats", "drifts", "hangs"),
    "celestial": ("hangs", "glows", "floats"),
}
GROUND_OVER: dict[str, tuple[str, ...]] = {
    "sea": ("over a calm sea", "above the open sea"),
    "lake": ("over a mirror-still lake", "above a quiet lake"),
    "hills": ("over rolling hills", "above a valley of low hills"),
    "clouds": ("above a sea of clouds", "high over the clouds"),
    "dunes": ("over desert dunes", "above the sand dunes"),
    "snow": ("over a snowy plain", "above a frozen plain"),
}
BIG = ("giant", "huge", "enormous", "towering")
SMALL = ("tiny", "little", "small", "wee")


def article(noun: str, adjective: str = "") -> str:
    """"a tiny whale", "an owl", "Saturn", "the Earth"."""
    if noun in PROPER and not adjective:
        return "the Earth" if noun == "Earth" else noun
    if noun in PROPER:
        noun = f"planet {noun}" if noun != "Earth" else "Earth"
    phrase = f"{adjective} {noun}".strip()
    first = phrase[0].lower()
    return ("an " if first in "aeiou" and not phrase.startswith(("uni", "eu")) else "a ") \
        + phrase


def cap(text: str) -> str:
    return text[0].upper() + text[1:]


def verb(rng: random.Random, table: dict[str, tuple[str, ...]], item: Placement) -> str:
    return rng.choice(table.get(item.motif.kind, ("floats",)))


def _extra(rng: random.Random, scene: Scene, item: Placement) -> str:
    """A short second sentence for an optional small motif."""
    noun = item.motif.noun
    if item.role == "far":
        return rng.choice((
            f"Far away, {article(noun, rng.choice(('distant', 'small', 'pale')))} "
            f"{verb(rng, REST_VERBS, item)} on the horizon.",
            f"On the horizon stands {article(noun, 'faraway')}.",
        ))
    where = "among the stars" if scene.palette.night else "overhead"
    return rng.choice((
        f"{cap(article(noun, rng.choice(SMALL)))} {verb(rng, FLY_VERBS, item)} {where}.",
        f"High above, {article(noun)} {verb(rng, FLY_VERBS, item)} in the sky.",
        f"{cap(article(noun))} {verb(rng, FLY_VERBS, item)} across the sky.",
    ))


def describe(scene: Scene, rng: random.Random) -> str:
    """One or two sentences naming every motif, the ground and the mood."""
    roles = {p.role: p for p in scene.placements}
    mood, ground = scene.mood, scene.ground_phrase
    if scene.palette.body == "moon" and "moon" not in roles and rng.random() < 0.5:
        link = "and" if mood.startswith("under") else "under"
        mood = f"{mood} {link} a {rng.choice(('huge pale', 'full', 'low'))} moon"
    water = "the sea" if scene.ground == "sea" else "the lake"
    extras: list[Placement] = []
    recipe = scene.recipe
    text: str
    if recipe == "rider" and "giant" in roles and "rider" in roles:
        g, r = roles["giant"], roles["rider"]
        big, small = article(g.motif.noun, rng.choice(BIG)), article(r.motif.noun,
                                                                        rng.choice(SMALL))
        perch = verb(rng, PERCH_VERBS, r)
        text = rng.choice((
            f"{cap(small)} {perch} on {big} {ground} {mood}.",
            f"{cap(mood)}, {small} {perch} on top of {big} {ground}.",
            f"On {big} {ground}, {small} {perch} {mood}.",
        ))
        extras = [p for p in scene.placements if p.role == "floater"]
    elif recipe == "floating" and "floater" in roles:
        f = roles["floater"]
        big = article(f.motif.noun, rng.choice(BIG))
        low = roles.get("small")
        if low is not None:
            below = article(low.motif.noun, rng.choice(("small", "little", "lone")))
            over = rng.choice(GROUND_OVER[scene.ground])
            text = rng.choice((
                f"{cap(big)} floats in the sky {over} {mood} while {below} "
                f"{verb(rng, REST_VERBS, low)} below.",
                f"{cap(mood)}, {big} drifts in the air above {below} {ground}.",
                f"{cap(below)} {verb(rng, REST_VERBS, low)} {ground} {mood}, looking up "
                f"at {big} floating overhead.",
            ))
        else:
            text = f"{cap(big)} floats in the sky {rng.choice(GROUND_OVER[scene.ground])} " \
                f"{mood}."
        extras = [p for p in scene.placements if p.role == "far"]
    elif recipe == "moon" and "moon" in roles:
        m = roles["moon"]
        moon = article(m.motif.noun, rng.choice(("glowing", "pale", "shining", "")))
        ground_item = roles.get("giant")
        if ground_item is not None:
            thing = article(ground_item.motif.noun)
            rest = verb(rng, REST_VERBS, ground_item)
            text = rng.choice((
                f"{cap(moon)} hangs in the sky like a moon above {thing} {ground} {mood}.",
                f"{cap(mood)}, {thing} {rest} {ground} beneath {moon} that shines like the "
                f"moon.",
                f"{cap(moon)} rises in place of the moon; below it, {thing} {rest} {ground} "
                f"{mood}.",
            ))
        else:
            over = rng.choice(GROUND_OVER[scene.ground])
            text = f"{cap(moon)} hangs in the sky like a moon {over} {mood}."
        extras = [p for p in scene.placements if p.role == "flyer"]
    elif recipe == "wader" and "wader" in roles:
        w = roles["wader"]
        big = article(w.motif.noun, rng.choice(BIG))
        boat = roles.get("small")
        if boat is not None:
            little = article(boat.motif.noun, rng.choice(SMALL))
            text = rng.choice((
                f"{cap(big)} wades through {water} {mood}, with {little} floating beside it.",
                f"{cap(mood)}, {big} walks knee-deep in {water}; {little} bobs on the water "
                f"at its feet.",
                f"{cap(little)} floats on {water} {mood} next to {big} wading by.",
            ))
        else:
            text = f"{cap(big)} wades through {water} {mood}."
        extras = [p for p in scene.placements if p.role == "flyer"]
    elif recipe == "swap" and "giant" in roles:
        g = roles["giant"]
        big = article(g.motif.noun, rng.choice(BIG))
        far = roles.get("far")
        if far is not None:
            little = article(far.motif.noun, rng.choice(SMALL))
            text = rng.choice((
                f"{cap(big)} {verb(rng, REST_VERBS, g)} next to {little} {ground} {mood}.",
                f"{cap(mood)}, {big} towers over {little} {ground}.",
                f"{cap(little)} {verb(rng, REST_VERBS, far)} {ground} {mood}, dwarfed by "
                f"{big}.",
            ))
        else:
            text = f"{cap(big)} {verb(rng, REST_VERBS, g)} {ground} {mood}."
        extras = [p for p in scene.placements if p.role == "flyer"]
    elif recipe == "skyswim" and "flyer" in roles:
        f = roles["flyer"]
        flyer = article(f.motif.noun)
        fly = verb(rng, FLY_VERBS, f)
        base = roles.get("giant")
        if base is not None:
            thing = article(base.motif.noun)
            text = rng.choice((
                f"{cap(flyer)} {fly} through the sky above {thing} {ground} {mood}.",
                f"{cap(mood)}, {thing} {verb(rng, REST_VERBS, base)} {ground} while "
                f"{flyer} {fly} across the sky.",
                f"High over {thing} {ground}, {flyer} {fly} through the air {mood}.",
            ))
        else:
            over = rng.choice(GROUND_OVER[scene.ground])
            text = f"{cap(flyer)} {fly} through the sky {over} {mood}."
        extras = [p for p in scene.placements if p.role == "far"]
    else:
        nouns = [article(p.motif.noun) for p in scene.placements]
        joined = ", ".join(nouns[:-1]) + (" and " if len(nouns) > 1 else "") + nouns[-1]
        text = f"{cap(joined)} {ground} {mood}."
    for item in extras:
        text += " " + _extra(rng, scene, item)
    return " ".join(text.split())
