"""Scheduled events: validated on create and update, kept as documents, listed with
their occurrences in a window.

Bad input is :class:`Invalid` whose message starts with the interface's name of the
field (``timeZone: unknown time zone 'Mars/Base'``), so clients can show it beside it.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tilewall.host.access import scopes
from tilewall.host.errors import Conflict, HostError, Invalid, NotFound
from tilewall.host.ids import lookup, new_id
from tilewall.host.memory import Transaction
from tilewall.host.model import ACTION_KINDS, Action, ScheduledEvent
from tilewall.host.playback.overlays import LEVELS, MAX_ALERT_MS
from tilewall.host.schedule import occurrences as occ
from tilewall.host.state import Core

#: longest occurrence, and widest window of a listing
MAX_DURATION_S = 366 * 24 * 3600
MAX_WINDOW_MS = 400 * 24 * 3600 * 1000
MAX_LISTED = 5000
MAX_EXDATES = 1000
MAX_PRIORITY = 1_000_000


@dataclass
class ActionSpec:
    """An action as a client gives it: objects by id or by name."""

    kind: str
    preset_id: str = ""
    preset_name: str = ""
    display_id: int | None = None
    zone_id: str = ""
    zone_name: str = ""
    mirror_id: str = ""
    mirror_name: str = ""
    source_id: str = ""
    source_name: str = ""
    message: str = ""
    alert_level: str = ""
    length_ms: int | None = None
    state: str = ""


@dataclass
class EventSpec:
    name: str
    start: str
    action: ActionSpec
    time_zone: str | None = None
    end: str | None = None
    duration_s: int | None = None
    recurrence: str | None = None
    exdates: list[str] = field(default_factory=list)
    priority: int = 0
    enabled: bool = True


def _text(value: str, what: str, limit: int = 200) -> str:
    value = value.strip()
    if not value:
        raise Invalid(f"{what}: must not be empty")
    if len(value) > limit:
        raise Invalid(f"{what}: at most {limit} characters")
    return value


class Events:
    """The scheduled events of the host. ``host_zone`` gives the host's time zone,
    which events without a ``timeZone`` follow."""

    def __init__(self, core: Core, host_zone: Callable[[], str]) -> None:
        self._core = core
        self.host_zone = host_zone
        #: bumped by every change of an event; the runner recomputes what is next
        self.revision = 0

    def all(self) -> list[ScheduledEvent]:
        events = self._core.state.events.values()
        return sorted(events, key=lambda e: (e.start, e.name.casefold(), e.id))

    def get(self, event_id: str) -> ScheduledEvent:
        return lookup(self._core.state.events, event_id, False, "scheduled event")

    def zone_of(self, event: ScheduledEvent) -> str:
        return event.time_zone or self.host_zone()

    # --- checking what a client gives -----------------------------------------------

    def _action(self, spec: ActionSpec, has_end: bool) -> Action:
        state = self._core.state
        if spec.kind not in ACTION_KINDS:
            raise Invalid(f"action.kind: expected one of {', '.join(ACTION_KINDS)}")
        if spec.kind == "recallPreset":
            preset = self._find(
                state.presets, spec.preset_id, spec.preset_name, "preset", "action.preset"
            )
            return Action("recallPreset", preset_id=preset.id)
        if spec.kind == "switch":
            return self._switch(spec)
        if spec.kind == "broadcast":
            message = _text(spec.message, "action.message", 2000)
            if spec.alert_level not in LEVELS:
                raise Invalid(f"action.alertLevel: expected one of {', '.join(LEVELS)}")
            length = spec.length_ms or 0
            if length == 0 and not has_end:
                raise Invalid("action.lengthMillisec: required when the event has no end")
            if not 0 <= length <= MAX_ALERT_MS:
                raise Invalid(f"action.lengthMillisec: between 1 and {MAX_ALERT_MS}")
            return Action(
                "broadcast", message=message, alert_level=spec.alert_level, length_ms=length
            )
        if spec.state not in ("on", "off"):
            raise Invalid("action.state: expected 'on' or 'off'")
        if spec.display_id is not None and spec.display_id not in state.displays:
            raise Invalid(f"action.displayId: display {spec.display_id} not found")
        return Action("power", display_id=spec.display_id, power_on=spec.state == "on")

    def _switch(self, spec: ActionSpec) -> Action:
        state = self._core.state
        given = [
            bool(spec.display_id is not None),
            bool(spec.zone_id or spec.zone_name),
            bool(spec.mirror_id or spec.mirror_name),
        ]
        if sum(given) != 1:
            raise Invalid(
                "action: a switch names one target: displayId, zoneName or zoneId, "
                "or mirrorgroupName or mirrorgroupId"
            )
        source = self._find(
            state.sources, spec.source_id, spec.source_name, "source", "action.source"
        )
        if spec.display_id is not None:
            if spec.display_id not in state.displays:
                raise Invalid(f"action.displayId: display {spec.display_id} not found")
            return Action("switch", display_id=spec.display_id, source_id=source.id)
        if given[1]:
            zone = self._find(state.zones, spec.zone_id, spec.zone_name, "zone", "action.zone")
            return Action("switch", zone_id=zone.id, source_id=source.id)
        group = self._find(
            state.mirrors, spec.mirror_id, spec.mirror_name, "mirror group", "action.mirrorgroup"
        )
        return Action("switch", mirror_id=group.id, source_id=source.id)

    @staticmethod
    def _find(collection: Any, key: str, name: str, what: str, field_: str) -> Any:
        if not key and not name:
            raise Invalid(f"{field_}Name or {field_}Id: required")
        try:
            return lookup(collection, key or name, not key, what)
        except NotFound as missing:
            where = f"{field_}Id" if key else f"{field_}Name"
            raise Invalid(f"{where}: {missing}") from None

    def check(self, spec: EventSpec, event_id: str, now_ms: int, created_ms: int) -> ScheduledEvent:
        """The event ``spec`` describes, or Invalid naming the first bad field."""
        name = _text(spec.name, "name")
        start = occ.local(spec.start, "start")
        time_zone = ""
        if spec.time_zone is not None and spec.time_zone.strip():
            time_zone = spec.time_zone.strip()
        tz = occ.zone(time_zone or self.host_zone(), "timeZone")
        end = ""
        if spec.end is not None and spec.end.strip():
            if spec.duration_s is not None:
                raise Invalid("end: give end or durationSeconds, not both")
            end_at = occ.local(spec.end, "end")
            if end_at <= start:
                raise Invalid("end: must be after start")
            if (end_at - start).total_seconds() > MAX_DURATION_S:
                raise Invalid("end: an occurrence lasts at most 366 days")
            end = occ.local_text(end_at)
        duration = spec.duration_s or 0
        if spec.duration_s is not None and not 1 <= spec.duration_s <= MAX_DURATION_S:
            raise Invalid(f"durationSeconds: between 1 and {MAX_DURATION_S}")
        recurrence = (spec.recurrence or "").strip()
        if recurrence.upper().startswith("RRULE:"):
            recurrence = recurrence[len("RRULE:") :].strip()
        if recurrence:
            occ.check_rule(recurrence, start, tz)
        if len(spec.exdates) > MAX_EXDATES:
            raise Invalid(f"exdates: at most {MAX_EXDATES}")
        exdates = []
        for n, text in enumerate(spec.exdates):
            value = occ.exdate(text, f"exdates[{n}]")
            exdates.append(
                occ.local_text(value) if isinstance(value, datetime) else value.isoformat()
            )
        if not -MAX_PRIORITY <= spec.priority <= MAX_PRIORITY:
            raise Invalid(f"priority: between {-MAX_PRIORITY} and {MAX_PRIORITY}")
        action = self._action(spec.action, bool(end or duration))
        return ScheduledEvent(
            event_id,
            name,
            occ.local_text(start),
            action,
            time_zone=time_zone,
            end=end,
            duration_s=duration,
            recurrence=recurrence,
            exdates=exdates,
            priority=spec.priority,
            enabled=spec.enabled,
            created_ms=created_ms,
            updated_ms=now_ms,
        )

    # --- changes ---------------------------------------------------------------------

    async def create(self, spec: EventSpec) -> ScheduledEvent:
        now = self._core.clock.now_ms()
        event = self.check(spec, new_id(), now, now)
        scopes.require_action(self._core.state, event.action)
        async with self._core.change() as tx:
            tx.put(event)
        self.revision += 1
        return event

    async def update(self, event_id: str, spec: EventSpec) -> ScheduledEvent:
        old = self.get(event_id)
        event = self.check(spec, old.id, self._core.clock.now_ms(), old.created_ms)
        scopes.require_action(self._core.state, old.action)
        scopes.require_action(self._core.state, event.action)
        async with self._core.change() as tx:
            tx.put(event)
        self.revision += 1
        return event

    async def delete(self, event_id: str) -> ScheduledEvent:
        event = self.get(event_id)
        scopes.require_action(self._core.state, event.action)
        async with self._core.change() as tx:
            tx.delete(event)
        self.revision += 1
        return event

    # --- reading ---------------------------------------------------------------------

    def occurrences(self, from_ms: int, to_ms: int) -> list[tuple[ScheduledEvent, occ.Occurrence]]:
        """Occurrences of enabled events starting in the window or running at its start."""
        if to_ms <= from_ms:
            raise Invalid("to: must be after from")
        if to_ms - from_ms > MAX_WINDOW_MS:
            raise Invalid("to: a window is at most 400 days")
        out: list[tuple[ScheduledEvent, occ.Occurrence]] = []
        host_zone = self.host_zone()
        for event in self.all():
            if not event.enabled:
                continue
            for found in occ.running_or_starting(event, host_zone, from_ms, to_ms):
                out.append((event, found))
                if len(out) > MAX_LISTED:
                    raise Invalid(
                        f"to: more than {MAX_LISTED} occurrences; ask for a shorter window"
                    )
        out.sort(key=lambda pair: (pair[1].start_ms, -pair[1].priority))
        return out

    def next_start(self, event: ScheduledEvent, after_ms: int) -> int | None:
        if not event.enabled:
            return None
        try:
            return occ.next_start(event, self.host_zone(), after_ms, MAX_WINDOW_MS)
        except HostError:
            return None

    # --- what events name -----------------------------------------------------------

    def naming(self, kind: str, key: str) -> list[ScheduledEvent]:
        """Events whose action names the object (kind, key) of the host's documents."""
        out = []
        for event in self.all():
            action = event.action
            named = {
                "preset": action.preset_id,
                "source": action.source_id,
                "zone": action.zone_id,
                "mirror": action.mirror_id,
            }.get(kind)
            if named and named == key:
                out.append(event)
        return out

    def refuse_deleting_named(self, tx: Transaction) -> None:
        """A change may not delete a preset, source, zone or mirror group an event names
        (Conflict naming the events): change or delete the events first."""
        for (kind, key), value in tx.values.items():
            if value is not None or kind not in ("preset", "source", "zone", "mirror"):
                continue
            events = self.naming(kind, key)
            if events:
                names = ", ".join(repr(e.name) for e in events[:5])
                what = {"mirror": "mirror group"}.get(kind, kind)
                raise Conflict(
                    f"the {what} is named by scheduled events {names}; "
                    "change or delete those events first"
                )
