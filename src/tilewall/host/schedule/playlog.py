"""Proof of play: what each display played, from when to when, and why.

A display plays while its timeline (its own, its zone's or its mirror group's) is
playing a source or a video list and the display is not blanked (DPMS off). Every
change the host announces is compared with the plays that are open; a play that no
longer matches ends, and a new one starts, with the trigger of the change that caused
it (:mod:`tilewall.host.triggers`). Plays are written to the play log store
right after the change that caused them, in the background; reads merge what is not
written yet, so they see every play. When the host starts it compares what displays
show with the plays left open, and records any difference with the trigger
``failover`` (the host took over, after a restart or from another member of a group).
"""

import asyncio
import logging
from collections.abc import Callable, Sequence

from tilewall.host import triggers
from tilewall.host.errors import Invalid, StoreFailed
from tilewall.host.ids import new_id
from tilewall.host.memory import Event
from tilewall.host.playback import timeline
from tilewall.host.playback.control import Playback
from tilewall.host.playback.overlays import Overlays
from tilewall.host.ports import Play, PlayLogStore
from tilewall.host.retention import DAY_MS, keep_days
from tilewall.host.state import Core

log = logging.getLogger(__name__)

RETENTION_SETTING = "playlog_retention_days"
#: the plays of a change are written this long after it, with those of the changes that
#: follow closely: a switch of a thousand displays is two thousand rows, and writing them
#: must not run before the receivers are told (reads merge what waits, ``plays``)
WRITE_AFTER_S = 0.05
DEFAULT_RETENTION_DAYS = 90
MAX_LIMIT = 100_000


class MemoryPlays:
    """A play log store in memory, for a host without a store."""

    def __init__(self) -> None:
        self.rows: dict[str, Play] = {}

    async def put_plays(self, plays: Sequence[Play]) -> None:
        for play in plays:
            self.rows[play.id] = play

    async def open_plays(self) -> list[Play]:
        return [p for p in self.rows.values() if p.end_ms is None]

    async def plays(
        self, since_ms: int | None, until_ms: int | None, display_id: int | None, limit: int
    ) -> list[Play]:
        found = [p for p in self.rows.values() if matches(p, since_ms, until_ms, display_id)]
        return sorted(found, key=lambda p: (p.start_ms, p.id))[:limit]

    async def prune_plays(self, ended_before_ms: int) -> int:
        old = [
            k for k, p in self.rows.items() if p.end_ms is not None and p.end_ms < ended_before_ms
        ]
        for key in old:
            del self.rows[key]
        return len(old)


def matches(play: Play, since_ms: int | None, until_ms: int | None, display_id: int | None) -> bool:
    """Whether ``play`` overlaps ``[since_ms, until_ms)`` and is of ``display_id``."""
    if display_id is not None and play.display_id != display_id:
        return False
    if until_ms is not None and play.start_ms >= until_ms:
        return False
    return not (since_ms is not None and play.end_ms is not None and play.end_ms <= since_ms)


#: what a display shows, as far as the play log tells plays apart
Shown = tuple[str, tuple[str, ...]]


