"""What scheduled events do to the host, through its services: the targets an action
names, what they show (snapshots), doing the action, and bringing back what showed."""

from typing import Literal

import msgspec

from tilewall.host.errors import NotFound
from tilewall.host.model import (
    Display,
    MirrorGroup,
    ScheduledEvent,
    ShownAlert,
    Snapshot,
    Timeline,
    Zone,
)
from tilewall.host.playback import timeline
from tilewall.host.playback.control import Playback, Target
from tilewall.host.playback.overlays import Overlays
from tilewall.host.playback.presets import Presets
from tilewall.host.state import Core
from tilewall.host.triggers import triggered_by

BROADCAST = "broadcast"


class HostEffects:
    def __init__(
        self, core: Core, playback: Playback, presets: Presets, overlays: Overlays
    ) -> None:
        self._core = core
        self._playback = playback
        self._presets = presets
        self._overlays = overlays

    # --- targets -----------------------------------------------------------------------

    def _switch_target(self, event: ScheduledEvent) -> Target:
        action, state = event.action, self._core.state
        if action.display_id is not None:
            display = state.displays.get(action.display_id)
            if display is None:
                raise NotFound(f"display {action.display_id} is not locked to this host")
            return self._playback.for_display(display)
        if action.zone_id:
            zone = state.zones.get(action.zone_id)
            if zone is None:
                raise NotFound("its zone no longer exists")
            return Target("zone", zone)
        group = state.mirrors.get(action.mirror_id)
        if group is None:
            raise NotFound("its mirror group no longer exists")
        return Target("mirror", group)

    def keys(self, event: ScheduledEvent) -> list[str]:
        action, state = event.action, self._core.state
        if action.kind == "recallPreset":
            preset = state.presets.get(action.preset_id)
            if preset is None:
                raise NotFound("its preset no longer exists")
            keys = [f"display:{k}" for k in preset.displays if int(k) in state.displays]
            keys += [f"zone:{k}" for k in preset.zones if k in state.zones]
            keys += [f"mirror:{k}" for k in preset.mirror_groups if k in state.mirrors]
            return keys
        if action.kind == "switch":
            if action.source_id not in state.sources:
                raise NotFound("its source no longer exists")
            target = self._switch_target(event)
            return [f"{target.kind}:{_id(target.obj)}"]
        if action.kind == "broadcast":
            return [BROADCAST]
        if action.display_id is not None:
            if action.display_id not in state.displays:
                raise NotFound(f"display {action.display_id} is not locked to this host")
            return [f"power:{action.display_id}"]
        return [f"power:{d}" for d in sorted(state.displays)]

    def _object(self, key: str) -> Display | Zone | MirrorGroup | None:
        kind, _, name = key.partition(":")
        state = self._core.state
        if kind == "display":
            return state.displays.get(int(name))
        if kind == "zone":
            return state.zones.get(name)
        if kind == "mirror":
            return state.mirrors.get(name)
        return None

    # --- what shows --------------------------------------------------------------------

    def snapshot(self, key: str, now_ms: int) -> Snapshot:
        if key == BROADCAST:
            alert = self._overlays.active_alert()
            shown = (
                None if alert is None else ShownAlert(alert.message, alert.level, alert.until_ms)
            )
            return Snapshot(alert=shown, at_ms=now_ms)
        kind, _, name = key.partition(":")
        if kind == "power":
            return Snapshot(blanked=self._overlays.is_blanked(int(name)), at_ms=now_ms)
        obj = self._object(key)
        tl = obj.timeline if obj is not None else Timeline()
        return Snapshot(timeline=msgspec.structs.replace(tl), at_ms=now_ms)

    # --- doing -------------------------------------------------------------------------

    async def apply(
        self, event: ScheduledEvent, start_ms: int, end_ms: int | None, now_ms: int
    ) -> None:
        action, state = event.action, self._core.state
        with triggered_by("schedule", event.name):
            if action.kind == "recallPreset":
                preset = state.presets.get(action.preset_id)
                if preset is None:
                    raise NotFound("its preset no longer exists")
                await self._presets.recall(preset)
            elif action.kind == "switch":
                source = state.sources.get(action.source_id)
                if source is None:
                    raise NotFound("its source no longer exists")
                await self._playback.switch(self._switch_target(event), source)
            elif action.kind == "broadcast":
                length = action.length_ms or ((end_ms or now_ms) - now_ms)
                await self._overlays.start_alert(action.message, action.alert_level, max(length, 1))
            else:
                await self._overlays.dpms(action.display_id, off=not action.power_on)

    async def restore(self, snapshots: dict[str, Snapshot], now_ms: int) -> None:
        """Bring back what each target showed: timelines in one change (a playing one
        resumes where it was), then the alert, then the displays' power."""
        state = self._core.state
        with triggered_by("schedule", "end of a scheduled event"):
            timelines = {k: s.timeline for k, s in snapshots.items() if s.timeline is not None}
            if timelines:
                async with self._core.change() as tx:
                    for key, saved in timelines.items():
                        obj = self._object(key)
                        if obj is None:
                            continue
                        obj.timeline = self._resumed(saved, snapshots[key].at_ms, now_ms)
                        tx.put(obj)
                        tx.affect(*(Target(_kind(obj), obj).display_ids))
                    tx.mapping = True
            alert = snapshots.get(BROADCAST)
            if alert is not None:
                if alert.alert is not None and alert.alert.until_ms > now_ms:
                    shown = alert.alert
                    await self._overlays.start_alert(
                        shown.message, shown.level, shown.until_ms - now_ms
                    )
                else:
                    await self._overlays.stop_alert()
            power = {k: s.blanked for k, s in snapshots.items() if s.blanked is not None}
            every = {f"power:{d}" for d in state.displays}
            if len(set(power.values())) == 1 and every and every <= set(power):
                await self._overlays.dpms(None, off=bool(next(iter(power.values()))))
                return
            for key, blanked in sorted(power.items()):
                display_id = int(key.partition(":")[2])
                if (
                    display_id in state.displays
                    and self._overlays.is_blanked(display_id) != blanked
                ):
                    await self._overlays.dpms(display_id, off=bool(blanked))

    def _resumed(self, saved: Timeline, at_ms: int, now_ms: int) -> Timeline:
        """``saved`` as it stood at ``at_ms``, going on from ``now_ms``; a source deleted
        since shows the welcome screen."""
        if saved.assigned_source_id and saved.assigned_source_id not in self._core.state.sources:
            return timeline.stop(saved, now_ms)
        if saved.state == "playing":
            position = timeline.position_ms(saved, at_ms)
            return msgspec.structs.replace(saved, anchor_ms=now_ms, anchor_position_ms=position)
        return msgspec.structs.replace(saved, anchor_ms=now_ms)


def _id(obj: Display | Zone | MirrorGroup) -> str:
    return str(obj.display_id) if isinstance(obj, Display) else obj.id


def _kind(obj: Display | Zone | MirrorGroup) -> Literal["display", "zone", "mirror"]:
    if isinstance(obj, Display):
        return "display"
    return "zone" if isinstance(obj, Zone) else "mirror"
