"""Capture devices of kiosk devices: the agent of a seat encodes a device's frames and
sends them to the host, which relays them like any live source's (a ``Capture`` source
with a ``Seat``; its input ``agent://SEAT/dev/videoN``).

The agent keeps a WebSocket ``/live/agent/<seat>`` open (its station key is its right,
as for media). The host tells it, in text messages, which devices are wanted:
``{"type": "start", "device", "width", "height", "fps"}``, ``{"type": "stop", "device"}``,
``{"type": "key", "device"}`` (a key frame, for a joining viewer). The agent answers
``{"type": "config", "device", "codedWidth", "codedHeight"}`` before a device's first
frame, ``{"type": "failed", "device", "message"}`` when it cannot capture, and binary
messages: 2 bytes big-endian, the device's number N (``/dev/videoN``), then a frame as a
screen share sends one (``tilewall.live.share``: flags, capture timestamp in
microseconds, an H.264 access unit in Annex B). Each device's frames go through a
share's :class:`~tilewall.live.share.Ingest`: stamped on the host clock in the agent's
rhythm, the frames since the last key frame kept for joiners. Everything here runs on
the event loop."""

from __future__ import annotations

import logging
import struct
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import msgspec

from tilewall.host.content import screens
from tilewall.host.content.live import LiveInput
from tilewall.host.ports import Clock
from tilewall.live.failure import InputFailed
from tilewall.live.latency import DelayPolicy, Latency
from tilewall.live.share import Ingest, Refused
from tilewall.live.units import Sink

log = logging.getLogger(__name__)

_DEVICE_NUMBER = struct.Struct(">H")
Send = Callable[[str], Awaitable[None]]


class AgentMessage(msgspec.Struct):
    type: str
    device: str = ""
    message: str = ""


@dataclass(frozen=True)
class Wanted:
    width: int
    height: int
    fps: float


@dataclass
class Link:
    """A connected agent: how to send it a text message."""

    seat: str
    send: Callable[[str], None]
    devices: set[str] = field(default_factory=set)


def where(source: LiveInput) -> tuple[str, str]:
    """The seat and the device of ``agent://SEAT/dev/videoN``."""
    parts = urlsplit(source.url)
    return parts.hostname or "", parts.path


