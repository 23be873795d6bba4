"""A screen share's frames, as the sharer's browser sends them to the host (docs/share.md,
"On the wire"), turned into a live source's feed for the relay.

The browser encodes with WebCodecs and sends, over the WebSocket ``/share/ingest/<id>``:

- text ``{"type": "config", "codedWidth": W, "codedHeight": H, "codec": C}`` before its
  first frame and whenever the picture's size or codec changes (``codec``: the encoder's
  WebCodecs codec string, ``avc1.…`` or ``vp09.…``; none: H.264);
- binary: 1 byte of flags (bit 0: key frame), 8 bytes big-endian float64: the frame's
  capture timestamp in microseconds (the ``VideoFrame``'s, on the sharer's own clock),
  then one H.264 access unit in Annex B, SPS and PPS before every key frame, or one VP9
  frame (a browser that cannot encode H.264). Neither is re-encoded: receivers decode
  VP9 as they decode H.264, with the codec string the sharer gave.

The host stamps each frame on its own clock (:class:`tilewall.live.timing.Presenter`:
the sharer's rhythm kept, ``delay_ms`` after its arrival, and after a stall the latency
won back within seconds: a presenter watches the wall as they act) and hands it to the relay like
any live source's, so every tile of a wall shows it in the same refresh. It asks the
sharer for a key frame (text ``{"type": "key"}``) whenever a relay starts on the share
or a viewer joins, at most every :data:`KEY_EVERY_S`, so a joiner need not wait for the
encoder's next one. Everything here runs on the event loop.
"""

import asyncio
import logging
import re
import secrets
import struct
import time
from collections.abc import Callable
from fractions import Fraction

import msgspec

from tilewall.host.content.live import LiveInput
from tilewall.host.playback.shares import Share, Shares, ShareTarget
from tilewall.host.ports import Clock
from tilewall.live import nal
from tilewall.live.latency import DelayPolicy, Latency
from tilewall.live.timing import Presenter
from tilewall.live.units import Picture, Sink, Unit

log = logging.getLogger(__name__)

_HEAD = struct.Struct(">Bd")
KEY = 0x01
#: the sharer's timestamps are microseconds
MICROSECONDS = Fraction(1, 1_000_000)
KEY_EVERY_S = 0.5
#: the largest picture side a sharer may announce
MAX_SIDE = 8192
#: a share whose sharer has not connected this long after it was made is ended
CONNECT_WITHIN_S = 15.0
#: frames kept since the last key frame at most (a sharer that sends none for longer
#: is asked for one; joiners meanwhile wait for it)
MAX_GOP = 300
#: after a stall, frames early for this long bring the offset back, at twice their pace
CATCH_UP_AFTER_MS = 250.0
CATCH_UP = 0.5


class Refused(Exception):
    """What the sharer sent cannot be relayed (the connection is closed saying why)."""


#: a VP9 codec string as WebCodecs writes it: vp09.PP.LL.DD (profile, level, bit depth),
#: and optionally the rest of the fields of the VP codec ISO-BMFF binding
VP9_CODEC = re.compile(r"vp09\.0[0-3]\.[0-9]{2}\.(08|10|12)(\.[0-9]{1,2}){0,5}")


class SizeMessage(msgspec.Struct, tag="config", tag_field="type", rename="camel"):
    coded_width: int
    coded_height: int
    codec: str = ""


