"""Card pictures: only PNG, JPEG and WebP, within limits (pixels, and the memory decoding
takes), decoded no larger than needed, upright, RGB, at most 1024 px."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from gametable.decks import images
from gametable.decks.images import DeckRefused, prepare, prepare_card, thumbnail
from tests.decks.pictures import (
    deep_png,
    one_colour,
    picture,
    png_claiming,
    preparing_costs,
    webp_claiming,
)


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


def jpeg_claiming(width: int, height: int) -> bytes:
    """A whole 16 × 16 JPEG (it ends in its EOI marker) whose frame header claims
    ``width`` × ``height`` pixels."""
    data = bytearray(one_colour(16, 16, "JPEG", colour=(90, 120, 150)))
    frame = data.index(b"\xff\xc0")  # SOF0: length (2), precision (1), height, width
    data[frame + 5:frame + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    return bytes(data)


def test_a_jpeg_claiming_far_more_pixels_than_its_file_holds_is_refused() -> None:
    """docs/protocol.md: a 631-byte JPEG claiming 6000 × 6000 pixels (under the pixel
    limit) was accepted: the decoder filled what the file lacks with grey, a blank card.
    Even a picture all of one colour takes a byte for some 170 pixels."""
    claiming = jpeg_claiming(6000, 6000)
    assert len(claiming) < 1000
    with pytest.raises(DeckRefused) as refused:
        prepare(claiming, "claim.jpg")
    assert refused.value.code == "corrupt" and "claim.jpg" in str(refused.value)
    # The most a real picture of one colour packs in a byte is well within the bound.
    plain = one_colour(6000, 6000, "JPEG", colour=(0, 0, 0), quality=1, optimize=True)
    assert 6000 * 6000 / len(plain) < images.JPEG_PIXELS_PER_BYTE / 4
    assert opened(prepare(plain, "plain.jpg")).size == (1024, 1024)


def test_a_card_comes_with_its_thumbnail() -> None:
    card, thumb = prepare_card(picture(1600, 1200), "big.png")
    assert opened(card).size == (1024, 768)
    small = opened(thumb)
    assert small.format == "WEBP" and small.mode == "RGB" and small.size == (320, 240)
    assert opened(thumbnail(card, "card.webp")).size == (320, 240)
    assert opened(prepare_card(picture(200, 100), "small.png")[1]).size == (200, 100)


@pytest.mark.parametrize(("claim", "megabytes"), [
    (png_claiming(7280, 5460, depth=16), "152"),    # 39.7 MP 16-bit RGB: 4 bytes a pixel
    (png_claiming(6000, 6000, colour=6), "275"),    # 36 MP RGBA: reducing copies it (8)
    (webp_claiming(3000, 3000, alpha=False), "137"),  # 9 MP WebP: libwebp's canvases (16)
    (webp_claiming(7280, 5460), "758"),             # the 1.3 KB WebP bomb (20)
])
def test_pictures_that_take_too_much_memory_to_decode_are_refused_from_the_header(
        claim: bytes, megabytes: str) -> None:
    with pytest.raises(DeckRefused) as refused:
        prepare(claim, "huge")  # decoding these few bytes would fail: nothing was decoded
    error = refused.value
    assert error.code == "decoded_too_big" and error.status == 413
    assert error.params["size"] == megabytes and error.params["limit"] == "128"
    assert "huge" in str(error) and f"{megabytes} MB" in str(error) and "128 MB" in str(error)


def test_decoded_bytes_count_bytes_per_pixel_by_mode() -> None:
    assert images.decoded_bytes("PNG", "L", 1000, 1000) == 1_000_000
    assert images.decoded_bytes("PNG", "1", 1000, 1000) == 2_000_000
    assert images.decoded_bytes("PNG", "I;16", 1000, 1000) == 2_000_000
    assert images.decoded_bytes("PNG", "RGB", 1000, 1000) == 4_000_000
    assert images.decoded_bytes("PNG", "P", 1000, 1000) == 5_000_000
    assert images.decoded_bytes("PNG", "P", 1000, 1000, transparency=True) == 9_000_000
    assert images.decoded_bytes("PNG", "RGBA", 1000, 1000) == 8_000_000
    assert images.decoded_bytes("WEBP", "RGB", 1000, 1000) == 16_000_000
    assert images.decoded_bytes("JPEG", "CMYK", 1000, 1000) == 4_000_000


def test_grey_16_bit_and_palette_pictures_within_the_limit_are_read() -> None:
    deep = Image.new("I;16", (300, 200), 40000)
    out = io.BytesIO()
    deep.save(out, "PNG")
    stored = opened(prepare(out.getvalue(), "deep.png"))
    assert stored.mode == "RGB" and stored.size == (300, 200)
    assert 150 < stored.getpixel((10, 10))[0] < 160  # type: ignore[index]
    stored = opened(prepare(one_colour(4100, 2050, "PNG", mode="1"), "lines.png"))
    assert stored.size == (1024, 512) and stored.getpixel((5, 5)) == (255, 255, 255)


def test_a_16_bit_png_just_under_40_megapixels_costs_no_memory(tmp_path: Path) -> None:
    path = tmp_path / "deep.png"
    path.write_bytes(deep_png(7280, 5460))
    outcome, grown = preparing_costs(path)
    assert outcome == "decoded_too_big" and grown < 20


def test_a_big_picture_is_reduced_as_soon_as_it_is_decoded(tmp_path: Path) -> None:
    # 40 MP of 1 bit a pixel: 40 MB decoded, 40 MB more as grey; never as RGB (160 MB+).
    path = tmp_path / "lines.png"
    path.write_bytes(one_colour(7300, 5470, "PNG", mode="1", optimize=True))
    outcome, grown = preparing_costs(path)
    assert outcome == "ok" and grown < 120


def test_a_picture_with_transparency_costs_no_more_than_it_is_counted(
        tmp_path: Path) -> None:
    """An RGBA PNG of 16 megapixels, counted 128 MB (at the limit), took some 140 MB: a
    copy of it and one of its alpha on top of the white it is laid on. Ten clients
    uploading such pictures took the server past 500 MB (tests/server/test_upload_memory).
    It takes the white it is laid on beside it, no more (some 40–60 MB measured here)."""
    counted = images.decoded_bytes("PNG", "RGBA", 4000, 4000) / 1_000_000
    assert counted <= images.MAX_DECODED_BYTES / 1_000_000
    path = tmp_path / "alpha.png"
    path.write_bytes(one_colour(4000, 4000, "PNG", mode="RGBA", colour=(0, 0, 0, 0)))
    outcome, grown = preparing_costs(path)
    assert outcome == "ok" and grown < 0.75 * counted, (grown, counted)


def test_a_long_jpeg_is_decoded_at_a_reduced_scale(tmp_path: Path) -> None:
    # A 39 MP strip only 1000 pixels high: stored 1024 × 26, decoded at 1/8 scale.
    path = tmp_path / "strip.jpg"
    path.write_bytes(one_colour(39000, 1000, "JPEG", quality=30))
    assert opened(prepare(path.read_bytes(), "strip.jpg")).size == (1024, 26)
    outcome, grown = preparing_costs(path)
    assert outcome == "ok" and grown < 60
