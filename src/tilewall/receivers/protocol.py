"""Messages of the receiver protocol, version 1 (``docs/protocol.md``).

Every message is one JSON object in one WebSocket text frame, with ``v`` (the protocol
version, 1) and ``type``. Decoding is strict: wrong types, out-of-range values and unknown
message types are errors; unknown fields are ignored so that either side may add some.

A connection has one of two roles, said in its ``hello``: the receiver page (``page``,
the default, so pages older than roles keep working) or the kiosk agent beside it
(``agent``, ``tilewall agent``). The agent's own messages are in ``protocol_agent``.
"""

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from tilewall.host.render.content import Content
from tilewall.host.render.description import RenderState

VERSION = 1
#: the largest frame a receiver may send; larger ones are dropped unread
MAX_FRAME_BYTES = 16 * 1024

SeatId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_.~-]{1,64}$")]
ShortText = Annotated[str, Meta(max_length=256)]
Millis = Annotated[float, Meta(ge=-1e15, le=1e15)]
Revision = Annotated[int, Meta(ge=0, le=2**53)]
Pixels = Annotated[int, Meta(ge=1, le=32768)]
V = Literal[1]
Role = Literal["page", "agent"]
#: a station key as the host hands it out (``Key``) and a connection shows it (``Hello``)
StationKey = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{16,128}$")]
Feature = Annotated[str, Meta(max_length=64)]
#: the receiver understands ``content`` messages (``ContentUpdate``)
CONTENT = "content"
#: the receiver says ``keyStored`` once it has kept a key the host handed it
KEY_STORED = "keyStored"


class ScreenSize(msgspec.Struct, frozen=True):
    width: Pixels
    height: Pixels


# --- receiver to host -----------------------------------------------------------------


class Hello(msgspec.Struct, frozen=True, tag="hello", tag_field="type", rename="camel"):
    """First message of a connection. ``rev``: the revision the receiver shows, if any.

    ``screen`` is required of pages (the hub drops a page's hello without one); agents
    say ``role: "agent"``, what they can do (``power``, ``serialPort``, ``browser``), and
    both show the station ``key`` once the host has handed them one. ``features``: the
    optional messages the receiver understands or sends (``content``, ``keyStored``);
    others are ignored."""

    v: V
    seat_id: SeatId
    screen: ScreenSize | None = None
    resolutions: Annotated[list[ScreenSize], Meta(max_length=64)] = []
    model: ShortText = ""
    firmware: ShortText = ""
    name: ShortText | None = None
    rev: Revision = 0
    role: Role = "page"
    key: StationKey | None = None
    #: agents: how they switch the screen (cec, ddc, dpms, command, none)
    power: ShortText = ""
    #: agents: the serial port they write to ("" for none)
    serial_port: ShortText = ""
    #: agents: whether they keep the kiosk browser running
    browser: bool = False
    features: Annotated[list[Feature], Meta(max_length=32)] = []


class TimeRequest(msgspec.Struct, frozen=True, tag="time", tag_field="type"):
    """Clock sync: ``t0`` is the receiver's clock when sent."""

    v: V
    t0: Millis


class Pong(msgspec.Struct, frozen=True, tag="pong", tag_field="type"):
    v: V
    id: Annotated[int, Meta(ge=0, le=2**53)]


class Status(msgspec.Struct, frozen=True, tag="status", tag_field="type", rename="camel"):
    """What the receiver shows, sampled at host instant ``host_ms`` (its estimate)."""

    v: V
    rev: Revision
    showing: ShortText
    item: ShortText | None = None
    position_ms: Millis | None = None
    host_ms: Millis | None = None
    playing: bool = False
    offset_ms: Millis | None = None
    rtt_ms: Millis | None = None


class Ack(msgspec.Struct, frozen=True, tag="ack", tag_field="type"):
    """The receiver renders revision ``rev``."""

    v: V
    rev: Revision


class KeyStored(msgspec.Struct, frozen=True, tag="keyStored", tag_field="type"):
    """The receiver kept the station ``key`` the host handed it: the host may stop
    holding it for the seat's next connection."""

    v: V
    key: StationKey


ReceiverMessage = Hello | TimeRequest | Pong | Status | Ack | KeyStored


# --- host to receiver -----------------------------------------------------------------


class Welcome(msgspec.Struct, frozen=True, tag="welcome", tag_field="type", rename="camel"):
    """``refused``: why this connection is not given its station (another device holds
    it); it is shown the pairing screen and nothing else."""

    seat_id: str
    rev: int
    host_ms: int
    ping_interval_ms: int
    state: RenderState
    v: int = VERSION
    refused: str | None = None


class StateUpdate(msgspec.Struct, frozen=True, tag="state", tag_field="type"):
    rev: int
    state: RenderState
    v: int = VERSION


class ContentUpdate(msgspec.Struct, frozen=True, tag="content", tag_field="type"):
    """The receiver's render state is the last one it was given with ``content`` replaced.
    Sent instead of ``state`` to a receiver that said it understands it (``features``)
    when nothing but the content changed, so every receiver of a zone, mirror group or
    display is sent the same bytes; ``rev`` is the same for all of them."""

    rev: int
    content: Content | None
    v: int = VERSION


class ContentOut(msgspec.Struct, frozen=True, tag="content", tag_field="type"):
    """``ContentUpdate`` as the hub encodes it: the content already encoded, once."""

    rev: int
    content: msgspec.Raw
    v: int = VERSION


class TimeReply(msgspec.Struct, frozen=True, tag="time", tag_field="type"):
    """``t1``: host clock at receipt of the request, ``t2``: host clock at reply."""

    t0: float
    t1: float
    t2: float
    v: int = VERSION


class Ping(msgspec.Struct, frozen=True, tag="ping", tag_field="type"):
    id: int
    v: int = VERSION


class Reset(msgspec.Struct, frozen=True, tag="reset", tag_field="type"):
    """Tear down and rebuild what is rendered from the last state."""

    v: int = VERSION


class Reload(msgspec.Struct, frozen=True, tag="reload", tag_field="type"):
    """Reload the page."""

    v: int = VERSION


class HostGroupMessage(msgspec.Struct, frozen=True, tag="group", tag_field="type"):
    """The members of the host's host group (``http://HOST:PORT``) and the active one,
    for a receiver to reconnect to when its host is gone (wire tag ``group``)."""

    members: list[str]
    active: str | None
    v: int = VERSION


class Key(msgspec.Struct, frozen=True, tag="key", tag_field="type"):
    """The station key to keep (None: forget it; the station was unlocked). ``roles``:
    the connections of the station that were handed it (``page``, ``agent``)."""

    key: str | None
    roles: list[str] = []
    v: int = VERSION


HostMessage = (
    Welcome
    | StateUpdate
    | ContentUpdate
    | TimeReply
    | Ping
    | Reset
    | Reload
    | HostGroupMessage
    | Key
)

receiver_decoder: msgspec.json.Decoder[ReceiverMessage] = msgspec.json.Decoder(ReceiverMessage)
host_decoder: msgspec.json.Decoder[HostMessage] = msgspec.json.Decoder(HostMessage)
encoder = msgspec.json.Encoder()


def encode(message: HostMessage | ContentOut | ReceiverMessage) -> str:
    return encoder.encode(message).decode()
