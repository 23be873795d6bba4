"""What a viewer of ``/live/<sourceId>`` is sent (docs/live.md, "On the wire"):

- text ``{"type": "config", "codec": "avc1.PPCCLL", "codedWidth", "codedHeight", "fps"}``
  on joining and whenever it changes;
- text ``{"type": "status", "state", "message"}`` on joining and on every change;
- binary: 1 byte of flags (bit 0: key frame), 8 bytes big-endian float64 ``at`` (host
  clock, ms since the epoch: when to present the frame), then one H.264 access unit in
  Annex B, its SPS and PPS in band before every key frame;
- text ``{"type": "current"}`` after the frames kept since the last key frame that a
  joining viewer starts with: the frames after it are sent as they come.

and what a viewer may send: text ``{"type": "margins", "ms": [...]}``, for each frame it
decoded since its last report (at most ``MAX_MARGINS``), how long before the frame's
``at`` it was ready to draw (:mod:`tilewall.live.latency`).
"""

import struct

import msgspec

from tilewall.live.units import Picture, Unit

KEY = 0x01
_HEAD = struct.Struct(">Bd")
#: the most margins a report holds (a second of frames at 60 fps, and room to spare)
MAX_MARGINS = 240
CURRENT = '{"type":"current"}'


class ConfigMessage(msgspec.Struct, tag="config", tag_field="type", rename="camel"):
    codec: str
    coded_width: int
    coded_height: int
    fps: float


class StatusMessage(msgspec.Struct, tag="status", tag_field="type"):
    state: str
    message: str


class MarginsMessage(msgspec.Struct, tag="margins", tag_field="type"):
    ms: list[float]


def margins(text: str) -> list[float] | None:
    """The margins of a viewer's report; None for anything else (a viewer's text that
    is not a report changes nothing)."""
    try:
        report = msgspec.json.decode(text, type=MarginsMessage)
    except msgspec.DecodeError:
        return None
    return report.ms if len(report.ms) <= MAX_MARGINS else None


def config(picture: Picture) -> str:
    message = ConfigMessage(picture.codec, picture.width, picture.height, picture.fps)
    return msgspec.json.encode(message).decode()


def status(state: str, message: str) -> str:
    return msgspec.json.encode(StatusMessage(state, message)).decode()


def frame(unit: Unit) -> bytes:
    return _HEAD.pack(KEY if unit.key else 0, unit.at) + unit.data
