"""Which occurrences are due at an instant, and how overlapping ones share a target.

The rules, over targets named by keys (``zone:ID``, ``display:7``, ``broadcast``,
``power:7``; a preset names every timeline it holds):

- an occurrence is due once its start has come; one missed while the host was down is
  applied when the host runs again if it has an end still ahead (the last missed
  occurrence without an end, of each event, is applied too: it says what should show);
- where occurrences overlap on a target, the higher priority wins; of equal
  priorities, the later start. An occurrence outranked when it starts waits, if it has
  an end, and applies when what outranks it ends (if it is still running then); one
  without an end is dropped;
- when an occurrence with an end ends, each of its targets comes back to what it showed
  before, unless something changed the target since (an operator, or another event);
  occurrences stacked on one target unwind in order.

:func:`due` is pure; :func:`tick` applies the rules to the scheduler's state through
:class:`Effects`, which the runner implements over the host's services and tests fake.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import msgspec

from tilewall.host.errors import HostError, StoreFailed
from tilewall.host.model import (
    Handled,
    Outcome,
    Run,
    ScheduledEvent,
    ScheduleState,
    Snapshot,
)
from tilewall.host.schedule.occurrences import Occurrence, running_or_starting

#: occurrences missed longer ago than this are not looked for
CATCH_UP_MS = 7 * 24 * 3600 * 1000


class Effects(Protocol):
    def keys(self, event: ScheduledEvent) -> list[str]:
        """The targets the event's action acts on now; HostError if one is missing."""
        ...

    def snapshot(self, key: str, now_ms: int) -> Snapshot: ...

    async def apply(
        self, event: ScheduledEvent, start_ms: int, end_ms: int | None, now_ms: int
    ) -> None:
        """Do the event's action for the occurrence ``[start_ms, end_ms)``."""
        ...

    async def restore(self, snapshots: dict[str, Snapshot], now_ms: int) -> None: ...


@dataclass
class Due:
    """An event's occurrences due at an instant: to start, and the newest start seen."""

    start: list[Occurrence] = field(default_factory=list)
    missed: list[Occurrence] = field(default_factory=list)
    newest_ms: int | None = None


def due(event: ScheduledEvent, host_zone: str, handled_ms: int | None, now_ms: int) -> Due:
    """What of ``event`` is due at ``now_ms`` when occurrences up to ``handled_ms`` (its
    start included) have been handled."""
    lower = event.updated_ms if handled_ms is None else handled_ms + 1
    lower = max(lower, now_ms - CATCH_UP_MS)
    found = running_or_starting(event, host_zone, lower, now_ms + 1)
    if handled_ms is not None:
        found = [o for o in found if o.start_ms > handled_ms]
    out = Due()
    if not found:
        return out
    out.newest_ms = max(o.start_ms for o in found)
    instants = [o for o in found if o.end_ms is None]
    for occurrence in found:
        running = occurrence.end_ms is not None and occurrence.end_ms > now_ms
        latest_instant = bool(instants) and occurrence is instants[-1]
        (out.start if running or latest_instant else out.missed).append(occurrence)
    return out


def same(a: Snapshot, b: Snapshot) -> bool:
    """Whether two snapshots show the same thing (whenever they were taken)."""
    return a.timeline == b.timeline and a.alert == b.alert and a.blanked == b.blanked


def _active(runs: Sequence[Run], now_ms: int) -> list[Run]:
    return [r for r in runs if not r.waiting and r.end_ms > now_ms]


def _outranked(runs: Sequence[Run], keys: list[str], priority: int, now_ms: int) -> Run | None:
    for run in _active(runs, now_ms):
        if run.priority > priority and set(run.keys) & set(keys):
            return run
    return None


