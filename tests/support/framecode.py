"""A frame-numbered test picture for live streams, and its reader.

Every frame carries its number (16 bits, wrapping) drawn as black and white modules big
enough to survive H.264 and scaling: the picture is a stack of bands, each a row of
*strips* repeated across the width, so any tile of a 3x3 wall still holds whole strips.
A strip carries one byte of the number, Manchester-coded (each bit is a white/black pair
of modules, so the reader clocks itself and needs no threshold tuning)::

    | gap: 3 black | marker: 3 white | sync: black, white | 12 bits x 2 modules |

The 12 bits are: which byte (0 = high, 1 = low), the byte (most significant bit first)
and a 3-bit check. Bands alternate high and low bytes. The dark modules are tinted by
where they are in the picture (red grows to the right, blue downwards), so a tile's
crop can be told from its colours (``read_position``).

Making frames is pure Python (no numpy): the RTSP server runs it under the system's
Python. Reading needs numpy (and Pillow for PNG bytes).
"""

from __future__ import annotations

import io
import math
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

GAP, MARKER = 3, 3
BITS = 12
STRIP = GAP + MARKER + 2 + 2 * BITS  # modules
BAND = 6  # modules: the height of one band
WHITE_Y = 235
TINT = 100  # the strongest tint of a dark module (0..255 per channel)
WRAP = 1 << 16


def _check(bits: list[int]) -> list[int]:
    """Three check bits: a weighted sum mod 7 (no weight is 0 mod 7, so one flip shows)."""
    total = sum(bit * (i % 6 + 1) for i, bit in enumerate(bits)) % 7
    return [(total >> 2) & 1, (total >> 1) & 1, total & 1]


def strip_modules(index: int, byte: int) -> list[bool]:
    """The modules of one strip, left to right (True = white)."""
    bits = [index] + [(byte >> (7 - i)) & 1 for i in range(8)]
    bits += _check(bits)
    out = [False] * GAP + [True] * MARKER + [False, True]
    for bit in bits:
        out += [True, False] if bit else [False, True]
    return out