class Ingest:
    """One share's frames: the latest picture and the frames since its last key frame,
    handed to the sinks of the relays showing it."""

    def __init__(self, share_id: str, clock: Clock, latency: Latency) -> None:
        self.share_id = share_id
        self.token = secrets.token_urlsafe(24)
        self._clock = clock
        self._presenter = Presenter(latency, early_for_ms=CATCH_UP_AFTER_MS, catch_up=CATCH_UP)
        self._sets = nal.ParameterSets()
        self._size: tuple[int, int] | None = None
        #: the sharer's VP9 codec string (None: H.264)
        self._vp9: str | None = None
        self.picture: Picture | None = None
        self.gop: list[tuple[Unit, int]] = []
        self.sinks: set[Sink] = set()
        #: asks the sharer for a key frame (set while the sharer is connected)
        self.ask_key: Callable[[], None] | None = None
        self._asked = 0.0
        self.fps = 30.0
        self._last_ts: float | None = None
        self.connected = False
        #: lets the sharer go (set while the sharer is connected)
        self.let_go: Callable[[], None] | None = None

    def text(self, text: str | bytes) -> None:
        try:
            size = msgspec.json.decode(text, type=SizeMessage)
        except msgspec.DecodeError as error:
            raise Refused(f"not a config message: {error}") from None
        width, height = size.coded_width, size.coded_height
        if not (16 <= width <= MAX_SIDE and 16 <= height <= MAX_SIDE):
            raise Refused(f"a picture of {width}x{height} cannot be shown")
        codec = size.codec
        if codec and not codec.startswith("avc1.") and not VP9_CODEC.fullmatch(codec):
            raise Refused(f"codec {codec[:40]!r} is neither H.264 (avc1) nor VP9 (vp09)")
        self._size = (width, height)
        self._vp9 = codec if codec.startswith("vp09.") else None

    @property
    def codec_name(self) -> str:
        """The codec of the frames, as a live source's status names it."""
        return "h264" if self._vp9 is None else "vp9"

    def frame(self, message: bytes) -> bool:
        """Take one binary message; whether it made the share's first picture."""
        if len(message) <= _HEAD.size:
            raise Refused("a frame message is 1 byte of flags, 8 of timestamp, then the frame")
        flags, timestamp_us = _HEAD.unpack_from(message)
        if timestamp_us != timestamp_us:  # NaN
            raise Refused("a frame's timestamp must be a number")
        data, key = self._checked(message[_HEAD.size :], bool(flags & KEY))
        arrival = self._clock.exact_ms()
        at = self._presenter.at(round(timestamp_us), MICROSECONDS, arrival)
        self._rate(timestamp_us)
        first = False
        if key:
            picture = self._picture()
            if picture is None:
                return False  # nothing a receiver could start on yet
            if picture != self.picture:
                first = self.picture is None
                self.picture = picture
                for sink in self.sinks:
                    sink.picture(picture, self.codec_name, False)
            self.gop = []
        elif self.picture is None:
            return False
        unit = Unit(key, at, data)
        if len(self.gop) < MAX_GOP:
            self.gop.append((unit, len(message)))
        else:
            self.want_key()
        for sink in self.sinks:
            sink.unit(unit, len(message))
        return first

    def _checked(self, data: bytes, key: bool) -> tuple[bytes, bool]:
        """A frame of the sharer's codec as receivers take it, and whether it is a key frame."""
        if self._vp9 is not None:
            # every VP9 frame (and superframe) starts with its 2-bit frame marker, 0b10
            if not data or data[0] >> 6 != 0b10:
                raise Refused("frames must be VP9 as the config said (a frame marker first)")
            return data, key
        if not data.startswith((b"\x00\x00\x01", b"\x00\x00\x00\x01")):
            raise Refused("frames must be H.264 in Annex B (start codes)")
        return self._sets.complete(data, key)

    def _picture(self) -> Picture | None:
        if self._size is None:
            return None
        width, height = self._size
        if self._vp9 is not None:
            return Picture(self._vp9, width, height, self.fps)
        if self._sets.sps is None:
            return None
        return Picture(nal.codec_string(self._sets.sps), width, height, self.fps)

    def _rate(self, timestamp_us: float) -> None:
        """The frame rate the sharer sends at, as receivers are told (a smoothed guess:
        screens send frames as they change)."""
        if self._last_ts is not None and timestamp_us > self._last_ts:
            rate = 1_000_000 / (timestamp_us - self._last_ts)
            self.fps = round(min(max(0.9 * self.fps + 0.1 * rate, 1.0), 120.0), 1)
        self._last_ts = timestamp_us

    def follow(self, latency: Latency) -> None:
        """Time the frames by ``latency`` from now on: the delay of the relay that
        shows them, which its viewers' reports move."""
        self._presenter.latency = latency

    def want_key(self) -> None:
        now = time.monotonic()
        if self.ask_key is not None and now - self._asked >= KEY_EVERY_S:
            self._asked = now
            self.ask_key()


