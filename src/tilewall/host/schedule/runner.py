"""The scheduler: a thin loop on the event loop that runs :class:`plan.Tick` when
something is due, driven by the host's clock.

It wakes at least every :data:`POLL_S` and runs a tick when the next start or end it
computed has come, when an event changed, or when the host's time zone changed. The
rules themselves are in :mod:`plan`; tests call :meth:`Scheduler.tick` with a manual
clock. The scheduler's state is a setting, written after each tick that changed it.
"""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from tilewall.host import audit
from tilewall.host.errors import StoreFailed
from tilewall.host.model import ScheduleState
from tilewall.host.retention import DAY_MS
from tilewall.host.schedule.events import Events
from tilewall.host.schedule.plan import Effects, Tick
from tilewall.host.schedule.playlog import PlayLog
from tilewall.host.state import Core

log = logging.getLogger(__name__)

#: how the audit trail names what the schedule does on its own
SCHEDULE_TICK = "schedule: apply events"

SETTING = "schedule"
#: the loop looks at the clock this often, so an occurrence fires within a second
POLL_S = 0.2
#: how often old plays are forgotten
PRUNE_EVERY_MS = 3600 * 1000
#: how far ahead the next start is looked for
HORIZON_MS = 400 * DAY_MS


class Scheduler:
    def __init__(
        self,
        core: Core,
        events: Events,
        effects: Effects,
        playlog: PlayLog,
        prune_also: Callable[[], Awaitable[int]] | None = None,
    ) -> None:
        self._core = core
        #: forgets what else is kept for a time (the audit trail), when the play log does
        self._prune_also = prune_also
        self._events = events
        self._effects = effects
        self._playlog = playlog
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        #: what the next tick was computed for: (events revision, host zone)
        self._seen: tuple[int, str] | None = None
        self._next_ms: int | None = None
        self._pruned_ms = 0

    def state(self) -> ScheduleState:
        return self._core.setting(SETTING, ScheduleState, ScheduleState())

    @property
    def next_ms(self) -> int | None:
        """When the next tick is due (a start or an end); None if nothing is ahead."""
        return self._next_ms

    async def tick(self) -> None:
        """Apply what is due now, and work out when the next thing is."""
        async with self._lock:
            now = self._core.clock.now_ms()
            zone = self._events.host_zone()
            seen = (self._events.revision, zone)
            run = Tick(self.state(), dict(self._core.state.events), zone, now, self._effects)
            new = await run.run()
            if run.changed:
                async with self._core.change() as tx:
                    tx.put_setting(SETTING, new)
            self._seen = seen
            self._next_ms = self._next_after(now, new)

    async def settle(self) -> None:
        """Tick now, after an event changed, so that an occurrence it starts or ends does
        so before the change is answered; a store that fails leaves it to the loop."""
        try:
            with audit.acting(audit.Actor(audit.SCHEDULE), SCHEDULE_TICK):
                await self.tick()
        except StoreFailed as error:
            log.error("the scheduler could not apply a changed event yet: %s", error)

    def _next_after(self, now_ms: int, state: ScheduleState) -> int | None:
        found = [r.end_ms for r in state.runs]
        for event in self._core.state.events.values():
            start = self._events.next_start(event, now_ms)
            if start is not None:
                found.append(start)
        return min(found) if found else None

    def due(self, now_ms: int) -> bool:
        """Whether a tick has something to do at ``now_ms``."""
        if self._seen != (self._events.revision, self._events.host_zone()):
            return True
        return self._next_ms is not None and now_ms >= self._next_ms

    # --- the loop ----------------------------------------------------------------------

    async def start(self) -> None:
        """Start the play log and the loop (the host applies what it missed first)."""
        await self._playlog.start()
        await self.settle()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._playlog.stop()

    async def _loop(self) -> None:
        failing = False
        while True:
            try:
                now = self._core.clock.now_ms()
                if self.due(now):
                    with audit.acting(audit.Actor(audit.SCHEDULE), SCHEDULE_TICK):
                        await self.tick()
                if now - self._pruned_ms >= PRUNE_EVERY_MS:
                    self._pruned_ms = now
                    await self._playlog.prune()
                    if self._prune_also is not None:
                        await self._prune_also()
                if failing:
                    log.warning("the scheduler runs again")
                failing = False
            except StoreFailed as error:
                if not failing:
                    log.error("the scheduler cannot write its state (%s); retrying", error)
                failing = True
                await asyncio.sleep(1.0)
            except Exception:
                log.exception("the scheduler failed; retrying")
                await asyncio.sleep(1.0)
            await asyncio.sleep(POLL_S)
