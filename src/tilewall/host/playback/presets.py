"""Presets: the saved mapping of every display, zone and mirror group, recalled at once."""

import msgspec

from tilewall.host.access import scopes
from tilewall.host.errors import NotFound
from tilewall.host.ids import lookup, new_id, path_name
from tilewall.host.model import Display, MirrorGroup, Preset, Timeline, Zone
from tilewall.host.playback import timeline
from tilewall.host.state import Core
from tilewall.host.triggers import triggered_by


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
        scopes.require(self._core.state, scopes.preset_targets(preset))
        now = self._core.clock.now_ms()
        restored: list[Timeline] = []
        with triggered_by("preset", preset.name):
            await self._recall(preset, now, restored)
        return any(timeline.is_playing(t) for t in restored)

    async def _recall(self, preset: Preset, now: int, restored: list[Timeline]) -> None:
        state = self._core.state
        async with self._core.change() as tx:
            targets: list[tuple[Display | Zone | MirrorGroup | None, Timeline]] = [
                *((state.displays.get(int(k)), saved) for k, saved in preset.displays.items()),
                *((state.zones.get(k), saved) for k, saved in preset.zones.items()),
                *((state.mirrors.get(k), saved) for k, saved in preset.mirror_groups.items()),
            ]
            for target, saved in targets:
                if target is not None:
                    target.timeline = self._restorable(saved, now)
                    restored.append(target.timeline)
                    tx.put(target)
            tx.affect_all()
            tx.mapping = True

    async def delete(self, preset: Preset) -> None:
        async with self._core.change() as tx:
            tx.delete(preset)