class ShareFeed:
    """A relay's feed of a share: what the sharer sends, from the last key frame on."""

    def __init__(self, ingest: Ingest | None, sink: Sink, latency: Latency) -> None:
        self._ingest = ingest
        self._sink = sink
        self._latency = latency

    def start(self) -> None:
        self._sink.connecting()
        ingest = self._ingest
        if ingest is None:
            return
        ingest.sinks.add(self._sink)
        ingest.follow(self._latency)
        if ingest.picture is not None:
            self._sink.picture(ingest.picture, ingest.codec_name, False)
            for unit, size in ingest.gop:
                self._sink.unit(unit, size)
        ingest.want_key()

    def stop(self) -> None:
        if self._ingest is not None:
            self._ingest.sinks.discard(self._sink)

    def joined(self) -> None:
        if self._ingest is not None:
            self._ingest.want_key()


class ShareIngests:
    """The ingests of the shares this host takes, by share id; ``feed`` is the relay's
    :class:`~tilewall.live.relay.FeedMaker` for ``share:`` inputs. A share whose sharer
    does not connect within ``connect_within_s`` ends."""

    def __init__(
        self,
        shares: Shares,
        clock: Clock,
        delays: DelayPolicy,
        connect_within_s: float = CONNECT_WITHIN_S,
    ) -> None:
        self._shares = shares
        self._clock = clock
        self._delays = delays
        self._connect_within_s = connect_within_s
        self.ingests: dict[str, Ingest] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        shares.ended.append(self.drop)

    async def open(self, target: ShareTarget, shared_by: str, guest: bool) -> tuple[Share, Ingest]:
        """A new share and the ingest its sharer sends to."""
        return self._ingest(await self._shares.start(target, shared_by, guest))

    async def open_as_guest(
        self, code: str, address: str, display_id: int | None, name: str
    ) -> tuple[Share, Ingest]:
        """A guest's share, by the code a display shows (``Shares.start_as_guest``)."""
        return self._ingest(await self._shares.start_as_guest(code, address, display_id, name))

    def _ingest(self, share: Share) -> tuple[Share, Ingest]:
        ingest = Ingest(share.id, self._clock, self._delays.latency())
        self.ingests[share.id] = ingest
        loop = asyncio.get_running_loop()
        loop.call_later(self._connect_within_s, self._unless_connected, ingest)
        return share, ingest

    def _unless_connected(self, ingest: Ingest) -> None:
        if not ingest.connected and self.ingests.get(ingest.share_id) is ingest:
            log.info("share %s ended: its sharer never connected", ingest.share_id)
            self.end_soon(ingest.share_id)

    def end_soon(self, share_id: str) -> None:
        """End the share in a task of its own (from a callback, or a connection that
        is going)."""
        task = asyncio.get_running_loop().create_task(self._shares.end(share_id, True))
        self._tasks.add(task)
        task.add_done_callback(self._ended)

    def _ended(self, task: "asyncio.Task[None]") -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("ending a share failed: %s", task.exception())

    async def stop(self) -> None:
        """End every share (the host stops serving)."""
        for share in self._shares.all():
            await self._shares.end(share.id)
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def take(self, share_id: str, token: str) -> Ingest | None:
        """The ingest of ``share_id`` for the sharer holding its ``token`` (once)."""
        ingest = self.ingests.get(share_id)
        if ingest is None or ingest.connected:
            return None
        if not secrets.compare_digest(ingest.token.encode(), token.encode()):
            return None
        ingest.connected = True
        return ingest

    def drop(self, share_id: str) -> None:
        """The share ended: its sharer is let go."""
        ingest = self.ingests.pop(share_id, None)
        if ingest is not None:
            ingest.sinks.clear()
            ingest.ask_key = None
            if ingest.let_go is not None:
                ingest.let_go()

    def feed(
        self,
        name: str,
        input_of: Callable[[], LiveInput | None],
        sink: Sink,
        clock: Clock,
        latency: Latency,
        on_encoder: Callable[[], None],
    ) -> ShareFeed:
        return ShareFeed(self.ingests.get(name), sink, latency)
