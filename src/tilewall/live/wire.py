"""What a viewer of ``/live/<sourceId>`` is sent (docs/live.md, "On the wire"):

- text ``{"type": "config", "codec": "avc1.PPCCLL", "codedWidth", "codedHeight", "fps"}``
  on joining and whenever it changes;
- text ``{"type": "status", "state", "message"}`` on joining and on every change;
- binary: 1 byte of flags (bit 0: key frame), 8 bytes big-endian float64 ``at`` (host
  clock, ms since the epoch: when to present the frame), then one H.264 access unit in
  Annex B, its SPS and PPS in band before every key frame.
"""

import struct

import msgspec

from tilewall.live.units import Picture, Unit

KEY = 0x01
_HEAD = struct.Struct(">Bd")


class ConfigMessage(msgspec.Struct, tag="config", tag_field="type", rename="camel"):
    codec: str
    coded_width: int
    coded_height: int
    fps: float


class StatusMessage(msgspec.Struct, tag="status", tag_field="type"):
    state: str
    message: str


def config(picture: Picture) -> str:
    message = ConfigMessage(picture.codec, picture.width, picture.height, picture.fps)
    return msgspec.json.encode(message).decode()


def status(state: str, message: str) -> str:
    return msgspec.json.encode(StatusMessage(state, message)).decode()


def frame(unit: Unit) -> bytes:
    return _HEAD.pack(KEY if unit.key else 0, unit.at) + unit.data