class PlayLog:
    def __init__(
        self, core: Core, playback: Playback, overlays: Overlays, store: PlayLogStore | None
    ) -> None:
        self._core = core
        self._playback = playback
        self._overlays = overlays
        self.store: PlayLogStore = store if store is not None else MemoryPlays()
        self._open: dict[int, Play] = {}
        #: what each open play shows; None for a play whose content the host cannot tell
        self._open_shown: dict[int, Shown | None] = {}
        #: plays changed but not yet written, by id (the latest version of each)
        self._pending: dict[str, Play] = {}
        self._writer: asyncio.Task[None] | None = None
        self._failing = False
        self._started = False
        core.subscribe(self._changed)

    # --- what displays show ------------------------------------------------------------

    def _shown(self, display_id: int, blanked: Callable[[int], bool]) -> Shown | None:
        display = self._core.state.displays.get(display_id)
        if display is None or blanked(display_id):
            return None
        tl = self._playback.effective_timeline(display)
        if not timeline.is_playing(tl):
            return None
        if tl.videolist:
            return ("", tuple(tl.videolist))
        return (tl.assigned_source_id, ())

    def _name(self, shown: Shown) -> str:
        source_id, videolist = shown
        if videolist:
            more = f" and {len(videolist) - 3} more" if len(videolist) > 3 else ""
            return "video list: " + ", ".join(videolist[:3]) + more
        source = self._core.state.sources.get(source_id)
        return source.name if source is not None else source_id

    def _changed(self, event: Event) -> None:
        if self._started:
            self.reconcile(event.displays)

    def reconcile(self, displays: frozenset[int] | None) -> None:
        """End the plays that no longer match what their displays show, start new ones."""
        now = self._core.clock.now_ms()
        trigger, cause = triggers.current()
        if displays is None:
            displays = frozenset(self._core.state.displays) | frozenset(self._open)
        overlays = self._overlays.state()  # decoded once, not once per display
        asleep = frozenset(overlays.dpms_off_displays)

        def blanked(display_id: int) -> bool:
            return overlays.dpms_all_off or display_id in asleep

        for display_id in sorted(displays):
            shown = self._shown(display_id, blanked)
            current = self._open.get(display_id)
            if current is None and shown is None:
                continue
            if (
                current is not None
                and shown is not None
                and self._open_shown.get(display_id) == shown
            ):
                continue
            if current is not None:
                self._queue(current.ended(max(now, current.start_ms)))
                del self._open[display_id]
                self._open_shown.pop(display_id, None)
            if shown is not None:
                name = self._name(shown)
                play = Play(new_id(), display_id, shown[0], name, now, None, trigger, cause)
                self._open[display_id] = play
                self._open_shown[display_id] = shown
                self._queue(play)

    # --- writing -------------------------------------------------------------------------

    def _queue(self, play: Play) -> None:
        self._pending[play.id] = play
        if self._writer is None or self._writer.done():
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # written by the next flush
            self._writer = loop.create_task(self._write())

    async def _write(self) -> None:
        await asyncio.sleep(WRITE_AFTER_S)
        while self._pending:
            batch = list(self._pending.values())
            try:
                await self.store.put_plays(batch)
            except Exception as error:
                if not self._failing:
                    log.error("the play log cannot be written (%s); retrying", error)
                self._failing = True
                await asyncio.sleep(1.0)
                continue
            if self._failing:
                log.warning("the play log is written again")
                self._failing = False
            for play in batch:
                if self._pending.get(play.id) is play:
                    del self._pending[play.id]

    async def flush(self) -> None:
        """Wait until every play recorded so far is written."""
        while self._pending:
            if self._writer is None or self._writer.done():
                self._writer = asyncio.get_running_loop().create_task(self._write())
            await asyncio.shield(self._writer)

    # --- starting and stopping -----------------------------------------------------------

    async def start(self) -> None:
        """Pick up the plays left open, and record what changed while nobody watched."""
        for play in sorted(await self.store.open_plays(), key=lambda p: p.start_ms):
            earlier = self._open.get(play.display_id)
            if earlier is not None:  # two open plays of one display: the older one ended
                self._queue(earlier.ended(play.start_ms))
            self._open[play.display_id] = play
            # a video list's files are not kept with its play: it is begun anew
            self._open_shown[play.display_id] = (play.source_id, ()) if play.source_id else None
        self._started = True
        with triggers.triggered_by("failover", "host start"):
            self.reconcile(None)
        try:
            await self.prune()
        except StoreFailed as error:
            log.error("old plays could not be forgotten: %s", error)

    async def stop(self) -> None:
        self._started = False
        if self._writer is not None and not self._writer.done() and self._failing:
            self._writer.cancel()
            return
        await self.flush()

    # --- reading and keeping -------------------------------------------------------------

    async def plays(
        self,
        since_ms: int | None = None,
        until_ms: int | None = None,
        display_id: int | None = None,
        limit: int = 10_000,
    ) -> list[Play]:
        if since_ms is not None and until_ms is not None and until_ms <= since_ms:
            raise Invalid("until: must be after since")
        if not 1 <= limit <= MAX_LIMIT:
            raise Invalid(f"limit: between 1 and {MAX_LIMIT}")
        pending = dict(self._pending)
        stored = await self.store.plays(since_ms, until_ms, display_id, limit)
        merged = {p.id: p for p in stored}
        for play in pending.values():
            if matches(play, since_ms, until_ms, display_id):
                merged[play.id] = play
            else:
                merged.pop(play.id, None)
        return sorted(merged.values(), key=lambda p: (p.start_ms, p.id))[:limit]

    def retention_days(self) -> int:
        return self._core.setting(RETENTION_SETTING, int, DEFAULT_RETENTION_DAYS)

    async def set_retention_days(self, days: int) -> int:
        await keep_days(self._core, RETENTION_SETTING, days)
        await self.prune()
        return days

    async def prune(self) -> int:
        """Forget plays that ended longer ago than the retention."""
        before = self._core.clock.now_ms() - self.retention_days() * DAY_MS
        return await self.store.prune_plays(before)