class Tick:
    """One pass of the rules at ``now_ms`` over a copy of the scheduler's state."""

    def __init__(
        self,
        state: ScheduleState,
        events: dict[str, ScheduledEvent],
        host_zone: str,
        now_ms: int,
        effects: Effects,
    ) -> None:
        self.state = msgspec.convert(msgspec.to_builtins(state), ScheduleState)
        self.events = events
        self.zone = host_zone
        self.now = now_ms
        self.effects = effects
        self.changed = False

    def note(self, event_id: str, start_ms: int, result: str, message: str = "") -> None:
        self.state.last[event_id] = msgspec.convert(
            {"start_ms": start_ms, "at_ms": self.now, "result": result, "message": message},
            Outcome,
        )
        self.changed = True

    async def run(self) -> ScheduleState:
        await self._end_finished()
        await self._start_due()
        return self.state

    # --- ending ----------------------------------------------------------------------

    async def _end_finished(self) -> None:
        for run in sorted(self.state.runs, key=lambda r: r.end_ms):
            if not any(r is run for r in self.state.runs):
                continue  # it could not apply and is gone
            event = self.events.get(run.event_id)
            gone = event is None or not event.enabled or event.updated_ms != run.version
            if run.end_ms <= self.now or gone:
                await self.end(run)

    async def end(self, run: Run) -> None:
        """Take ``run`` off its targets: unwind it from under later runs, give its
        targets to waiting runs it held back, and restore the rest."""
        runs = self.state.runs
        position = next(i for i, r in enumerate(runs) if r is run)
        del runs[position]
        self.changed = True
        self.note(run.event_id, run.start_ms, "ended")
        if run.waiting:
            return
        restore: dict[str, Snapshot] = {}
        for key in run.keys:
            above = next((r for r in runs[position:] if not r.waiting and key in r.keys), None)
            if above is not None:
                above.before[key] = run.before[key]
            else:
                restore[key] = run.before[key]
        for waiting in self._unblocked():
            inherited: dict[str, Snapshot] = {}
            for key in waiting.keys:
                if key in restore:
                    inherited[key] = restore.pop(key)
            await self._apply_run(waiting, inherited)
        restore = {
            key: snap
            for key, snap in restore.items()
            if same(self.effects.snapshot(key, self.now), run.applied.get(key, Snapshot()))
        }
        if restore:
            await self.effects.restore(restore, self.now)

    def _unblocked(self) -> list[Run]:
        """Waiting runs nothing of a higher priority holds back any more."""
        out: list[Run] = []
        waiting = [r for r in self.state.runs if r.waiting and r.end_ms > self.now]
        for run in sorted(waiting, key=lambda r: (-r.priority, r.start_ms)):
            if _outranked(self.state.runs, run.keys, run.priority, self.now) is None:
                out.append(run)
                run.waiting = False  # holds its keys against the next waiting ones
        for run in out:
            run.waiting = True
        return out

    # --- starting --------------------------------------------------------------------

    async def _start_due(self) -> None:
        starting: list[tuple[Occurrence, ScheduledEvent]] = []
        for event in self.events.values():
            if not event.enabled:
                continue
            handled = self.state.handled.get(event.id)
            if handled is not None and handled.version != event.updated_ms:
                handled = None  # changed since: what it says now is due from the change on
            found = due(event, self.zone, handled.start_ms if handled else None, self.now)
            if found.newest_ms is None:
                continue
            self.state.handled[event.id] = Handled(found.newest_ms, event.updated_ms)
            self.changed = True
            for occurrence in found.missed:
                self.note(event.id, occurrence.start_ms, "skipped", "missed: it had ended")
            starting += [(o, event) for o in found.start]
        for occurrence, event in sorted(starting, key=lambda p: (p[0].start_ms, -p[1].priority)):
            await self.start(occurrence, event)

    async def start(self, occurrence: Occurrence, event: ScheduledEvent) -> None:
        try:
            keys = self.effects.keys(event)
        except HostError as error:
            self.note(event.id, occurrence.start_ms, "skipped", str(error))
            return
        run = Run(
            event.id,
            occurrence.start_ms,
            occurrence.end_ms or 0,
            occurrence.priority,
            keys,
            version=event.updated_ms,
        )
        blocker = _outranked(self.state.runs, keys, occurrence.priority, self.now)
        if blocker is not None:
            name = self.events[blocker.event_id].name if blocker.event_id in self.events else ""
            if occurrence.end_ms is None:
                self.note(event.id, occurrence.start_ms, "outranked", f"by {name!r}")
                return
            run.waiting = True
            self.state.runs.append(run)
            self.note(event.id, occurrence.start_ms, "waiting", f"for {name!r} to end")
            return
        if occurrence.end_ms is None:
            await self._do(event, occurrence.start_ms, None)
            return
        await self._apply_run(run, {})

    async def _apply_run(self, run: Run, inherited: dict[str, Snapshot]) -> None:
        event = self.events[run.event_id]
        run.before = {
            key: inherited.get(key) or self.effects.snapshot(key, self.now) for key in run.keys
        }
        runs = self.state.runs
        runs[:] = [r for r in runs if r is not run]
        if not await self._do(event, run.start_ms, run.end_ms):
            return
        run.waiting = False
        # the order of the list is the order runs applied: later ones are on top
        runs.append(run)
        run.applied = {key: self.effects.snapshot(key, self.now) for key in run.keys}

    async def _do(self, event: ScheduledEvent, start_ms: int, end_ms: int | None) -> bool:
        """Apply the event's action; a store that cannot commit stops the whole tick
        (nothing of it is kept, and the next tick tries again)."""
        try:
            await self.effects.apply(event, start_ms, end_ms, self.now)
        except StoreFailed:
            raise
        except HostError as error:
            self.note(event.id, start_ms, "failed", str(error))
            return False
        self.note(event.id, start_ms, "applied")
        return True
