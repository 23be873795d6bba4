"""The host's live relays, one per live source being shown (the ``LiveFeeds`` port).

A relay opens its input when its first viewer comes and closes ``linger_s`` after its
last one leaves (a receiver reloading, a switch between layouts that both show the
camera, never costs a reconnect). A source set to ``Keep Open`` is held open while
nothing shows it, so that a switch to it starts from the frames it holds, at once,
rather than from the source's next key frame. Only a host that serves its receivers relays: in a
group of hosts the active member; a standby refuses viewers, and a member that stops
being active closes every relay (its receivers go to the new active member, which
opens the streams in turn)."""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable

from tilewall.host.content.live import LiveInput, LiveStatus
from tilewall.host.content.sources import Sources
from tilewall.host.errors import HostError
from tilewall.host.ports import Clock
from tilewall.live.latency import DelayPolicy
from tilewall.live.opening import quiet_ffmpeg
from tilewall.live.relay import Counts, FeedMaker, Relay, Viewer

log = logging.getLogger(__name__)

#: seconds a relay stays open after its last viewer left
LINGER_S = 5.0
#: how often open relays look whether their source changed (its URL, or gone)
WATCH_S = 1.0


class Standby(Exception):
    """This host does not relay: it is a standby of its group."""


class LiveRelays:
    """The relays of ``sources``' live sources; ``serving()`` whether this host may
    open inputs now."""

    def __init__(
        self,
        sources: Sources,
        clock: Clock,
        delays: DelayPolicy,
        serving: Callable[[], bool] = lambda: True,
        linger_s: float = LINGER_S,
    ) -> None:
        self._sources = sources
        self._clock = clock
        self._delays = delays
        self._serving = serving
        self._linger_s = linger_s
        self.relays: dict[str, Relay] = {}
        #: what each source's relays did since the host started (/metrics)
        self.counts: dict[str, Counts] = {}
        self._closing: dict[str, asyncio.TimerHandle] = {}
        self._watch: asyncio.Task[None] | None = None
        #: the sources held open with no viewer (``Keep Open``), while this host relays
        self.kept: set[str] = set()
        self._keeper: asyncio.Task[None] | None = None
        #: the feeds of inputs the host does not pull, by scheme (screen shares)
        self.makers: dict[str, FeedMaker] = {}
        quiet_ffmpeg()

    # --- the port ---------------------------------------------------------------------

    def status(self, source_id: str) -> LiveStatus:
        relay = self.relays.get(source_id)
        return LiveStatus() if relay is None else relay.status()

    def serving(self) -> bool:
        """Whether this host relays now (not a standby of its group)."""
        return self._serving()

    def viewers(self, source_id: str) -> int:
        relay = self.relays.get(source_id)
        return 0 if relay is None else relay.audience()

    # --- viewers ----------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def viewing(self, source_id: str, viewer: Viewer) -> AsyncIterator[Relay]:
        """``viewer`` joined to the relay of ``source_id`` while in the block.

        Raises the host's NotFound/Invalid for a source that is not live, and
        :class:`Standby` on a host that does not relay."""
        if not self._serving():
            raise Standby("this host is a standby: the active host of its group relays")
        self._sources.live_source(source_id)
        relay = self._relay_of(source_id)
        relay.join(viewer)
        try:
            yield relay
        finally:
            relay.leave(viewer)
            self._let_go(source_id, relay)

    def _relay_of(self, source_id: str) -> Relay:
        """The relay of ``source_id``, made if need be; no longer closing."""
        relay = self.relays.get(source_id)
        if relay is None:
            counts = self.counts.setdefault(source_id, Counts())
            relay = Relay(
                source_id,
                self._input_of(source_id),
                self._clock,
                self._delays.latency(),
                counts,
                self.makers,
            )
            self.relays[source_id] = relay
            self._ensure_watch()
        pending = self._closing.pop(source_id, None)
        if pending is not None:
            pending.cancel()
        return relay

    def _let_go(self, source_id: str, relay: Relay) -> None:
        """Close ``relay`` after the lingering time if nothing shows it then."""
        if not relay.viewers and not relay.held and self.relays.get(source_id) is relay:
            loop = asyncio.get_running_loop()
            self._closing[source_id] = loop.call_later(self._linger_s, self._drop, source_id, relay)

    def _input_of(self, source_id: str) -> Callable[[], LiveInput | None]:
        def current() -> LiveInput | None:
            # read from the reader's thread too: a dict lookup and a few param reads
            try:
                return self._sources.live_input(self._sources.get(source_id))
            except HostError:
                return None

        return current

    def _drop(self, source_id: str, relay: Relay) -> None:
        self._closing.pop(source_id, None)
        if relay.viewers or relay.held or self.relays.get(source_id) is not relay:
            return
        relay.close()
        del self.relays[source_id]

    # --- keeping up with the sources -----------------------------------------------------

    def _ensure_watch(self) -> None:
        if self._watch is None or self._watch.done():
            self._watch = asyncio.get_running_loop().create_task(self._watching())

    async def _watching(self) -> None:
        while self.relays:
            await asyncio.sleep(WATCH_S)
            for source_id, relay in list(self.relays.items()):
                current = self._input_of(source_id)()
                if current is None:
                    relay.close()
                    for viewer in list(relay.viewers):
                        viewer.close()
                elif relay.opened and current != relay.input:
                    log.info("live source %s changed: reopening it", source_id)
                    relay.restart()

    # --- the sources kept open ---------------------------------------------------------

    async def _keeping(self) -> None:
        while True:
            try:
                self.keep(self._sources.kept_open() if self._serving() else [])
            except Exception:  # a source that cannot be opened must not stop the others
                log.exception("keeping live sources open")
            await asyncio.sleep(WATCH_S)

    def keep(self, source_ids: list[str]) -> None:
        """Hold the relays of ``source_ids`` open, and let go of those no longer kept."""
        wanted = set(source_ids)
        for source_id in wanted - self.kept:
            relay = self._relay_of(source_id)
            relay.held = True
            if not relay.opened:
                relay.open()
        for source_id in self.kept - wanted:
            if (held := self.relays.get(source_id)) is not None:
                held.held = False
                self._let_go(source_id, held)
        self.kept = wanted

    async def stop(self) -> None:
        """Close every relay and let its viewers go (the host stops serving, or stops)."""
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
            self._keeper = None
        self.kept.clear()
        for handle in self._closing.values():
            handle.cancel()
        self._closing.clear()
        for relay in self.relays.values():
            relay.close()
            for viewer in list(relay.viewers):
                viewer.close()
        self.relays.clear()
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None

    async def start(self) -> None:
        """Open the sources kept open, and keep up with them (the host relays now: a
        host of its own, or the active member of its group)."""
        if self._keeper is None or self._keeper.done():
            self._keeper = asyncio.get_running_loop().create_task(self._keeping())
