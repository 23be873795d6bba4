"""The host: one object holding every service of the domain over shared state."""

from pathlib import Path

from tilewall.host.accounts import Accounts
from tilewall.host.clock import Clock, SystemClock
from tilewall.host.licence import LicenceRules
from tilewall.host.media import MediaLibrary
from tilewall.host.overlays import Overlays
from tilewall.host.playback import Playback
from tilewall.host.presets import Presets
from tilewall.host.sources import Sources
from tilewall.host.state import Core
from tilewall.host.stations import Stations
from tilewall.host.topology import Topology
from tilewall.store import Store


class Host:
    def __init__(
        self,
        store: Store | None,
        media_root: Path,
        clock: Clock | None = None,
        idle_timeout_s: float = 1800.0,
        max_sessions: int = 10_000,
    ) -> None:
        self.core = Core(store, clock or SystemClock())
        self.accounts = Accounts(store, idle_timeout_s, max_sessions)
        self.media = MediaLibrary(media_root)
        self.licence = LicenceRules(self.core)
        self.stations = Stations(self.core, self.licence)
        self.topology = Topology(self.core)
        self.sources = Sources(self.core, self.licence, self.media)
        self.playback = Playback(self.core, self.sources, self.media)
        self.presets = Presets(self.core)
        self.overlays = Overlays(self.core)

    @classmethod
    async def open(
        cls, data_dir: Path, clock: Clock | None = None, idle_timeout_s: float = 1800.0
    ) -> "Host":
        store = await Store.open(data_dir)
        host = cls(store, data_dir / "media", clock, idle_timeout_s)
        await host.core.load()
        await host.accounts.load()
        return host

    async def close(self) -> None:
        if self.core.store is not None:
            await self.core.store.close()

    @property
    def state(self):  # type: ignore[no-untyped-def]
        return self.core.state

    def failover_member(self) -> bool:
        settings = self.core.state.settings
        return settings.get("failover_v1") is not None or settings.get("failover_v2") is not None

    def mapping_data_version(self, in_failover_group: bool) -> str:
        if not in_failover_group:
            return "-1"
        return str(self.core.state.mapping_generation)
