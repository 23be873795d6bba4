"""Presets: the saved mapping of every display, zone and mirror group, recalled at once."""

import msgspec

from tilewall.host.errors import NotFound
from tilewall.host.ids import lookup, new_id, path_name
from tilewall.host.model import Preset, Timeline
from tilewall.host.playback import timeline
from tilewall.host.schedule.triggers import triggered_by
from tilewall.host.state import Core


class Presets:
    def __init__(self, core: Core) -> None:
        self._core = core

    def get(self, key: str, by_name: bool = False) -> Preset:
        return lookup(self._core.state.presets, key, by_name, "preset")

    def all(self) -> list[Preset]:
        return sorted(self._core.state.presets.values(), key=lambda p: p.name.casefold())

    async def save(self, name: str) -> Preset:
        """Save the current mapping under ``name``, replacing a preset of that name."""
        name = path_name(name, "a preset")
        state = self._core.state
        try:
            preset_id = self.get(name, by_name=True).id
        except NotFound:
            preset_id = new_id()
        preset = Preset(
            preset_id,
            name,
            displays={
                str(i): msgspec.structs.replace(d.timeline) for i, d in state.displays.items()
            },
            zones={i: msgspec.structs.replace(z.timeline) for i, z in state.zones.items()},
            mirror_groups={
                i: msgspec.structs.replace(g.timeline) for i, g in state.mirrors.items()
            },
        )
        async with self._core.change() as tx:
            tx.put(preset)
        return preset

    def _restorable(self, saved: Timeline, now: int) -> Timeline:
        """The saved timeline restarted now; one whose source was deleted since shows
        the welcome screen instead of a source that no longer exists."""
        if saved.assigned_source_id and saved.assigned_source_id not in self._core.state.sources:
            saved = msgspec.structs.replace(
                saved,
                assigned_source_id="",
                state="stopped",
                welcome=True,
                layout_id="",
                videolist=saved.videolist,
            )
            if saved.videolist:
                saved = msgspec.structs.replace(saved, state="playing", welcome=False)
        return timeline.rebase(saved, now)

    async def recall(self, preset: Preset) -> bool:
        """Restore every saved timeline that still has its object; True if any plays."""
        now = self._core.clock.now_ms()
        restored: list[Timeline] = []
        with triggered_by("preset", preset.name):
            await self._recall(preset, now, restored)
        return any(timeline.is_playing(t) for t in restored)

    async def _recall(self, preset: Preset, now: int, restored: list[Timeline]) -> None:
        state = self._core.state
        async with self._core.change() as tx:
            for key, saved in preset.displays.items():
                display = state.displays.get(int(key))
                if display is not None:
                    display.timeline = self._restorable(saved, now)
                    restored.append(display.timeline)
                    tx.put(display)
            for key, saved in preset.zones.items():
                zone = state.zones.get(key)
                if zone is not None:
                    zone.timeline = self._restorable(saved, now)
                    restored.append(zone.timeline)
                    tx.put(zone)
            for key, saved in preset.mirror_groups.items():
                group = state.mirrors.get(key)
                if group is not None:
                    group.timeline = self._restorable(saved, now)
                    restored.append(group.timeline)
                    tx.put(group)
            tx.affect_all()
            tx.mapping = True

    async def delete(self, preset: Preset) -> None:
        async with self._core.change() as tx:
            tx.delete(preset)
