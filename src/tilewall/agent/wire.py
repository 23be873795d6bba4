"""The agent's side of the receiver protocol, version 1 (``docs/protocol.md``).

The host's own definitions live with the hub; the agent keeps its copy of the few
messages it speaks, so that it imports nothing of the server. Host messages of a type
the agent does not know are ignored, and so are fields it does not know.
"""

from typing import Literal

import msgspec

VERSION = 1
PowerState = Literal["on", "off"]
#: the largest frame the agent accepts from the host
MAX_FRAME_BYTES = 4 * 1024 * 1024


class Hello(msgspec.Struct, tag="hello", tag_field="type", rename="camel"):
    seat_id: str
    model: str
    firmware: str
    power: str
    serial_port: str
    browser: bool
    role: str = "agent"
    name: str | None = None
    key: str | None = None
    #: it says when it has kept a key (``KeyStored``)
    features: list[str] = msgspec.field(default_factory=lambda: ["keyStored"])
    v: int = VERSION


class UdevDevice(msgspec.Struct):
    """One device, with the field names ``GET /network/devices/{seatId}`` lists."""

    is_initialized: bool
    name: str
    subsystem: str
    sysfs_path: str
    property_keys: dict[str, str] = {}
    device_file: str | None = None
    devtype: str | None = None
    driver: str | None = None
    number: str | None = None


class DeviceItem(msgspec.Struct, frozen=True):
    """The monitor (``DISPLAY``, from its EDID) or a sound card (``MEDIA_DEVICE``)."""

    id: str
    type: Literal["DISPLAY", "MEDIA_DEVICE"]
    vid: str = ""
    pid: str = ""
    manufacturer: str = ""
    model: str = ""
    serial: str = ""


class Devices(msgspec.Struct, tag="devices", tag_field="type"):
    udev: list[UdevDevice]
    items: list[DeviceItem]
    v: int = VERSION


class Power(msgspec.Struct, tag="power", tag_field="type"):
    state: PowerState
    ok: bool
    method: str
    message: str = ""
    v: int = VERSION


class Result(msgspec.Struct, tag="result", tag_field="type"):
    id: int
    ok: bool
    message: str = ""
    v: int = VERSION


class Pong(msgspec.Struct, tag="pong", tag_field="type"):
    id: int
    v: int = VERSION


class Ack(msgspec.Struct, tag="ack", tag_field="type"):
    rev: int
    v: int = VERSION


class KeyStored(msgspec.Struct, tag="keyStored", tag_field="type"):
    """The station key the host handed is kept (on disk)."""

    key: str
    v: int = VERSION


Outgoing = Hello | Devices | Power | Result | Pong | Ack | KeyStored

_encoder = msgspec.json.Encoder()


def encode(message: Outgoing) -> str:
    return _encoder.encode(message).decode()


# --- host to agent ----------------------------------------------------------------------


class Overlays(msgspec.Struct):
    dpms_off: bool = msgspec.field(default=False, name="dpmsOff")


class RenderState(msgspec.Struct):
    """The part of a render description the agent acts on."""

    role: str = "pairing"
    overlays: Overlays = msgspec.field(default_factory=Overlays)


class Incoming(msgspec.Struct, rename="camel"):
    """Any host message: ``type`` says which fields it has."""

    type: str
    v: int = 0
    rev: int = 0
    id: int = 0
    state: RenderState | None = None
    refused: str | None = None
    key: str | None = None
    roles: list[str] = []
    baud_rate: int = 0
    data_bits: int = 0
    parity: str = ""
    stop_bits: float = 0.0
    data: str = ""


_decoder = msgspec.json.Decoder(Incoming)


def decode(text: str | bytes) -> Incoming | None:
    """The host's message, or None for one the agent cannot read (it is ignored)."""
    try:
        message = _decoder.decode(text)
    except msgspec.DecodeError:
        return None
    return message if message.v == VERSION else None
