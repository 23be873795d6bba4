"""One live source's relay: one pull of the input (a :class:`Reader` thread, or another
:class:`Feed`: a screen share's frames pushed to the host) for all its
viewers, the frames since the last key frame kept for whoever joins, each viewer fed
through its own bounded queue so that a slow one never holds up the others, and the
source's status.

Everything here but the reader runs on the event loop; the reader hands over through
``call_soon_threadsafe``."""

import asyncio
import collections
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Protocol

from tilewall.host.content.live import LiveInput, LiveState, LiveStatus, scheme_of
from tilewall.host.ports import Clock
from tilewall.live import wire
from tilewall.live.failure import InputFailed
from tilewall.live.latency import Latency
from tilewall.live.reader import Reader
from tilewall.live.units import Picture, Sink, Unit

log = logging.getLogger(__name__)

#: a viewer's queue holds at most this many frames (about 4 s at 30 fps) beyond the
#: frames since the last key frame it starts with; when full, it skips to a key frame
QUEUE_FRAMES = 120


Send = Callable[[bytes | str], Awaitable[None]]
#: writes a frame to the connection at once if it can take it now (True), without
#: waiting; False: nothing was written, the frame goes through the queue and ``Send``
Direct = Callable[[bytes], bool]


class Feed(Protocol):
    """Where a relay's frames come from, reporting to a :class:`Sink`: a
    :class:`Reader` pulling an input, or frames pushed to the host (a screen share)."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def joined(self) -> None:
        """A viewer joined (a feed that can be asked for a key frame asks)."""


class FeedMaker(Protocol):
    def __call__(
        self,
        name: str,
        input_of: Callable[[], LiveInput | None],
        sink: Sink,
        clock: Clock,
        latency: Latency,
        on_encoder: Callable[[], None],
    ) -> Feed: ...


@dataclass
class Counts:
    """What a relay has done since it was made (read by /metrics)."""

    frames_in: int = 0
    frames_sent: int = 0
    frames_dropped: int = 0
    bytes_in: int = 0
    bytes_sent: int = 0
    encoders: int = 0
    connections: int = 0
    #: the connections that gave a picture (connections less the failed tries)
    opened: int = 0


class Viewer:
    """One connection showing the stream: a queue of what is still to be sent to it."""

    def __init__(self, send: Send, limit: int = QUEUE_FRAMES, direct: Direct | None = None) -> None:
        self._send = send
        self._direct = direct
        self._sending = False
        self._limit = limit
        self._queue: collections.deque[bytes | str] = collections.deque()
        self._frames = 0
        self._ready = asyncio.Event()
        self._skipping = False
        self.closed = False

    def text(self, text: str) -> None:
        self._queue.append(text)
        self._ready.set()

    def frame(self, data: bytes, key: bool, counts: Counts, start: bool = False) -> None:
        """Queue a frame; when the queue is full, drop it and all queued frames until the
        next key frame (counted in ``counts``). ``start``: one of the frames it joins on."""
        if key:
            self._skipping = False
        elif self._skipping:
            counts.frames_dropped += 1
            return
        if self._frames >= self._limit and not start:
            dropped = [item for item in self._queue if isinstance(item, bytes)]
            counts.frames_dropped += len(dropped) + (0 if key else 1)
            self._queue = collections.deque(i for i in self._queue if isinstance(i, str))
            self._frames = 0
            if not key:
                self._skipping = True
                return
        direct = self._direct
        if direct is not None and not self._queue and not self._sending and direct(data):
            counts.frames_sent += 1
            counts.bytes_sent += len(data)
            return
        self._queue.append(data)
        self._frames += 1
        self._ready.set()

    async def run(self, counts: Counts) -> None:
        """Send what is queued, as it comes, until :meth:`close` or the send fails."""
        while not self.closed:
            await self._ready.wait()
            self._ready.clear()
            while self._queue and not self.closed:
                item = self._queue.popleft()
                if isinstance(item, bytes):
                    self._frames -= 1
                self._sending = True
                try:
                    await self._send(item)
                finally:
                    self._sending = False
                if isinstance(item, bytes):
                    counts.frames_sent += 1
                    counts.bytes_sent += len(item)

    def close(self) -> None:
        self.closed = True
        self._ready.set()

    @property
    def audience(self) -> int:
        """The connections it stands for (one; a fan-out of its own stands for more)."""
        return 1

    @property
    def without_webcodecs(self) -> int:
        """Of :attr:`audience`, the connections playing the stream as fragmented MP4
        through Media Source Extensions: later than the others, out of step."""
        return 0


class Relay:
    """The relay of the live source ``source_id``; ``input_of`` reads its current input
    (None once it is no longer a live source)."""

    def __init__(
        self,
        source_id: str,
        input_of: Callable[[], LiveInput | None],
        clock: Clock,
        latency: Latency,
        counts: Counts | None = None,
        makers: dict[str, FeedMaker] | None = None,
    ) -> None:
        self.source_id = source_id
        #: the feed of an input by its scheme; any other input is pulled by a Reader
        self._makers = makers or {}
        self._input_of = input_of
        self._clock = clock
        #: how long after they reach the host its frames are shown (its viewers' reports move it)
        self.latency = latency
        self.viewers: set[Viewer] = set()
        #: held open with no viewer (the source's ``Keep Open``)
        self.held = False
        #: kept by the caller across this source's relays, so that counters only grow
        self.counts = counts or Counts()
        self.input: LiveInput | None = None
        self._reader: Feed | None = None
        self._loop = asyncio.get_running_loop()
        self._gop: list[bytes] = []
        self._config: str | None = None
        self._status = LiveStatus()
        self._ever_live = False
        #: the current connection to the input gave a picture (counted in ``opened``)
        self._connection_shown = False
        self._rate = _Rate()
        self._live_message = "live"

    # --- viewers ----------------------------------------------------------------------

    def join(self, viewer: Viewer) -> None:
        """``viewer`` starts with the stream's config, status and the frames since the
        last key frame; the input is opened if it was not."""
        if self._config is not None:
            viewer.text(self._config)
        viewer.text(wire.status(self._status.state, self._status.message))
        for n, data in enumerate(self._gop):
            viewer.frame(data, n == 0, self.counts, start=True)
        viewer.text(wire.CURRENT)
        self.viewers.add(viewer)
        if self._reader is None:
            self.open()
        else:
            self._reader.joined()

    def audience(self) -> int:
        """The connections the stream is sent to."""
        return sum(viewer.audience for viewer in self.viewers)

    def report(self, viewer: Viewer, text: str) -> None:
        """``viewer``'s text: its margins move the stream's delay (anything else is
        ignored)."""
        margins = wire.margins(text)
        if margins:
            self.latency.report(margins, viewer)

    def leave(self, viewer: Viewer) -> None:
        viewer.close()
        self.viewers.discard(viewer)

    # --- the input --------------------------------------------------------------------

    def open(self) -> None:
        self.input = self._input_of()
        if self.input is None:
            return
        self._set("connecting", "connecting to the source")
        sink = _ThreadSink(self)
        make: FeedMaker = self._makers.get(scheme_of(self.input.url), Reader)
        self._reader = make(
            self.source_id,
            self._input_of,
            sink,
            self._clock,
            self.latency,
            self._encoder_made_elsewhere,
        )
        sink.reader = self._reader
        self._reader.start()

    def close(self) -> None:
        """Stop pulling the input (the reader ends at its next packet); back to idle."""
        if self._reader is not None:
            self._reader.stop()
            self._reader = None
        self._gop.clear()
        self._config = None
        self._ever_live = False
        self._set("idle", LiveStatus().message)
        self._status = replace(self._status, codec="", width=0, height=0, fps=0.0, bitrate=0)

    def restart(self) -> None:
        """The source's input changed: pull the new one for the same viewers."""
        self.close()
        if self.viewers or self.held:
            self.open()

    @property
    def opened(self) -> bool:
        return self._reader is not None

    def status(self) -> LiveStatus:
        audience = self.audience()
        status = replace(self._status, bitrate=self._rate.bits_per_s(), viewers=audience)
        late = sum(viewer.without_webcodecs for viewer in self.viewers)
        if late and status.state == "live":
            note = (
                f"{late} of {audience} viewers without a secure context (no WebCodecs) play "
                "it through Media Source Extensions, at a higher latency and not in step"
            )
            status = replace(status, message=f"{status.message}; {note}")
        return status

    # --- from the reader (on the loop) ------------------------------------------------

    def _set(self, state: LiveState, message: str) -> None:
        if (state, message) == (self._status.state, self._status.message):
            return
        self._status = replace(self._status, state=state, message=message)
        text = wire.status(state, message)
        for viewer in self.viewers:
            viewer.text(text)

    def _encoder_made_elsewhere(self) -> None:
        self._loop.call_soon_threadsafe(self._encoder_made)

    def _encoder_made(self) -> None:
        self.counts.encoders += 1

    def connecting(self, reader: Feed | None) -> None:
        if reader is self._reader:
            self.counts.connections += 1
            self._connection_shown = False

    def picture(self, reader: Feed | None, picture: Picture, codec: str, transcoded: bool) -> None:
        if reader is not self._reader:
            return
        if not self._connection_shown:
            self._connection_shown = True
            self.counts.opened += 1
        self._config = wire.config(picture)
        self._status = replace(
            self._status,
            codec=codec,
            width=picture.width,
            height=picture.height,
            fps=picture.fps,
        )
        for viewer in self.viewers:
            viewer.text(self._config)
        how = f"{codec} transcoded to H.264 once for every viewer" if transcoded else codec
        self._live_message = f"live: {picture.width}x{picture.height} {how}"

    def unit(self, reader: Feed | None, unit: Unit, data: bytes, size_in: int) -> None:
        if reader is not self._reader:
            return
        if self._status.state != "live":
            self._ever_live = True
            self._set("live", self._live_message)
        self.counts.frames_in += 1
        self.counts.bytes_in += size_in
        self._rate.add(size_in)
        if unit.key:
            self._gop = [data]
        elif self._gop:
            self._gop.append(data)
        for viewer in self.viewers:
            viewer.frame(data, unit.key, self.counts)

    def failed(self, reader: Feed | None, reason: InputFailed) -> None:
        if reader is not self._reader:
            return
        state: LiveState = "reconnecting" if self._ever_live else "failed"
        self._set(state, str(reason))
        self._gop.clear()


