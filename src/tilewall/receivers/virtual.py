"""A receiver without a browser: speaks the protocol to the hub in-process.

It keeps the state it was told, acks revisions, answers pings, syncs its clock and
reports what it shows, computed from the timeline as the page does. For demos, tests
and benchmarks.
"""

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from msgspec.structs import replace

from tilewall.host.playback.slots import Item, locate
from tilewall.host.render.content import SignageSource
from tilewall.host.render.description import RenderState
from tilewall.receivers import protocol as p
from tilewall.receivers.hub import Hub
from tilewall.receivers.session import Session

log = logging.getLogger(__name__)

FIRMWARE = "tilewall-virtual/1"


@dataclass(frozen=True)
class Showing:
    what: str
    item: str | None = None
    position_ms: float | None = None
    playing: bool = False


def showing(state: RenderState | None, host_ms: float) -> Showing:
    """What a receiver with ``state`` shows at host instant ``host_ms``."""
    if state is None:
        return Showing("nothing")
    if state.role in ("pairing", "inactive"):
        return Showing(state.role)
    if state.overlays.dpms_off:
        return Showing("off")
    content = state.content
    if content is None:
        return Showing("nothing")
    if content.welcome:
        return Showing("welcome")
    if content.source is None:
        return Showing("stopped")
    timeline = content.timeline
    playing = timeline.state == "playing"
    position = timeline.anchor_position_ms + (host_ms - timeline.anchor_ms if playing else 0.0)
    source = content.source
    if isinstance(source, SignageSource):
        items = [Item(i.name, i.duration_ms, i.kind == "image") for i in source.items]
        slot = locate(items, int(position), timeline.repeat)
        if slot is None:
            return Showing("signage")
        fraction = position - int(position)
        return Showing(
            "signage",
            items[slot.index].name,
            slot.offset_ms + (0.0 if slot.ended else fraction),
            playing and not slot.ended,
        )
    return Showing(str(source.__struct_config__.tag or "source"), None, position, playing)


class _Link:
    def __init__(self, receiver: "VirtualReceiver") -> None:
        self.receiver = receiver

    async def send_text(self, text: str) -> None:
        self.receiver._inbox.put_nowait(text)

    async def close(self, code: int) -> None:
        self.receiver._inbox.put_nowait(None)


class VirtualReceiver:
    def __init__(
        self,
        hub: Hub,
        seat_id: str,
        *,
        width: int = 1920,
        height: int = 1080,
        name: str | None = None,
        ip: str = "127.0.0.1",
        model: str = "tilewall virtual receiver",
        clock: Callable[[], float] | None = None,
        status_interval_s: float | None = None,
    ) -> None:
        self.hub = hub
        self.seat_id = seat_id
        self.width, self.height = width, height
        self.name, self.ip, self.model = name, ip, model
        self.clock = clock or (lambda: time.monotonic() * 1000)
        self.status_interval_s = status_interval_s
        #: answer pings and clock sync; False simulates a hung receiver
        self.responsive = True
        self.state: RenderState | None = None
        self.rev = 0
        self.resets = 0
        self.reloads = 0
        self.closed = False
        self._samples: list[tuple[float, float]] = []  # (rtt, offset), newest last
        self._inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._session: Session | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._changed = asyncio.Event()

    # --- lifecycle ----------------------------------------------------------------------

    async def connect(self) -> None:
        self.closed = False
        self._inbox = asyncio.Queue()
        self._session = self.hub.open(_Link(self), self.ip, trusted=True)
        self._tasks = [asyncio.create_task(self._read_loop())]
        if self.status_interval_s:
            self._tasks.append(asyncio.create_task(self._status_loop(self.status_interval_s)))
        hello = p.Hello(
            v=1,
            seat_id=self.seat_id,
            screen=p.ScreenSize(self.width, self.height),
            resolutions=[p.ScreenSize(self.width, self.height)],
            model=self.model,
            firmware=FIRMWARE,
            name=self.name,
            rev=self.rev,
            features=[p.CONTENT],
        )
        await self._send(hello)
        for _ in range(4):
            await self.sync_clock()

    async def disconnect(self) -> None:
        if self._session is not None:
            await self.hub.close(self._session)
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        self.closed = True

    # --- clock --------------------------------------------------------------------------

    @property
    def offset_ms(self) -> float:
        """Estimated host time minus this receiver's clock, from the lowest-RTT sample."""
        return min(self._samples)[1] if self._samples else 0.0

    def host_ms(self) -> float:
        return self.clock() + self.offset_ms

    async def sync_clock(self) -> None:
        await self._send(p.TimeRequest(v=1, t0=self.clock()))

    # --- reporting ----------------------------------------------------------------------

    def showing(self) -> Showing:
        return showing(self.state, self.host_ms())

    async def report_status(self) -> None:
        host_ms = self.host_ms()
        now = showing(self.state, host_ms)
        await self._send(
            p.Status(
                v=1,
                rev=self.rev,
                showing=now.what,
                item=now.item,
                position_ms=now.position_ms,
                host_ms=host_ms,
                playing=now.playing,
                offset_ms=self.offset_ms,
                rtt_ms=min(self._samples)[0] if self._samples else None,
            )
        )

    async def wait_for(
        self, predicate: Callable[["VirtualReceiver"], bool], timeout: float = 5.0
    ) -> None:
        """Wait until ``predicate(self)`` holds after some message arrived."""
        async with asyncio.timeout(timeout):
            while not predicate(self):
                self._changed.clear()
                await self._changed.wait()

    # --- internals ----------------------------------------------------------------------

    async def _send(self, message: p.ReceiverMessage) -> None:
        if self._session is not None and not self.closed:
            await self.hub.receive(self._session, p.encode(message))

    async def _read_loop(self) -> None:
        while True:
            text = await self._inbox.get()
            if text is None:
                self.closed = True
                self._changed.set()
                return
            try:
                await self._handle(p.host_decoder.decode(text))
            except Exception:
                log.exception("virtual receiver %s: bad message from host", self.seat_id)
            self._changed.set()

    async def _handle(self, message: p.HostMessage) -> None:
        if isinstance(message, p.Welcome | p.StateUpdate):
            self.state, self.rev = message.state, message.rev
            await self._send(p.Ack(v=1, rev=message.rev))
        elif isinstance(message, p.ContentUpdate):
            if self.state is not None:
                self.state = replace(self.state, content=message.content)
                self.rev = message.rev
                await self._send(p.Ack(v=1, rev=message.rev))
        elif isinstance(message, p.Ping):
            if self.responsive:
                await self._send(p.Pong(v=1, id=message.id))
        elif isinstance(message, p.TimeReply):
            t3 = self.clock()
            rtt = (t3 - message.t0) - (message.t2 - message.t1)
            offset = ((message.t1 - message.t0) + (message.t2 - t3)) / 2
            self._samples = [*self._samples, (max(rtt, 0.0), offset)][-16:]
        elif isinstance(message, p.Reset):
            self.resets += 1
        elif isinstance(message, p.Reload):
            self.reloads += 1

    async def _status_loop(self, interval_s: float) -> None:
        while True:
            await asyncio.sleep(interval_s)
            if self.responsive:
                await self.report_status()
                await self.sync_clock()
