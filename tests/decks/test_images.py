"""Card pictures: only PNG, JPEG and WebP, within limits, upright, RGB, at most 1024 px."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from gametable.decks import images
from gametable.decks.images import DeckRefused, cached_thumbnail, prepare, thumbnail
from tests.decks.pictures import picture, png_claiming


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
def test_png_jpeg_and_webp_become_rgb_webp(fmt: str) -> None:
    stored = opened(prepare(picture(120, 80, fmt), f"cat.{fmt.lower()}"))
    assert stored.format == "WEBP" and stored.mode == "RGB" and stored.size == (120, 80)


def test_large_pictures_are_shrunk_to_1024_on_the_long_side() -> None:
    assert opened(prepare(picture(3000, 1500), "wide.png")).size == (1024, 512)
    assert opened(prepare(picture(900, 2048, "JPEG"), "tall.jpg")).size == (450, 1024)
    assert opened(prepare(picture(1024, 1024), "square.png")).size == (1024, 1024)


def test_exif_orientation_is_applied() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways: turn 90° clockwise to show
    data = picture(200, 100, "JPEG", color=(250, 250, 250), exif=exif.tobytes())
    stored = opened(prepare(data, "phone.jpg"))
    assert stored.size == (100, 200)
    # The dark quarter was top-left as stored; turned clockwise it is top-right.
    assert sum(stored.getpixel((90, 10))) < sum(stored.getpixel((10, 10)))  # type: ignore[arg-type]


def test_transparency_becomes_white() -> None:
    data = picture(40, 40, "PNG", color=(0, 0, 0, 0), mode="RGBA")
    stored = opened(prepare(data, "clear.png"))
    assert stored.mode == "RGB" and min(stored.getpixel((30, 30))) > 240  # type: ignore[arg-type]


def test_grey_and_palette_pictures_are_read() -> None:
    assert opened(prepare(picture(30, 20, mode="L"), "grey.png")).mode == "RGB"
    palette = Image.new("P", (30, 20))
    out = io.BytesIO()
    palette.save(out, "PNG", transparency=0)
    assert opened(prepare(out.getvalue(), "palette.png")).size == (30, 20)


def test_type_is_told_by_content_not_by_name() -> None:
    gif = picture(10, 10, "GIF")
    with pytest.raises(DeckRefused) as refused:
        prepare(gif, "renamed.png")
    assert refused.value.code == "bad_type" and "renamed.png" in str(refused.value)
    with pytest.raises(DeckRefused) as refused:
        prepare(b"just some text, not a picture", "notes.jpg")
    assert refused.value.code == "bad_type"
    # A real PNG called .jpg is fine.
    assert opened(prepare(picture(10, 10, "PNG"), "misnamed.jpg")).format == "WEBP"


def test_files_over_10_mb_are_refused_before_decoding() -> None:
    data = picture(10, 10) + b"\0" * (10 * 1024 * 1024)
    with pytest.raises(DeckRefused) as refused:
        prepare(data, "huge.png")
    assert refused.value.code == "too_big"
    assert refused.value.params["limit"] == "10"
    assert "huge.png" in str(refused.value) and "10 MB" in str(refused.value)


def test_pictures_over_40_megapixels_are_refused_from_the_header() -> None:
    with pytest.raises(DeckRefused) as refused:
        prepare(png_claiming(8000, 5001), "poster.png")
    assert refused.value.code == "too_many_pixels"
    assert refused.value.params == {"file": "poster.png", "width": 8000, "height": 5001,
                                    "limit": 40}
    assert "40 megapixels" in str(refused.value)


def test_the_pixel_limit_applies_to_real_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(images, "MAX_PIXELS", 10_000)
    with pytest.raises(DeckRefused) as refused:
        prepare(picture(200, 100), "photo.png")
    assert refused.value.code == "too_many_pixels"


def test_a_decompression_bomb_is_refused() -> None:
    bomb = png_claiming(50_000, 50_000)
    assert len(bomb) < 200
    with pytest.raises(DeckRefused) as refused:
        prepare(bomb, "bomb.png")
    assert refused.value.code == "image_bomb" and "bomb.png" in str(refused.value)
    assert Image.MAX_IMAGE_PIXELS == images.MAX_PIXELS


@pytest.mark.parametrize("damage", ["truncated", "garbage", "header_only"])
def test_damaged_files_are_refused_as_corrupt(damage: str) -> None:
    good = picture(300, 200, "PNG")
    data = {"truncated": good[: len(good) // 2],
            "garbage": good[:16] + bytes(range(256)) * 4,
            "header_only": good[:8]}[damage]
    with pytest.raises(DeckRefused) as refused:
        prepare(data, "broken.png")
    assert refused.value.code == "corrupt" and "broken.png" in str(refused.value)


def test_thumbnails_are_small_webp_and_made_once(tmp_path: Path) -> None:
    source = tmp_path / "card.webp"
    source.write_bytes(prepare(picture(1600, 1200), "big.png"))
    small = opened(thumbnail(source.read_bytes(), "card.webp"))
    assert small.format == "WEBP" and small.size == (320, 240)
    cache = tmp_path / "cache" / "0.webp"
    assert cached_thumbnail(source, cache, "card.webp") == cache
    made = cache.stat().st_mtime_ns
    source.unlink()  # the cached thumbnail no longer needs its source
    assert cached_thumbnail(source, cache, "card.webp") == cache
    assert cache.stat().st_mtime_ns == made
    assert [p.name for p in cache.parent.iterdir()] == ["0.webp"]