@dataclass
class Pattern:
    """The picture's size and rate, and the instant of frame 0 (epoch seconds).

    Frame ``n`` is made at ``origin + n / fps``: a reader of frame ``n`` knows when it was
    made, and a restarted source goes on counting where the clock is.
    """

    width: int = 640
    height: int = 360
    fps: int = 30
    origin: float = field(default_factory=time.time)

    @property
    def module(self) -> int:
        return max(2, self.width // 192)

    def number_at(self, when: float | None = None) -> int:
        """The (unwrapped) number of the frame due at ``when`` (now by default)."""
        return math.floor(((time.time() if when is None else when) - self.origin) * self.fps)

    def made_at(self, number: int, near: float | None = None) -> float:
        """When the frame read as ``number`` (16 bits) was made; ``near`` picks the wrap."""
        return self.origin + self.unwrap(number, near) / self.fps

    def unwrap(self, number: int, near: float | None = None) -> int:
        """The full frame number closest to the clock at ``near`` whose low 16 bits match."""
        expected = self.number_at(near)
        base = expected - (expected % WRAP) + number
        return min((base - WRAP, base, base + WRAP), key=lambda n: abs(n - expected))


class FrameMaker:
    """Makes frames of a ``Pattern`` as raw I420 (YUV 4:2:0, BT.601 limited range)."""

    def __init__(self, pattern: Pattern) -> None:
        if pattern.width % 2 or pattern.height % 2:
            raise ValueError("the picture's width and height must be even")
        self.pattern = pattern
        w, h, m = pattern.width, pattern.height, pattern.module
        self._bands = [(top, min(top + BAND * m, h)) for top in range(0, h, BAND * m)]
        self._white = bytes([WHITE_Y]) * w
        self._dark = [self._dark_row((top + bottom) / 2) for top, bottom in self._bands]
        self._chroma = self._chroma_planes()
        self._rows: dict[tuple[int, int], bytes] = {}

    def _tint(self, x: float, y: float) -> tuple[float, float]:
        p = self.pattern
        return TINT * x / p.width, TINT * y / p.height

    def _dark_row(self, y: float) -> bytes:
        row = bytearray(self.pattern.width)
        for x in range(self.pattern.width):
            r, b = self._tint(x + 0.5, y)
            row[x] = round(16 + (65.481 * r + 24.966 * b) / 255)
        return bytes(row)

    def _chroma_planes(self) -> bytes:
        """U and V at half resolution; like the dark rows, constant down each band."""
        half = self.pattern.width // 2
        u_plane, v_plane = [], []
        for top, bottom in self._bands:
            u, v = bytearray(half), bytearray(half)
            for i in range(half):
                r, b = self._tint(2 * i + 1, (top + bottom) / 2)
                u[i] = round(128 + (-37.797 * r + 112 * b) / 255)
                v[i] = round(128 + (112 * r - 18.214 * b) / 255)
            rows = (bottom - top) // 2
            u_plane.append(bytes(u) * rows)
            v_plane.append(bytes(v) * rows)
        return b"".join(u_plane) + b"".join(v_plane)

    def _row(self, band: int, number: int) -> bytes:
        index = band % 2
        byte = (number >> 8) & 0xFF if index == 0 else number & 0xFF
        row = self._rows.get((band, byte))
        if row is None:
            row = self._rows[band, byte] = self._draw_row(band, index, byte)
        return row

    def _draw_row(self, band: int, index: int, byte: int) -> bytes:
        modules = strip_modules(index, byte)
        m, width = self.pattern.module, self.pattern.width
        phase = (band * 11) % STRIP  # staggered, so strips do not line up in columns
        dark, parts, x = self._dark[band], [], 0
        k = phase
        while x < width:
            end = min(x + m, width)
            parts.append(self._white[x:end] if modules[k % STRIP] else dark[x:end])
            x, k = end, k + 1
        return b"".join(parts)

    def frame(self, number: int) -> bytes:
        """Frame ``number`` (its low 16 bits are drawn) as one I420 picture."""
        number %= WRAP
        luma = [
            self._row(i, number) * (bottom - top) for i, (top, bottom) in enumerate(self._bands)
        ]
        return b"".join(luma) + self._chroma


# --- reading -----------------------------------------------------------------------------


def _pixels(image: Any, region: tuple[int, int, int, int] | None) -> Any:
    """An RGB array (height x width x 3, uint8) from an array or PNG/JPEG bytes."""
    import numpy as np

    if isinstance(image, bytes | bytearray):
        from PIL import Image

        with Image.open(io.BytesIO(image)) as img:
            array = np.asarray(img.convert("RGB"))
    else:
        array = np.asarray(image)
        if array.ndim == 2:
            array = np.stack([array] * 3, axis=-1)
        array = array[..., :3]
    if region is not None:
        x, y, w, h = region
        array = array[y : y + h, x : x + w]
    return array


def _decode_strip(values: list[bool], lengths: list[int], at: int) -> tuple[int, int] | None:
    """The (index, byte) of the strip whose marker is run ``at``, or None."""
    if at == 0 or values[at - 1] or lengths[at - 1] < 0.8 * lengths[at]:
        return None
    px, units = float(lengths[at]), MARKER
    if px / units < 1.2:
        return None
    need, halves = 2 + 2 * BITS, list[float]()
    for run in range(at + 1, len(values)):
        n = round(lengths[run] / (px / units))
        if len(halves) + n >= need:
            if run == len(values) - 1:
                return None  # the strip runs off the edge: its last run may be cut
            halves += [values[run]] * (need - len(halves))
            break
        if n not in (1, 2):
            return None
        halves += [values[run]] * n
        px, units = px + lengths[run], units + n
    if len(halves) < need or halves[:2] != [False, True]:
        return None
    bits = []
    for first, second in zip(halves[2::2], halves[3::2], strict=True):
        if first == second:
            return None
        bits.append(1 if first else 0)
    if bits[9:] != _check(bits[:9]):
        return None
    return bits[0], int("".join(map(str, bits[1:9])), 2)


def _strips(row: Any) -> list[tuple[int, int]]:
    import numpy as np

    edges = np.flatnonzero(row[1:] != row[:-1]) + 1
    bounds = np.concatenate(([0], edges, [row.size]))
    lengths = np.diff(bounds)
    values = row[bounds[:-1]]
    candidates = np.flatnonzero(values & (lengths >= 4))
    if candidates.size == 0:
        return []
    value_list, length_list = values.tolist(), lengths.tolist()
    found = []
    for at in candidates.tolist():
        strip = _decode_strip(value_list, length_list, at)
        if strip is not None:
            found.append(strip)
    return found


def read_frame_number(image: Any, region: tuple[int, int, int, int] | None = None) -> int | None:
    """The frame number (16 bits) drawn in a picture of the pattern, or None if unreadable.

    ``image`` is an RGB(A) array or PNG bytes (a screenshot of a tile, a decoded frame);
    ``region`` = (x, y, width, height) reads only that part of it. Each whole strip in the
    picture votes for its byte; the most voted high and low bytes win.
    """
    import numpy as np

    pixels = _pixels(image, region)
    if pixels.size == 0:
        return None
    rows = pixels[:: max(1, pixels.shape[0] // 96)].astype(np.float32)  # the rows read
    luma = rows[..., 0] * 0.299 + rows[..., 1] * 0.587 + rows[..., 2] * 0.114
    low, high = np.percentile(luma[:, ::2], (5, 95))
    if high - low < 60:
        return None
    binary = luma > (low + high) / 2
    votes: list[Counter[int]] = [Counter(), Counter()]
    seen: dict[bytes, list[tuple[int, int]]] = {}
    for row in binary:
        key = row.tobytes()
        if key not in seen:  # rows of a band are alike: read each kind once
            seen[key] = _strips(row)
        for index, byte in seen[key]:
            votes[index][byte] += 1
    if not votes[0] or not votes[1]:
        return None
    return votes[0].most_common(1)[0][0] << 8 | votes[1].most_common(1)[0][0]


def read_position(
    image: Any, region: tuple[int, int, int, int] | None = None
) -> tuple[float, float] | None:
    """Where the pictured part sits in the whole pattern: the (x, y) of its centre as
    fractions of the pattern's width and height, from the tint of its dark modules."""
    import numpy as np

    rgb = _pixels(image, region).astype(np.float32)
    luma = rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114
    dark = luma < 90
    if dark.sum() < 16:
        return None
    return float(rgb[..., 0][dark].mean() / TINT), float(rgb[..., 2][dark].mean() / TINT)
