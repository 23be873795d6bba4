"""The frame number drawn in the live test pattern reads back from what a tile shows:
after a real H.264 round trip (libx264 through PyAV), from any quarter or ninth of the
picture, scaled down or up, blurred, as a PNG screenshot."""

import io
from fractions import Fraction
from typing import Any

import av
import numpy as np
import pytest
from PIL import Image, ImageFilter

from tests.support.framecode import FrameMaker, Pattern, read_frame_number, read_position

pytestmark = pytest.mark.live

FIRST = 65530  # the 16-bit number wraps within the run


def i420_frame(data: bytes, width: int, height: int) -> av.VideoFrame:
    frame = av.VideoFrame(width, height, "yuv420p")
    sizes = (width * height, width * height // 4, width * height // 4)
    offset = 0
    for plane, size in zip(frame.planes, sizes, strict=True):
        rows = np.frombuffer(data, np.uint8, size, offset).reshape(-1, size // plane.height)
        padded = np.zeros((plane.height, plane.line_size), np.uint8)
        padded[:, : rows.shape[1]] = rows
        plane.update(padded.tobytes())
        offset += size
    return frame


def round_trip(width: int, height: int, count: int) -> list[Any]:
    """``count`` frames of the pattern at ``width`` x ``height`` through libx264 (zero
    latency, 4 bits a pixel a second: 0.9 Mbit/s at 640x360) and back: RGB arrays."""
    maker = FrameMaker(Pattern(width, height, 30))
    out = io.BytesIO()
    with av.open(out, "w", format="mpegts") as container:
        stream = container.add_stream("libx264", rate=30)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        stream.bit_rate = 4 * width * height
        stream.options = {"preset": "ultrafast", "tune": "zerolatency"}
        for i in range(count):
            frame = i420_frame(maker.frame(FIRST + i), width, height)
            frame.pts, frame.time_base = i, Fraction(1, 30)
            container.mux(stream.encode(frame))
        container.mux(stream.encode(None))
    out.seek(0)
    with av.open(out, mode="r", format="mpegts") as reading:
        return [f.to_ndarray(format="rgb24") for f in reading.decode(video=0)]


@pytest.fixture(scope="module")
def decoded() -> list[Any]:
    return round_trip(640, 360, 20)


def expected(i: int) -> int:
    return (FIRST + i) % 65536


def test_every_frame_reads_its_number(decoded: list[Any]) -> None:
    assert len(decoded) == 20
    assert [read_frame_number(rgb) for rgb in decoded] == [expected(i) for i in range(20)]


@pytest.mark.parametrize("grid", [2, 3])
def test_each_tile_of_a_wall_reads_the_number(decoded: list[Any], grid: int) -> None:
    w, h = 640 // grid, 360 // grid
    for i, rgb in enumerate(decoded):
        tiles = [(x * w, y * h, w, h) for y in range(grid) for x in range(grid)]
        assert {read_frame_number(rgb, tile) for tile in tiles} == {expected(i)}


@pytest.mark.parametrize("scale", [0.6, 1.5])
def test_a_scaled_and_blurred_quarter_reads_the_number(decoded: list[Any], scale: float) -> None:
    for i, rgb in enumerate(decoded):
        quarter = Image.fromarray(rgb[180:, 320:])
        size = (round(320 * scale), round(180 * scale))
        shown = quarter.resize(size, Image.Resampling.BILINEAR).filter(
            ImageFilter.GaussianBlur(0.7)
        )
        assert read_frame_number(np.asarray(shown)) == expected(i)


def test_every_ninth_of_a_1080p_picture_shown_at_half_size_reads_the_number() -> None:
    """A 3x3 wall of small tiles: each shows a ninth of the picture at 320x180."""
    for i, rgb in enumerate(round_trip(1920, 1080, 5)):
        for y in range(3):
            for x in range(3):
                ninth = Image.fromarray(rgb[y * 360 : (y + 1) * 360, x * 640 : (x + 1) * 640])
                tile = ninth.resize((320, 180), Image.Resampling.BILINEAR)
                assert read_frame_number(np.asarray(tile)) == expected(i), (i, x, y)


def test_a_png_screenshot_with_alpha_reads_the_number(decoded: list[Any]) -> None:
    png = io.BytesIO()
    Image.fromarray(decoded[5]).convert("RGBA").save(png, format="PNG")
    assert read_frame_number(png.getvalue()) == expected(5)


def test_the_tint_tells_which_part_of_the_picture_a_tile_shows(decoded: list[Any]) -> None:
    rgb = decoded[3]
    for col, row in [(0, 0), (1, 0), (0, 1), (1, 1)]:
        position = read_position(rgb, (col * 320, row * 180, 320, 180))
        assert position is not None, (col, row)
        x, y = position
        assert x == pytest.approx(0.25 + col / 2, abs=0.08)
        assert y == pytest.approx(0.25 + row / 2, abs=0.08)


def test_pictures_without_the_pattern_read_nothing(decoded: list[Any]) -> None:
    rng = np.random.default_rng(7)
    noise = rng.integers(0, 256, (360, 640, 3), dtype=np.uint8)
    blocks = np.kron(rng.integers(0, 2, (45, 80)), np.ones((8, 8))).astype(np.uint8) * 255
    assert read_frame_number(noise) is None
    assert read_frame_number(np.stack([blocks] * 3, axis=-1)) is None
    assert read_frame_number(np.full((360, 640, 3), 128, np.uint8)) is None
    assert read_frame_number(decoded[0][:40, :60]) is None  # too small a piece


def test_the_clock_says_when_a_read_number_was_made() -> None:
    pattern = Pattern(fps=30, origin=1000.0)
    now = 1000.0 + 70_000 / 30  # past a wrap of the 16 bits
    number = pattern.number_at(now) % 65536
    assert pattern.unwrap(number, now) == 70_000
    assert pattern.made_at(number, now) == pytest.approx(now)