class _ThreadSink:
    """The reader's reports, carried to the relay on its event loop."""

    def __init__(self, relay: Relay) -> None:
        self._relay = relay
        self._loop = relay._loop
        self.reader: Feed | None = None

    def _call(self, callback: Callable[..., None], *args: object) -> None:
        try:
            self._loop.call_soon_threadsafe(callback, *args)
        except RuntimeError:  # the loop is closed: the host stopped, the reader will too
            if self.reader is not None:
                self.reader.stop()

    def connecting(self) -> None:
        self._call(self._relay.connecting, self._bound())

    def picture(self, picture: Picture, codec: str, transcoded: bool) -> None:
        self._call(self._relay.picture, self._bound(), picture, codec, transcoded)

    def unit(self, unit: Unit, size_in: int) -> None:
        # the bytes every viewer is sent, built here, off the loop
        self._call(self._relay.unit, self._bound(), unit, wire.frame(unit), size_in)

    def failed(self, reason: InputFailed) -> None:
        self._call(self._relay.failed, self._bound(), reason)

    def _bound(self) -> Feed | None:
        return self.reader


class _Rate:
    """Bits per second of the input over the last two seconds."""

    WINDOW_S = 2.0

    def __init__(self) -> None:
        self._samples: collections.deque[tuple[float, int]] = collections.deque()
        self._total = 0

    def add(self, size: int) -> None:
        now = time.monotonic()
        self._samples.append((now, size))
        self._total += size
        self._trim(now)

    def _trim(self, now: float) -> None:
        while self._samples and now - self._samples[0][0] > self.WINDOW_S:
            self._total -= self._samples.popleft()[1]

    def bits_per_s(self) -> int:
        self._trim(time.monotonic())
        return int(self._total * 8 / self.WINDOW_S) if self._samples else 0
