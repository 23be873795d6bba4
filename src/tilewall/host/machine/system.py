"""The machine behind ``/system``: what the host is, how it is doing, and the settings
that belong to the machine rather than to displays. Changes go through the platform
adapters, which are simulated unless host management is on.

The machine facts ``GET /system`` shows (the host name, the primary address, the
distribution, how tilewall was built) are read once, then again every
:data:`FACTS_REFRESH_S` seconds off the request path, and at once when the host
changes the machine itself (its host name, its network, its adapters);
``facts_version`` moves when what was read differs, for views encoded once per
version. A host name kept in the host's settings (simulated, or a group member's)
moves the state's revision when it changes.
"""

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Protocol

from tilewall import INTERFACE_VERSION, __version__
from tilewall.host.licence.rules import LicenceRules
from tilewall.host.machine.facts import (
    DiagnosticResult,
    DiagnosticsInput,
    OsRelease,
    StationProbe,
)
from tilewall.host.machine.ports import MachineAdapters
from tilewall.host.machine.slot import MachineSlot
from tilewall.host.ports import DataFiles
from tilewall.host.state import Core

log = logging.getLogger(__name__)

PARTNER_ACCESS = "partner_access"
#: seconds between two readings of the machine facts (address, distribution, build)
FACTS_REFRESH_S = 10.0


@dataclass(frozen=True)
class MachineFacts:
    """The facts of ``GET /system`` that are read once and refreshed on a timer."""

    host_name: str
    ip_address: str
    release: OsRelease
    build_data: str


@dataclass(frozen=True)
class SystemInfo:
    host_name: str
    ip_address: str
    system_id: str
    product_version: str
    product_build_data: str
    linux_distro: str
    linux_version: str
    onboard_stations: int
    usb_stations: int
    network_stations: int
    unknown_stations: int
    version: str


@dataclass(frozen=True)
class PowerOutcome:
    action: str
    #: False when host management is off and the request was only recorded
    performed: bool

    @property
    def message(self) -> str:
        if self.performed:
            return f"{self.action} started"
        return (
            f"{self.action} recorded but not performed: host management is off "
            "(start the host with --host-management to let it act on the machine)"
        )


class RoundTrips(Protocol):
    """How long each seat's receiver took to answer, lately (the host's stations)."""

    @property
    def round_trip_ms(self) -> Mapping[str, float]: ...


class Machine:
    def __init__(
        self,
        core: Core,
        machine: MachineSlot,
        stations: RoundTrips,
        licence: LicenceRules,
        files: DataFiles | None,
    ) -> None:
        self._core = core
        self._machine = machine
        self._stations = stations
        self._licence = licence
        self._files = files
        self._facts: MachineFacts | None = None
        #: moves when the machine facts read differ from those read before
        self.facts_version = 0

    @property
    def platform(self) -> MachineAdapters:
        return self._machine.adapters

    # machine facts

    def _read_facts(self) -> MachineFacts:
        facts = self._machine.adapters.facts
        return MachineFacts(
            facts.host_name(), facts.primary_ipv4(), facts.os_release(), facts.build_data()
        )

    def machine_facts(self) -> MachineFacts:
        """The machine facts as last read (read now if they never were)."""
        if self._facts is None:
            self._facts = self._read_facts()
        return self._facts

    def facts_changed(self) -> None:
        """The host changed the machine (its host name, its network): read the facts
        again when next asked."""
        self._facts = None
        self.facts_version += 1

    async def refresh_facts(self) -> bool:
        """Read the machine facts again, in a thread; True when they changed."""
        version = self.facts_version
        fresh = await asyncio.to_thread(self._read_facts)
        if self.facts_version != version:  # the host changed them meanwhile: read later
            return False
        if fresh == self._facts:
            return False
        self._facts = fresh
        self.facts_version += 1
        return True

    async def refresh_facts_every(self, seconds: float = FACTS_REFRESH_S) -> None:
        """Keep the machine facts fresh: read them again every ``seconds``."""
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.refresh_facts()
            except Exception:
                log.exception("could not read the machine facts again")

    async def info(self) -> SystemInfo:
        facts = self._machine.adapters.facts
        machine = self.machine_facts()
        return SystemInfo(
            # read now: a simulated host name is a setting, changed with the state
            host_name=facts.host_name(),
            ip_address=machine.ip_address,
            system_id=await facts.system_id(),
            product_version=__version__,
            product_build_data=machine.build_data,
            linux_distro=machine.release.name,
            linux_version=machine.release.version,
            # every tilewall station is a receiver on the network
            onboard_stations=0,
            usb_stations=0,
            network_stations=len(self._core.state.stations),
            unknown_stations=0,
            version=INTERFACE_VERSION,
        )

    def today(self) -> date:
        return datetime.fromtimestamp(self._core.clock.now_ms() / 1000, UTC).date()

    # diagnostics

    def diagnostics_input(self) -> DiagnosticsInput:
        state = self._core.state
        probes = []
        for station in sorted(state.stations.values(), key=lambda s: s.seat_id):
            if not station.locked:
                continue
            display = state.displays.get(station.display_id) if station.display_id else None
            probes.append(
                StationProbe(
                    seat_id=station.seat_id,
                    name=station.name,
                    round_trip_ms=self._stations.round_trip_ms.get(station.seat_id),
                    firmware=station.firmware,
                    # a receiver that never reported a screen has nothing to show on
                    has_display=display is not None and station.screen is not None,
                )
            )
        return DiagnosticsInput(self._licence.current(), self.today(), probes)

    async def diagnostics(self) -> list[DiagnosticResult]:
        return await self.platform.diagnostics.run(self.diagnostics_input())

    # power

    async def reboot(self) -> PowerOutcome:
        await self.platform.power.reboot()
        return PowerOutcome("reboot", self.platform.host_management)

    async def shutdown(self) -> PowerOutcome:
        await self.platform.power.shutdown()
        return PowerOutcome("shutdown", self.platform.host_management)

    # partner access

    def partner_access(self) -> bool:
        return bool(self._core.state.settings.get(PARTNER_ACCESS, False))

    async def set_partner_access(self, allowed: bool) -> bool:
        """Allow or forbid partner access; forbidding it also ends remote control."""
        async with self._core.change() as tx:
            tx.put_setting(PARTNER_ACCESS, allowed)
        if not allowed and await self.platform.remote.status():
            log.info("partner access withdrawn: stopping remote control")
            await self.platform.remote.stop()
        return allowed

    # the interface log

    async def api_log_tail(self, max_bytes: int) -> str:
        """The last ``max_bytes`` of the current interface log ("" when there is none)."""
        return "" if self._files is None else await self._files.api_log_tail(max_bytes)
