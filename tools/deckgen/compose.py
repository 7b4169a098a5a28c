"""Compose dreamlike card scenes from curated motifs.

Every card is a painted backdrop (a sky gradient with soft cloud noise, a sun or moon
with its halo, stars at night, a horizon over sea, lake, hills, dunes, snow or a floor
of clouds, and a band of fog) with two to four motifs from different worlds placed at
surprising scales. All motifs get one shared treatment so the deck reads as the work of
one artist: each is recoloured to a duotone in the card's palette (its own luminance,
contrast-stretched, mapped from the palette's ink to its paper colour and masked with
the rendered alpha), faded towards the haze with distance, and grounded by a contact
shadow, a rippled reflection in water, or a soft drop shadow or glow when it floats.
A paper grain, a vignette and a thin rounded frame finish the card.

Everything random is drawn from one :class:`random.Random`, so a seed fixes the deck.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageOps, ImageStat

from .catalogue import Motif

WIDTH, HEIGHT = 640, 960
MARGIN = 26  # px kept clear inside the frame

RGB = tuple[int, int, int]


def hex_rgb(value: str) -> RGB:
    value = value.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def luma(c: RGB) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


@dataclass(frozen=True)
class Palette:
    """A mood: sky and ground colours, the light, and the motif duotone."""

    name: str
    moods: tuple[str, ...]  # phrases used in descriptions ("at dusk")
    sky: tuple[str, str, str]  # zenith, middle, horizon
    ground: tuple[str, str]  # far, near
    light: str  # sun or moon disc
    ink: str  # darkest motif tone
    paper: str  # lightest motif tone
    accent: str  # middle motif tone, tints the duotone
    night: bool = False
    body: str = "sun"  # "sun", "moon" or "none"
    grounds: tuple[str, ...] = ("sea", "lake", "hills", "clouds", "dunes")
    clouds: float = 0.25  # strength of the sky's cloud noise

    def rgb(self, attr: str) -> RGB:
        """A colour attribute as RGB (the first one for sky and ground)."""
        value = getattr(self, attr)
        return hex_rgb(value[0] if isinstance(value, tuple) else str(value))


PALETTES: tuple[Palette, ...] = (
    Palette("dawn", ("at dawn", "at first light", "as the day breaks"),
            ("#34406e", "#b47a98", "#f7cfa6"), ("#9a7a96", "#3d3458"), "#fff3dc",
            "#2a2442", "#fde9d6", "#b9788f"),
    Palette("dusk", ("at dusk", "at sunset", "as the sun goes down"),
            ("#1f2a55", "#8a2f5c", "#ffa06c"), ("#6a2d4f", "#231630"), "#ffe1a8",
            "#1c1028", "#ffd9b8", "#c0506a"),
    Palette("night", ("at night", "under the stars", "in the moonlight"),
            ("#060a1e", "#15264d", "#34507f"), ("#1d2e4f", "#0a1126"), "#f6f2da",
            "#1b2a4e", "#e3ecf8", "#7d93bf", night=True, body="moon"),
    Palette("mist", ("in the morning mist", "in a pale fog", "on a misty morning"),
            ("#8fa6ad", "#c5d1cb", "#ebe8dc"), ("#a3ada3", "#66756f"), "#fffbea",
            "#26343b", "#eef3ec", "#7f958f", grounds=("sea", "lake", "hills", "clouds")),
    Palette("storm", ("under a storm sky", "as a storm gathers", "in the grey of a storm"),
            ("#22272d", "#48545e", "#8e9ca0"), ("#3a464c", "#1b2226"), "#e9f1f0",
            "#121619", "#e4ecea", "#6d7f86", body="none", clouds=0.55,
            grounds=("sea", "hills", "dunes", "lake")),
    Palette("golden", ("on a golden afternoon", "in the late afternoon sun",
                       "in the warm evening light"),
            ("#3e79a8", "#9fc6d6", "#f4e2b0"), ("#c7a060", "#6b5532"), "#fffadf",
            "#33261a", "#fff4da", "#b78b52"),
    Palette("twilight", ("in the blue hour", "at twilight", "as the night falls"),
            ("#0e1a3e", "#3a4e8d", "#ab9dd3"), ("#302e5c", "#15142e"), "#fbf4ff",
            "#15133a", "#efe8ff", "#7a6fb3", body="moon"),
    Palette("aurora", ("under the northern lights", "beneath a green aurora",
                       "on an aurora night"),
            ("#031017", "#0c2a33", "#1e4b48"), ("#173a3a", "#061516"), "#effff6",
            "#0b2126", "#dcfff0", "#4f9f8c", night=True, body="none",
            grounds=("sea", "lake", "hills", "snow", "clouds")),
    Palette("winter", ("on a winter morning", "in the cold winter light",
                       "on a frosty morning"),
            ("#7992b3", "#c2d0e0", "#eef2f6"), ("#dbe3ec", "#a9b8ca"), "#ffffff",
            "#26354c", "#ffffff", "#7f94b3", grounds=("snow", "lake", "hills")),
    Palette("ember", ("under a burning sky", "in the heat of the afternoon",
                      "beneath a copper sky"),
            ("#b6503a", "#e49a5e", "#f6d6a0"), ("#d49758", "#97492f"), "#fff6e2",
            "#3a160e", "#fff0dc", "#c8683e", grounds=("dunes", "sea", "hills")),
)

GROUND_PHRASES: dict[str, tuple[str, ...]] = {
    "sea": ("on a calm sea", "over the open sea", "on the still sea"),
    "lake": ("on a mirror-still lake", "on a quiet lake", "on a lake as smooth as glass"),
    "hills": ("among rolling hills", "on the soft hills", "in a valley of low hills"),
    "clouds": ("above a sea of clouds", "over a floor of clouds", "high above the clouds"),
    "dunes": ("among desert dunes", "over sand dunes", "in a desert of dunes"),
    "snow": ("on a snowy plain", "across a field of snow", "on a frozen plain"),
}
WATER = frozenset({"sea", "lake"})


@dataclass
class Placement:
    """One motif on a card: its role, size and where it stands."""

    motif: Motif
    role: str  # giant, rider, floater, moon, small, far, wader, flyer
    height: float  # fraction of the card height
    x: float = 0.5  # centre, fraction of the card width
    base: float = 0.8  # bottom edge, fraction of the card height
    angle: float = 0.0
    depth: float = 0.0  # 0 near … 1 far (haze)
    flip: bool = False
    on: Placement | None = None  # the motif it stands on (riders)


@dataclass
class Scene:
    """Everything needed to paint a card and to describe it."""

    recipe: str
    palette: Palette
    ground: str
    mood: str
    ground_phrase: str
    horizon: float  # fraction of the card height
    placements: list[Placement] = field(default_factory=list)
    body_xy: tuple[float, float] = (0.7, 0.2)
    body_r: float = 0.07


# --------------------------------------------------------------------------- textures

def noise(rng: random.Random, size: tuple[int, int], cells: tuple[int, int]) -> Image.Image:
    """Smooth value noise: a grid of random bytes upscaled bicubically (``L``)."""
    cw, ch = max(2, cells[0]), max(2, cells[1])
    grid = Image.frombytes("L", (cw, ch), rng.randbytes(cw * ch))
    return grid.resize(size, Image.Resampling.BICUBIC)


def fractal(rng: random.Random, size: tuple[int, int], base: int, octaves: int = 4,
            stretch: float = 1.0) -> Image.Image:
    """Sum of noise octaves, autocontrasted (``L``)."""
    out = noise(rng, size, (base, max(2, round(base * size[1] / size[0] / stretch))))
    weight = 0.5
    cells = base
    for _ in range(octaves - 1):
        cells *= 2
        layer = noise(rng, size, (cells, max(2, round(cells * size[1] / size[0] / stretch))))
        out = Image.blend(out, layer, weight)
        weight *= 0.5
    return ImageOps.autocontrast(out, cutoff=1)


def gradient(stops: Sequence[tuple[float, RGB]], size: tuple[int, int]) -> Image.Image:
    """A vertical gradient through colour stops at fractions of the height."""
    width, height = size
    column = Image.new("RGB", (1, height))
    pixels = []
    for y in range(height):
        t = y / max(1, height - 1)
        for (p0, c0), (p1, c1) in itertools.pairwise(stops):
            if p0 <= t <= p1:
                pixels.append(mix(c0, c1, (t - p0) / max(1e-6, p1 - p0)))
                break
        else:
            pixels.append(stops[0][1] if t < stops[0][0] else stops[-1][1])
    column.putdata(pixels)
    return column.resize((width, height))


def solid(colour: RGB, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    return Image.new("RGB", size, colour)


def paste_colour(canvas: Image.Image, colour: RGB, mask: Image.Image,
                 at: tuple[int, int] = (0, 0)) -> None:
    canvas.paste(solid(colour, mask.size), at, mask)


def radial(size: tuple[int, int], centre: tuple[float, float], radius: float,
           power: float = 2.0) -> Image.Image:
    """``L`` image: 255 at ``centre`` falling to 0 at ``radius`` (pixels)."""
    small = (max(8, size[0] // 8), max(8, size[1] // 8))
    cx, cy, r = centre[0] / 8, centre[1] / 8, max(1.0, radius / 8)
    values = bytearray()
    for y in range(small[1]):
        for x in range(small[0]):
            d = math.hypot(x - cx, y - cy) / r
            values.append(round(255 * max(0.0, 1 - d) ** power))
    return Image.frombytes("L", small, bytes(values)).resize(size, Image.Resampling.BICUBIC)


# --------------------------------------------------------------------------- backdrop

def ridge(rng: random.Random, base_y: float, amplitude: float, waves: int) -> list[float]:
    """Heights (px) of a hill line across the card, a sum of seeded sines."""
    phases = [rng.uniform(0, math.tau) for _ in range(3)]
    freqs = [waves * rng.uniform(0.7, 1.3), waves * rng.uniform(1.8, 2.6),
             waves * rng.uniform(4.0, 6.0)]
    weights = [1.0, 0.35, 0.12]
    line = []
    for x in range(WIDTH + 1):
        t = x / WIDTH
        v = sum(w * math.sin(math.tau * f * t + p)
                for w, f, p in zip(weights, freqs, phases, strict=True))
        line.append(base_y - amplitude * (0.5 + 0.5 * v / 1.47))
    return line


def ridge_mask(line: Sequence[float]) -> Image.Image:
    mask = Image.new("L", (WIDTH, HEIGHT), 0)
    points = [(float(x), y) for x, y in enumerate(line)]
    points += [(WIDTH, HEIGHT), (0, HEIGHT)]
    ImageDraw.Draw(mask).polygon(points, fill=255)
    return mask


def paint_sky(rng: random.Random, scene: Scene) -> Image.Image:
    pal = scene.palette
    top, middle, low = (hex_rgb(c) for c in pal.sky)
    hy = scene.horizon
    sky = gradient([(0.0, top), (hy * 0.55, middle), (hy, low), (1.0, low)], (WIDTH, HEIGHT))
    # Clouds: stretched fractal noise, lighter and darker than the sky.
    clouds = fractal(rng, (WIDTH, HEIGHT), 3, octaves=5, stretch=0.3)
    lift = clouds.point(lambda v: max(0, v - 140) * 2)
    shade = clouds.point(lambda v: max(0, 110 - v) * 2)
    strength = pal.clouds
    sky = Image.composite(solid(mix(low, (255, 255, 255), 0.35)), sky,
                          lift.point(lambda v: round(v * strength)))
    sky = Image.composite(solid(mix(top, (0, 0, 0), 0.25)), sky,
                          shade.point(lambda v: round(v * strength * 0.7)))
    if pal.name == "aurora":
        band = fractal(rng, (WIDTH, HEIGHT), 2, octaves=3, stretch=0.25)
        curtain = Image.new("L", (WIDTH, HEIGHT), 0)
        draw = ImageDraw.Draw(curtain)
        y0 = HEIGHT * rng.uniform(0.14, 0.26)
        phase = rng.uniform(0, math.tau)
        for x in range(WIDTH):
            yc = y0 + HEIGHT * 0.07 * math.sin(x / WIDTH * math.tau * 0.8 + phase)
            draw.line([(x, yc - HEIGHT * 0.02), (x, yc + HEIGHT * 0.2)], fill=150)
        curtain = curtain.filter(ImageFilter.GaussianBlur(30))
        curtain = ImageChops.multiply(curtain, band)
        sky = Image.composite(solid(hex_rgb("#7dffc0")), sky, curtain)
    if pal.night:
        stars = Image.new("L", (WIDTH, HEIGHT), 0)
        draw = ImageDraw.Draw(stars)
        for _ in range(rng.randint(160, 240)):
            sx, sy = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT * hy)
            r = rng.choice((0.6, 0.8, 1.0, 1.0, 1.4, 1.9))
            draw.ellipse([sx - r, sy - r, sx + r, sy + r], fill=rng.randint(110, 255))
        fade = gradient([(0, (255, 255, 255)), (hy, (40, 40, 40)), (1, (0, 0, 0))],
                        (WIDTH, HEIGHT)).convert("L")
        stars = ImageChops.multiply(stars, fade)
        sky = Image.composite(solid((255, 252, 235)), sky, stars)
    return sky


def paint_body(rng: random.Random, scene: Scene, canvas: Image.Image,
               *, disc: bool = True) -> None:
    """The sun or moon with a wide halo (or only the halo, behind a moon-like motif)."""
    pal = scene.palette
    light = pal.rgb("light")
    cx, cy = scene.body_xy[0] * WIDTH, scene.body_xy[1] * HEIGHT
    r = scene.body_r * WIDTH
    halo = radial((WIDTH, HEIGHT), (cx, cy), r * 5.5, power=2.2)
    paste_colour(canvas, light, halo.point(lambda v: round(v * 0.55)))
    if not disc:
        return
    mask = Image.new("L", (WIDTH, HEIGHT), 0)
    ImageDraw.Draw(mask).ellipse([cx - r, cy - r, cx + r, cy + r], fill=235)
    if pal.body == "moon" and rng.random() < 0.45:
        off = r * rng.uniform(0.45, 0.7)
        ImageDraw.Draw(mask).ellipse([cx - r + off, cy - r - off * 0.3, cx + r + off,
                                      cy + r - off * 0.3], fill=0)
    mask = mask.filter(ImageFilter.GaussianBlur(1.2))
    if pal.body == "moon":
        craters = noise(rng, (WIDTH, HEIGHT), (24, 36)).point(lambda v: 40 if v > 170 else 0)
        face = Image.composite(solid(mix(light, pal.rgb("accent"), 0.35)), solid(light),
                               craters.filter(ImageFilter.GaussianBlur(3)))
        canvas.paste(face, (0, 0), mask)
    else:
        paste_colour(canvas, light, mask)


def paint_ground(rng: random.Random, scene: Scene, canvas: Image.Image) -> None:
    pal = scene.palette
    far, near = pal.rgb("ground"), mix(pal.rgb("ground"), pal.rgb("ink"), 0.35)
    near = mix(near, hex_rgb(pal.ground[1]), 0.6)
    low_sky = hex_rgb(pal.sky[2])
    hy = round(scene.horizon * HEIGHT)
    if scene.ground in WATER:
        water_top = mix(low_sky, far, 0.35)
        water = gradient([(0, water_top), (0.35, mix(far, near, 0.4)), (1, near)],
                         (WIDTH, HEIGHT - hy))
        streaks = fractal(rng, (WIDTH, HEIGHT - hy), 2, octaves=4, stretch=0.08)
        amount = 0.10 if scene.ground == "lake" else 0.22
        water = Image.composite(solid(mix(low_sky, (255, 255, 255), 0.2), water.size), water,
                                streaks.point(lambda v: round(max(0, v - 150) * amount * 2.4)))
        water = Image.composite(solid(mix(near, (0, 0, 0), 0.3), water.size), water,
                                streaks.point(lambda v: round(max(0, 90 - v) * amount * 2)))
        canvas.paste(water, (0, hy))
        if pal.body != "none":
            # The light's path on the water.
            path = Image.new("L", (WIDTH, HEIGHT), 0)
            draw = ImageDraw.Draw(path)
            cx = scene.body_xy[0] * WIDTH
            for _ in range(260):
                y = rng.uniform(hy + 2, HEIGHT)
                spread = 18 + (y - hy) * 0.35
                x = rng.gauss(cx, spread * 0.6)
                length = rng.uniform(6, 24) * (0.4 + (y - hy) / HEIGHT * 2)
                draw.line([(x - length, y), (x + length, y)], fill=rng.randint(60, 170),
                          width=1)
            path = path.filter(ImageFilter.GaussianBlur(0.8))
            paste_colour(canvas, pal.rgb("light"), path)
        return
    if scene.ground == "clouds":
        for i, (level, tone) in enumerate(((hy - 20, 0.15), (hy + 70, 0.35), (hy + 190, 0.6))):
            mask = Image.new("L", (WIDTH, HEIGHT), 0)
            draw = ImageDraw.Draw(mask)
            x = -40.0
            while x < WIDTH + 40:
                r = rng.uniform(40, 95) * (1 + i * 0.3)
                draw.ellipse([x - r, level - r * 0.55, x + r, level + r * 0.9], fill=255)
                x += r * rng.uniform(0.8, 1.3)
            draw.rectangle([0, level + 20, WIDTH, HEIGHT], fill=255)
            mask = mask.filter(ImageFilter.GaussianBlur(6 + i * 2))
            top = mix(low_sky, (255, 255, 255), 0.3 - i * 0.05)
            body = gradient([(0, top), (1, mix(top, pal.rgb("accent"), 0.35 + tone * 0.3))],
                            (WIDTH, HEIGHT))
            canvas.paste(body, (0, 0), mask)
        return
    layers = {"hills": ((0.09, 1.6), (0.05, 1.0), (0.02, 0.7)),
              "dunes": ((0.05, 1.1), (0.035, 0.8), (0.02, 0.5)),
              "snow": ((0.06, 1.4), (0.025, 0.9), (0.012, 0.6))}[scene.ground]
    if scene.ground == "snow":
        far = mix(far, (255, 255, 255), 0.2)
    for i, (amp, waves) in enumerate(layers):
        t = i / (len(layers) - 1)
        y = hy + t * HEIGHT * 0.09
        line = ridge(rng, y, amp * HEIGHT, max(1, round(waves + rng.random())))
        colour_top = mix(mix(low_sky, far, 0.55), near, t * 0.85)
        colour_bottom = mix(colour_top, mix(near, (0, 0, 0), 0.15), 0.6)
        body = gradient([(0, colour_top), (scene.horizon, colour_top), (1, colour_bottom)],
                        (WIDTH, HEIGHT))
        texture = fractal(rng, (WIDTH, HEIGHT), 6, octaves=3, stretch=0.5)
        body = Image.composite(solid(mix(colour_top, (255, 255, 255), 0.12)), body,
                               texture.point(lambda v: max(0, v - 150)))
        canvas.paste(body, (0, 0), ridge_mask(line).filter(ImageFilter.GaussianBlur(0.8)))


def paint_fog(rng: random.Random, scene: Scene, canvas: Image.Image, strength: float) -> None:
    hy = scene.horizon * HEIGHT
    band = Image.new("L", (1, HEIGHT))
    band.putdata([round(255 * strength * math.exp(-(((y - hy) / (HEIGHT * 0.07)) ** 2)))
                  for y in range(HEIGHT)])
    band = band.resize((WIDTH, HEIGHT))
    wisps = fractal(rng, (WIDTH, HEIGHT), 3, octaves=4, stretch=0.3)
    mask = ImageChops.multiply(band, wisps.point(lambda v: 90 + v * 165 // 255))
    paste_colour(canvas, mix(hex_rgb(scene.palette.sky[2]), (255, 255, 255), 0.25), mask)


# --------------------------------------------------------------------------- motifs

def duotone(motif: Image.Image, pal: Palette, depth: float) -> Image.Image:
    """The shared treatment: luminance → ink/accent/paper ramp, hazed with depth."""
    alpha = motif.getchannel("A")
    grey = Image.new("RGB", motif.size, (255, 255, 255))
    grey.paste(motif.convert("RGB"), (0, 0), alpha)
    lum = grey.convert("L")
    # Stretch the motif's own tones (alpha-weighted percentiles) to the full ramp.
    hist = lum.histogram(mask=alpha.point(lambda v: 255 if v > 128 else 0))
    total = sum(hist) or 1
    low, high, seen = 0, 255, 0
    for value, count in enumerate(hist):
        seen += count
        if seen <= total * 0.02:
            low = value
        if seen <= total * 0.985:
            high = value
    high = max(high, low + 40)
    span = high - low
    ink, accent, paper = pal.rgb("ink"), pal.rgb("accent"), pal.rgb("paper")
    haze = mix(hex_rgb(pal.sky[2]), paper, 0.3)
    ramp: list[RGB] = []
    for v in range(256):
        t = min(1.0, max(0.0, (v - low) / span)) ** 0.9
        colour = mix(ink, accent, t / 0.55) if t < 0.55 else mix(accent, paper,
                                                                    (t - 0.55) / 0.45)
        ramp.append(mix(colour, haze, depth))
    channels = [lum.point([c[i] for c in ramp]) for i in range(3)]
    out = Image.merge("RGB", channels)
    result = out.convert("RGBA")
    result.putalpha(alpha)
    return result


def sized(motif: Motif, height_px: float, max_width: float, max_height: float) -> Image.Image:
    image = motif.image()
    # Partly normalise by area so wide motifs are not huge nor tall ones spindly.
    h = min(height_px / motif.aspect ** 0.35, max_height)
    w = h * motif.aspect
    if w > max_width:
        w, h = max_width, max_width / motif.aspect
    return image.resize((max(4, round(w)), max(4, round(h))), Image.Resampling.LANCZOS)


def glow(alpha: Image.Image, radius: float, spread: int = 0) -> Image.Image:
    pad = round(radius * 3) + spread
    canvas = Image.new("L", (alpha.width + 2 * pad, alpha.height + 2 * pad), 0)
    canvas.paste(alpha, (pad, pad))
    if spread:
        canvas = canvas.filter(ImageFilter.MaxFilter(spread * 2 + 1))
    return canvas.filter(ImageFilter.GaussianBlur(radius))


def top_at(alpha: Image.Image, x: int) -> int:
    """The first opaque row of column ``x`` (or the image height)."""
    column = alpha.crop((x, 0, x + 1, alpha.height)).tobytes()
    for y, value in enumerate(column):
        if value > 140:
            return y
    return alpha.height


def region_luma(canvas: Image.Image, box: tuple[int, int, int, int],
                mask: Image.Image) -> float:
    return float(ImageStat.Stat(canvas.crop(box).convert("L"), mask).mean[0])


@dataclass
class Drawn:
    """Where a motif ended up on the card (pixels)."""

    image: Image.Image
    left: int
    top: int

    @property
    def box(self) -> tuple[int, int, int, int]:
        return (self.left, self.top, self.left + self.image.width,
                self.top + self.image.height)


def place(canvas: Image.Image, scene: Scene, item: Placement, rng: random.Random,
          drawn: dict[int, Drawn]) -> None:
    pal = scene.palette
    max_w = (WIDTH - 2 * MARGIN) * (0.92 if item.role in ("giant", "wader") else 0.6)
    art = sized(item.motif, item.height * HEIGHT, max_w, HEIGHT * 0.72)
    if item.flip:
        art = ImageOps.mirror(art)
    art = duotone(art, pal, item.depth)
    if item.angle:
        art = art.rotate(item.angle, resample=Image.Resampling.BICUBIC, expand=True)
        box = art.getchannel("A").getbbox()
        if box:
            art = art.crop(box)
    w, h = art.size
    if item.on is not None and id(item.on) in drawn:
        host = drawn[id(item.on)]
        alpha = host.image.getchannel("A")
        lo, hi = round(host.image.width * 0.3), round(host.image.width * 0.7)
        tops = {c: top_at(alpha, c) for c in range(lo, max(lo + 1, hi), 3)}
        highest = min(tops.values())
        # Stand on the host's top edge: its highest point or another column close to it.
        near_top = [c for c, t in tops.items() if t <= highest + host.image.height * 0.12]
        column = rng.choice(near_top)
        cx: float = host.left + column
        bottom: float = host.top + tops[column] + max(2, round(h * 0.04))
    else:
        cx = item.x * WIDTH
        bottom = item.base * HEIGHT
    left = round(cx - w / 2)
    top = round(bottom - h)
    left = min(max(left, MARGIN), WIDTH - MARGIN - w)
    top = min(max(top, MARGIN + 4), HEIGHT - MARGIN - h)
    alpha = art.getchannel("A")
    grounded = item.role in ("giant", "small", "far", "wader") and item.on is None
    water = scene.ground in WATER
    if grounded and water:
        reflection = ImageOps.flip(art)
        squash = max(4, round(h * 0.55))
        reflection = reflection.resize((w, squash))
        fade = gradient([(0, (120, 120, 120)), (1, (0, 0, 0))], (w, squash)).convert("L")
        ra = ImageChops.multiply(reflection.getchannel("A"), fade)
        # Ripples: shift thin strips sideways.
        rippled = Image.new("RGBA", reflection.size, (0, 0, 0, 0))
        rippled_alpha = Image.new("L", reflection.size, 0)
        phase = rng.uniform(0, math.tau)
        for y in range(0, squash, 3):
            dx = round(3 * math.sin(y * 0.35 + phase) * (0.4 + y / squash))
            rippled.paste(reflection.crop((0, y, w, y + 3)), (dx, y))
            rippled_alpha.paste(ra.crop((0, y, w, y + 3)), (dx, y))
        rippled.putalpha(rippled_alpha.filter(ImageFilter.GaussianBlur(1.2)))
        canvas.paste(rippled.convert("RGB"), (left, top + h), rippled.getchannel("A"))
    elif grounded:
        shadow = Image.new("L", (round(w * 1.3), max(6, round(h * 0.12))), 0)
        ImageDraw.Draw(shadow).ellipse([0, 0, shadow.width - 1, shadow.height - 1],
                                       fill=round(150 * (1 - item.depth * 0.6)))
        shadow = shadow.filter(ImageFilter.GaussianBlur(max(2, h * 0.03)))
        paste_colour(canvas, mix(pal.rgb("ink"), pal.rgb("ground"), 0.3), shadow,
                     (left - round(w * 0.15), top + h - shadow.height // 2))
    # Separate the motif from what is behind it: a glow or a shadow, stronger when the
    # two are close in tone.
    behind = region_luma(canvas, (left, top, left + w, top + h), alpha)
    mine = float(ImageStat.Stat(art.convert("L"), alpha).mean[0])
    weak = abs(behind - mine) < 55
    darker = mine < behind
    halo = glow(alpha, max(6, h * 0.05), spread=2)
    pad = (halo.width - w) // 2
    if weak and darker:
        paste_colour(canvas, pal.rgb("paper"), halo.point(lambda v: v * 60 // 100),
                     (left - pad, top - pad))
    elif weak:
        paste_colour(canvas, mix(pal.rgb("ink"), (0, 0, 0), 0.3),
                     halo.point(lambda v: v * 55 // 100), (left - pad, top - pad))
    elif pal.night or item.role == "moon":
        paste_colour(canvas, mix(pal.rgb("accent"), pal.rgb("paper"), 0.5),
                     halo.point(lambda v: v * 35 // 100), (left - pad, top - pad))
    elif not grounded:
        shadow = glow(alpha, max(4, h * 0.025), spread=1)
        spad = (shadow.width - w) // 2
        offset = round(max(4, h * 0.03))
        paste_colour(canvas, mix(pal.rgb("ink"), (0, 0, 0), 0.3),
                     shadow.point(lambda v: v * 32 // 100),
                     (left - spad + offset // 2, top - spad + offset))
    canvas.paste(art.convert("RGB"), (left, top), alpha)
    if item.role == "wader" and water:
        # The sea closes over the motif's lower part.
        hy = round(scene.horizon * HEIGHT)
        water_line = max(hy + 4, top + round(h * 0.78))
        band = Image.new("L", (WIDTH, HEIGHT), 0)
        ImageDraw.Draw(band).rectangle([0, water_line, WIDTH, HEIGHT], fill=255)
        cover = Image.new("L", (WIDTH, HEIGHT), 0)
        cover.paste(alpha, (left, top))
        cover = ImageChops.multiply(cover, band.filter(ImageFilter.GaussianBlur(3)))
        surface = solid(mix(hex_rgb(pal.ground[0]), hex_rgb(pal.sky[2]), 0.3))
        canvas.paste(surface, (0, 0), cover.point(lambda v: round(v * 0.78)))
        foam = Image.new("L", (WIDTH, HEIGHT), 0)
        ImageDraw.Draw(foam).line([(left - 12, water_line), (left + w + 12, water_line)],
                                  fill=200, width=3)
        paste_colour(canvas, pal.rgb("paper"), foam.filter(ImageFilter.GaussianBlur(2)))
    drawn[id(item)] = Drawn(art, left, top)


# --------------------------------------------------------------------------- finish

def finish(rng: random.Random, canvas: Image.Image, pal: Palette) -> Image.Image:
    """Paper grain, vignette and a thin rounded frame over the whole card."""
    grain = noise(rng, (WIDTH // 2, HEIGHT // 2), (WIDTH // 2, HEIGHT // 2)).resize(
        (WIDTH, HEIGHT), Image.Resampling.BILINEAR)
    paper = fractal(rng, (WIDTH, HEIGHT), 12, octaves=3)
    texture = Image.blend(grain, paper, 0.45)
    light = texture.point(lambda v: max(0, v - 150) // 5)
    dark = texture.point(lambda v: max(0, 105 - v) // 5)
    canvas = Image.composite(solid((255, 250, 240)), canvas, light)
    canvas = Image.composite(solid((20, 14, 10)), canvas, dark)
    vignette = radial((WIDTH, HEIGHT), (WIDTH / 2, HEIGHT * 0.46), HEIGHT * 0.78, power=1.0)
    vignette = vignette.point(lambda v: round(max(0, 200 - v * 1.25)))
    canvas = Image.composite(solid(mix(pal.rgb("ink"), (0, 0, 0), 0.5)), canvas, vignette)
    frame = Image.new("L", (WIDTH, HEIGHT), 0)
    ImageDraw.Draw(frame).rounded_rectangle([14, 14, WIDTH - 15, HEIGHT - 15], radius=26,
                                            outline=255, width=2)
    paste_colour(canvas, mix(pal.rgb("paper"), pal.rgb("light"), 0.5),
                 frame.point(lambda v: v * 55 // 100))
    return canvas


def paint(scene: Scene, rng: random.Random) -> Image.Image:
    """Paint the whole card for ``scene``."""
    canvas = paint_sky(rng, scene)
    moon_motif = any(p.role == "moon" for p in scene.placements)
    if scene.palette.body != "none" or moon_motif:
        paint_body(rng, scene, canvas, disc=not moon_motif and scene.palette.body != "none")
    paint_fog(rng, scene, canvas, 0.35 if scene.palette.name != "mist" else 0.7)
    paint_ground(rng, scene, canvas)
    paint_fog(rng, scene, canvas, 0.25 if scene.palette.name != "mist" else 0.55)
    drawn: dict[int, Drawn] = {}
    order = sorted(scene.placements,
                   key=lambda p: (p.role not in ("moon", "far"), p.on is not None, p.base))
    for item in order:
        place(canvas, scene, item, rng, drawn)
    return finish(rng, canvas, scene.palette)
