"""A host on fake ports (a store in memory, simulated machine, a clock that moves only
when told to), in New York, with two displays and three web sources."""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.localtime import NY, local_ms
from tests.support.ports import MemoryStore, simulated_machine
from tilewall.host.clock import ManualClock
from tilewall.host.host import Host
from tilewall.host.model import Param, Source
from tilewall.host.playback.control import Target
from tilewall.host.schedule.events import ActionSpec, EventSpec
from tilewall.host.schedule.playlog import MemoryPlays
from tilewall.platform.media_files import FolderMediaFiles


@dataclass
class Rig:
    host: Host
    clock: ManualClock
    store: MemoryStore
    plays: MemoryPlays
    media: Path
    displays: list[int]
    sources: dict[str, Source]

    async def at(self, local: str) -> None:
        """Move the clock to ``local`` New York time and let the scheduler run."""
        self.clock.ms = local_ms(local)
        await self.host.scheduler.tick()

    def shows(self, display_id: int) -> str:
        """The name of the source a display plays, "" for none."""
        tl = self.host.playback.effective_timeline(self.host.state.displays[display_id])
        if tl.state != "playing" or tl.welcome:
            return ""
        return self.sources_by_id()[tl.assigned_source_id].name

    def sources_by_id(self) -> dict[str, Source]:
        return {s.id: s for s in self.host.state.sources.values()}

    async def switch(self, display_id: int, source: str) -> None:
        target = Target("display", self.host.state.displays[display_id])
        await self.host.playback.switch(target, self.sources[source])

    async def restart(self) -> "Rig":
        """The host stops, and a new one starts on the same store and play log."""
        await self.host.close()
        host = Host(
            self.store,
            FolderMediaFiles(self.media),
            simulated_machine,
            clock=self.clock,
            plays=self.plays,
        )
        await host.load()
        await host.start()
        self.host = host
        return self


def switch_spec(name: str, start: str, source: str, display_id: int, **kw: Any) -> EventSpec:
    action = ActionSpec("switch", display_id=display_id, source_name=source)
    return EventSpec(name, start, action, **kw)


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    clock = ManualClock(local_ms("2026-03-02T08:00:00"))
    store = MemoryStore()
    plays = MemoryPlays()
    host = Host(
        store, FolderMediaFiles(tmp_path / "media"), simulated_machine, clock=clock, plays=plays
    )
    await host.load()
    await host.machine_settings.set_time_zone(NY)
    displays = []
    for seat in ("seat-1", "seat-2"):
        await host.stations.hello(seat, "192.0.2.1", name=seat)
        station = await host.stations.lock(seat)
        assert station.display_id is not None
        displays.append(station.display_id)
    sources = {}
    for name in ("Idle", "Ads", "News"):
        sources[name] = await host.sources.create(
            name, "Web Browser", [Param("URL", "URL", f"https://example.org/{name}")]
        )
    await host.start()
    rig = Rig(host, clock, store, plays, tmp_path / "media", displays, sources)
    await rig.switch(displays[0], "Idle")
    await rig.switch(displays[1], "Idle")
    yield rig
    await rig.host.close()
