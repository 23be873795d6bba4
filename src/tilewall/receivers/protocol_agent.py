"""Messages of the agent role of the receiver protocol (``docs/protocol.md``, "Kiosk agent").

An agent connection says ``hello`` with ``role: "agent"`` and then, besides ``time``,
``pong`` and ``ack``, reports the device's udev devices (``devices``), what its screen
power switch did (``power``) and the outcome of commands the host gave it (``result``).
The host sends it what it sends a page (``welcome``, ``state``, ``ping``, ``time``,
``reset``, ``reload``, ``key``) and serial commands to write (``serial``).
"""

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from tilewall.receivers import protocol as p

#: agent frames carry device lists: larger than a page's, still bounded
MAX_AGENT_FRAME_BYTES = 1024 * 1024

Text = Annotated[str, Meta(max_length=1024)]
Short = Annotated[str, Meta(max_length=256)]
PowerState = Literal["on", "off"]


class UdevDevice(msgspec.Struct, frozen=True):
    """One device as ``GET /network/devices/{seatId}`` lists it (SPEC field names)."""

    is_initialized: bool
    name: Short
    subsystem: Short
    sysfs_path: Text
    property_keys: Annotated[dict[Short, Text], Meta(max_length=256)] = {}
    device_file: Text | None = None
    devtype: Short | None = None
    driver: Short | None = None
    number: Short | None = None


class DeviceItem(msgspec.Struct, frozen=True):
    """A station's device as ``GET /network`` shows it: its monitor (from the EDID) or a
    media device (a sound card)."""

    id: Short
    type: Literal["DISPLAY", "MEDIA_DEVICE"]
    vid: Short = ""
    pid: Short = ""
    manufacturer: Short = ""
    model: Short = ""
    serial: Short = ""


class Devices(msgspec.Struct, frozen=True, tag="devices", tag_field="type"):
    """Every device the agent reports, sent whole on connect and after each hot-plug."""

    v: p.V
    udev: Annotated[list[UdevDevice], Meta(max_length=4096)] = []
    items: Annotated[list[DeviceItem], Meta(max_length=256)] = []


class PowerReport(msgspec.Struct, frozen=True, tag="power", tag_field="type"):
    """The agent switched (or failed to switch) its screen ``state``; ``message`` is the
    tool's own output when it failed."""

    v: p.V
    state: PowerState
    ok: bool
    method: Short = ""
    message: Text = ""


class Result(msgspec.Struct, frozen=True, tag="result", tag_field="type"):
    """The outcome of the host's command ``id`` (a ``serial`` write)."""

    v: p.V
    id: Annotated[int, Meta(ge=0, le=2**53)]
    ok: bool
    message: Text = ""


AgentMessage = (
    p.Hello | p.TimeRequest | p.Pong | p.Ack | p.KeyStored | Devices | PowerReport | Result
)

agent_decoder: msgspec.json.Decoder[AgentMessage] = msgspec.json.Decoder(AgentMessage)


class SerialWrite(msgspec.Struct, frozen=True, tag="serial", tag_field="type", rename="camel"):
    """Write ``data`` (base64) to the agent's serial port with these settings, then
    answer ``result`` with the same ``id`` once the bytes are out."""

    id: int
    baud_rate: int
    data_bits: int
    parity: str
    stop_bits: float
    data: str
    v: int = p.VERSION


def encode(message: SerialWrite) -> str:
    return p.encoder.encode(message).decode()
