"""What each receiver is told to show: the render description of a seat, made from the
host's state, its overlays and its name and address. The receiver hub sends it; the
interface shows the same description to clients that draw the picture."""

from tilewall.host.machine.slot import MachineSlot
from tilewall.host.playback.overlays import SETTING as OVERLAYS_SETTING
from tilewall.host.playback.overlays import Overlays
from tilewall.host.playback.playlist import MediaCatalog
from tilewall.host.playback.sharecodes import SETTING as CODES_SETTING
from tilewall.host.playback.sharecodes import CodesState
from tilewall.host.render.description import HostInfo, RenderState, describe
from tilewall.host.render.overlays import OverlaySwitches
from tilewall.host.state import Core


class SeatDescriptions:
    """The render description of each seat, with what every description shares (the host's
    name and address, the overlay switches)."""

    def __init__(
        self,
        core: Core,
        media: MediaCatalog,
        overlays: Overlays,
        machine: MachineSlot,
    ) -> None:
        self._core = core
        self._media = media
        self._overlays = overlays
        self._machine = machine
        self._info: HostInfo | None = None
        self._switches: tuple[tuple[object, object], OverlaySwitches] | None = None

    def host_info(self) -> HostInfo:
        """The name and address shown on pairing and welcome screens (read once)."""
        if self._info is None:
            facts = self._machine.adapters.facts
            self._info = HostInfo(facts.host_name(), facts.primary_ipv4() or "127.0.0.1")
        return self._info

    def overlays(self) -> OverlaySwitches:
        # asked once per receiver per push: converted again only when the setting changed
        # (every change stores a new object under the setting's name)
        settings = self._core.state.settings
        raw = (settings.get(OVERLAYS_SETTING), settings.get(CODES_SETTING))
        if self._switches is not None and all(
            a is b for a, b in zip(self._switches[0], raw, strict=True)
        ):
            return self._switches[1]
        codes = self._core.setting(CODES_SETTING, CodesState, CodesState())
        switches = OverlaySwitches.of(self._overlays.state(), codes)
        self._switches = (raw, switches)
        return switches

    def describe(self, seat_id: str) -> RenderState:
        """The render description of the receiver at ``seat_id``, now."""
        return describe(
            self._core.state,
            seat_id,
            media=self._media,
            overlays=self.overlays(),
            host=self.host_info(),
            now_ms=self._core.clock.now_ms(),
        )
