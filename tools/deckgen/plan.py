"""Plan card scenes: pick a recipe, a mood, a ground and motifs from different worlds.

A recipe fixes the roles (a giant with a tiny rider, an object hanging like a moon, a
creature wading through the sea …) and which kinds of motif may take each role; the
planner fills the roles with the least-used motifs so the whole catalogue gets seen.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from .catalogue import Motif
from .compose import GROUND_PHRASES, PALETTES, WATER, Placement, Scene


@dataclass(frozen=True)
class Role:
    name: str
    kinds: tuple[str, ...]
    optional: float = 0.0  # chance of leaving the role out


RECIPES: dict[str, tuple[Role, ...]] = {
    "rider": (
        Role("giant", ("object", "instrument", "beast", "sea", "bug", "plant", "boat",
                       "vehicle")),
        Role("rider", ("beast", "bird", "bug")),
        Role("floater", ("flyer", "bird", "sea", "object", "celestial", "bug"), 0.35),
    ),
    "floating": (
        Role("floater", ("object", "instrument", "sea", "boat", "building", "beast",
                         "vehicle", "plant")),
        Role("small", ("beast", "bird", "building", "plant", "vehicle")),
        Role("far", ("building", "plant", "vehicle", "boat"), 0.5),
    ),
    "moon": (
        Role("moon", ("object", "instrument", "celestial", "sea", "bug", "flyer")),
        Role("giant", ("beast", "building", "plant", "vehicle", "bird", "boat")),
        Role("flyer", ("bird", "bug", "flyer"), 0.5),
    ),
    "wader": (
        Role("wader", ("beast", "bird")),
        Role("small", ("boat", "object", "instrument", "building", "vehicle")),
        Role("flyer", ("bird", "flyer", "bug", "sea", "celestial"), 0.45),
    ),
    "swap": (
        Role("giant", ("bug", "bird", "object", "instrument", "plant")),
        Role("far", ("building", "vehicle", "beast", "boat")),
        Role("flyer", ("flyer", "sea", "bird", "object", "celestial"), 0.4),
    ),
    "skyswim": (
        Role("flyer", ("sea", "boat", "vehicle", "beast", "building")),
        Role("giant", ("building", "plant", "beast", "object", "instrument")),
        Role("far", ("building", "plant", "vehicle", "boat", "beast"), 0.55),
    ),
}
RECIPE_WEIGHTS = {"rider": 5, "floating": 4, "moon": 4, "wader": 3, "swap": 4, "skyswim": 4}


class Picker:
    """Chooses motifs for roles, spreading use over nouns and their variants."""

    def __init__(self, motifs: Sequence[Motif]) -> None:
        self.by_kind: dict[str, dict[str, list[Motif]]] = defaultdict(lambda: defaultdict(list))
        for motif in motifs:
            self.by_kind[motif.kind][motif.noun].append(motif)
        self.noun_uses: dict[str, int] = defaultdict(int)
        self.motif_uses: dict[str, int] = defaultdict(int)

    def pick(self, rng: random.Random, kinds: Sequence[str], avoid_kinds: set[str],
             avoid_nouns: set[str]) -> Motif | None:
        options = [k for k in kinds if k in self.by_kind and k not in avoid_kinds] or \
            [k for k in kinds if k in self.by_kind]
        if not options:
            return None
        # Each kind weighs the square root of its number of nouns, so small kinds (boats,
        # sea creatures) are not overused; a noun's weight falls steeply with its uses.
        choices: list[tuple[str, str]] = []
        weights: list[float] = []
        for kind in sorted(options):
            nouns = [n for n in sorted(self.by_kind[kind]) if n not in avoid_nouns]
            for noun in nouns:
                choices.append((kind, noun))
                weights.append(1 / (math.sqrt(len(nouns)) * (1 + self.noun_uses[noun]) ** 3))
        if not choices:
            return None
        kind, noun = rng.choices(choices, weights=weights)[0]
        variants = self.by_kind[kind][noun]
        least = min(self.motif_uses[m.digest] for m in variants)
        motif = rng.choice([m for m in variants if self.motif_uses[m.digest] == least])
        self.noun_uses[noun] += 1
        self.motif_uses[motif.digest] += 1
        return motif


def plan(rng: random.Random, picker: Picker) -> Scene:
    """One card's scene."""
    recipe = rng.choices(sorted(RECIPE_WEIGHTS),
                         weights=[RECIPE_WEIGHTS[r] for r in sorted(RECIPE_WEIGHTS)])[0]
    palettes = [p for p in PALETTES if recipe != "wader" or set(p.grounds) & WATER]
    palette = rng.choice(palettes)
    grounds = [g for g in palette.grounds if recipe != "wader" or g in WATER]
    ground = rng.choice(grounds)
    scene = Scene(recipe=recipe, palette=palette, ground=ground,
                  mood=rng.choice(palette.moods), ground_phrase=rng.choice(GROUND_PHRASES[ground]),
                  horizon=rng.uniform(0.58, 0.68),
                  body_xy=(rng.uniform(0.22, 0.78), rng.uniform(0.14, 0.3)),
                  body_r=rng.uniform(0.06, 0.09))
    used_kinds: set[str] = set()
    used_nouns: set[str] = set()
    hy = scene.horizon
    side = rng.choice((-1, 1))
    placements: dict[str, Placement] = {}
    for role in RECIPES[recipe]:
        if role.optional and rng.random() < role.optional:
            continue
        motif = picker.pick(rng, role.kinds, used_kinds, used_nouns)
        if motif is None:
            continue
        used_kinds.add(motif.kind)
        used_nouns.add(motif.noun)
        item = Placement(motif=motif, role=role.name, height=0.2, flip=rng.random() < 0.5)
        water = ground in WATER
        if role.name == "giant" and recipe == "rider":
            item.height = rng.uniform(0.40, 0.52)
            item.x = rng.uniform(0.42, 0.58)
            item.base = hy + (rng.uniform(0.08, 0.14) if water else rng.uniform(0.14, 0.22))
        elif role.name == "giant" and recipe == "swap":
            item.height = rng.uniform(0.40, 0.52)
            item.x = 0.5 + side * rng.uniform(0.05, 0.14)
            item.base = hy + rng.uniform(0.16, 0.24)
        elif role.name == "giant":  # moon, skyswim: the thing on the ground
            item.height = rng.uniform(0.32, 0.44)
            item.x = 0.5 + side * rng.uniform(0.0, 0.18)
            item.base = hy + rng.uniform(0.16, 0.25)
        elif role.name == "rider":
            item.height = rng.uniform(0.12, 0.16)
            item.on = placements.get("giant")
        elif role.name == "floater" and recipe == "floating":
            item.height = rng.uniform(0.30, 0.42)
            item.x = rng.uniform(0.4, 0.6)
            item.base = hy * rng.uniform(0.72, 0.86)
            item.angle = rng.uniform(-14, 14)
        elif role.name == "floater":
            item.height = rng.uniform(0.12, 0.17)
            item.x = 0.5 - side * rng.uniform(0.22, 0.3)
            item.base = hy * rng.uniform(0.3, 0.45)
            item.angle = rng.uniform(-18, 18)
        elif role.name == "small":
            item.height = rng.uniform(0.16, 0.24) if recipe == "floating" else \
                rng.uniform(0.11, 0.15)
            item.x = 0.5 + side * rng.uniform(0.2, 0.28)
            item.base = hy + (rng.uniform(0.04, 0.09) if recipe == "wader"
                              else rng.uniform(0.18, 0.27))
        elif role.name == "far":
            item.height = rng.uniform(0.11, 0.15) if recipe == "swap" else \
                rng.uniform(0.08, 0.11)
            item.x = 0.5 - side * rng.uniform(0.2, 0.3)
            item.base = hy + rng.uniform(0.02, 0.05)
            item.depth = rng.uniform(0.2, 0.35)
        elif role.name == "moon":
            item.height = rng.uniform(0.15, 0.2)
            item.x = rng.uniform(0.32, 0.68)
            item.base = rng.uniform(0.12, 0.2) + item.height
            item.angle = rng.uniform(-12, 12)
            scene.body_xy = (item.x, item.base - item.height / 2)
            scene.body_r = item.height * HEIGHT_OVER_WIDTH * 0.5
        elif role.name == "wader":
            item.height = rng.uniform(0.5, 0.62)
            item.x = rng.uniform(0.4, 0.6)
            item.base = hy + rng.uniform(0.2, 0.27)
        elif role.name == "flyer" and recipe == "skyswim":
            item.height = rng.uniform(0.22, 0.32)
            item.x = rng.uniform(0.4, 0.6)
            item.base = hy * rng.uniform(0.55, 0.72)
            item.angle = rng.uniform(-12, 12)
        else:  # small flyer in the sky
            item.height = rng.uniform(0.09, 0.13)
            item.x = 0.5 - side * rng.uniform(0.2, 0.3)
            item.base = hy * rng.uniform(0.22, 0.42)
            item.angle = rng.uniform(-10, 10)
        placements[role.name] = item
        scene.placements.append(item)
    return scene


HEIGHT_OVER_WIDTH = 960 / 640