class AgentCaptures:
    """The kiosk devices' captures this host takes, and the relays' feed of them
    (:meth:`feed`, the :class:`~tilewall.live.relay.FeedMaker` of ``agent://``)."""

    def __init__(self, clock: Clock, delays: DelayPolicy) -> None:
        self._clock = clock
        self._delays = delays
        self.links: dict[str, Link] = {}
        self.ingests: dict[tuple[str, str], Ingest] = {}
        self.wanted: dict[tuple[str, str], Wanted] = {}

    # --- the relays' side ---------------------------------------------------------------

    def feed(
        self,
        name: str,
        input_of: Callable[[], LiveInput | None],
        sink: Sink,
        clock: Clock,
        latency: Latency,
        on_encoder: Callable[[], None],
    ) -> AgentFeed:
        source = input_of()
        return AgentFeed(self, source, sink, latency)

    def ingest(self, seat: str, device: str) -> Ingest:
        found = self.ingests.get((seat, device))
        if found is None:
            found = Ingest(f"{seat}{device}", self._clock, self._delays.latency())
            found.ask_key = lambda: self._tell(seat, "key", device)
            self.ingests[(seat, device)] = found
        return found

    def want(self, seat: str, device: str, wanted: Wanted) -> None:
        self.wanted[(seat, device)] = wanted
        link = self.links.get(seat)
        if link is None:
            self._failed(seat, device, f"the agent of kiosk device {seat!r} is not connected")
            return
        self._start(link, device, wanted)

    def unwant(self, seat: str, device: str) -> None:
        """Nothing shows the device any more (no relay feeds on it): the agent stops."""
        ingest = self.ingests.get((seat, device))
        if ingest is None or not ingest.sinks:
            self.wanted.pop((seat, device), None)
            self.ingests.pop((seat, device), None)
            self._tell(seat, "stop", device)

    def _start(self, link: Link, device: str, wanted: Wanted) -> None:
        link.devices.add(device)
        link.send(
            msgspec.json.encode(
                {
                    "type": "start",
                    "device": device,
                    "width": wanted.width,
                    "height": wanted.height,
                    "fps": wanted.fps,
                }
            ).decode()
        )

    def _tell(self, seat: str, kind: str, device: str) -> None:
        link = self.links.get(seat)
        if link is not None:
            link.send(msgspec.json.encode({"type": kind, "device": device}).decode())

    def _failed(self, seat: str, device: str, reason: str) -> None:
        ingest = self.ingests.get((seat, device))
        if ingest is not None:
            for sink in list(ingest.sinks):
                sink.failed(InputFailed(reason))

    # --- the agent's side ---------------------------------------------------------------

    def connected(self, seat: str, send: Callable[[str], None]) -> Link:
        """The agent of ``seat`` connected (one at a time: a newer one replaces it); it is
        asked for every device wanted of it."""
        link = Link(seat, send)
        self.links[seat] = link
        for (wanted_seat, device), wanted in self.wanted.items():
            if wanted_seat == seat:
                self._start(link, device, wanted)
        return link

    def gone(self, link: Link) -> None:
        if self.links.get(link.seat) is not link:
            return
        del self.links[link.seat]
        for device in link.devices:
            self._failed(link.seat, device, f"the agent of kiosk device {link.seat!r} went away")

    def text(self, link: Link, text: str | bytes) -> None:
        """A text message of the agent; :class:`Refused` for one it may not send."""
        try:
            message = msgspec.json.decode(text, type=AgentMessage)
        except msgspec.DecodeError as error:
            raise Refused(f"not a message of the capture protocol: {error}") from None
        device = _device(message.device)
        if message.type == "config":
            self.ingest(link.seat, device).text(text)
        elif message.type == "failed":
            self._failed(link.seat, device, message.message[:200] or "the capture failed")

    def frame(self, link: Link, data: bytes) -> None:
        """A binary message of the agent: a frame of one of its devices."""
        if len(data) <= _DEVICE_NUMBER.size:
            raise Refused("a frame message starts with the device's number")
        (number,) = _DEVICE_NUMBER.unpack_from(data)
        device = _device(f"/dev/video{number}")
        if (link.seat, device) in self.wanted:
            self.ingest(link.seat, device).frame(data[_DEVICE_NUMBER.size :])


def _device(path: str) -> str:
    try:
        return screens.check_device("device", path)
    except Exception:
        raise Refused(f"not a capture device: {path[:40]!r}") from None


class AgentFeed:
    """A relay's feed of a kiosk device's capture."""

    def __init__(
        self, captures: AgentCaptures, source: LiveInput | None, sink: Sink, latency: Latency
    ) -> None:
        self._captures = captures
        self._sink = sink
        self._latency = latency
        self._source = source
        self._where = where(source) if source is not None else ("", "")

    def start(self) -> None:
        self._sink.connecting()
        source = self._source
        if source is None:
            return
        seat, device = self._where
        ingest = self._captures.ingest(seat, device)
        ingest.sinks.add(self._sink)
        ingest.follow(self._latency)
        if ingest.picture is not None:
            self._sink.picture(ingest.picture, "h264", False)
            for unit, size in ingest.gop:
                self._sink.unit(unit, size)
        self._captures.want(seat, device, Wanted(source.width, source.height, source.fps))
        ingest.want_key()

    def stop(self) -> None:
        seat, device = self._where
        ingest = self._captures.ingests.get((seat, device))
        if ingest is not None:
            ingest.sinks.discard(self._sink)
        self._captures.unwant(seat, device)

    def joined(self) -> None:
        ingest = self._captures.ingests.get(self._where)
        if ingest is not None:
            ingest.want_key()
