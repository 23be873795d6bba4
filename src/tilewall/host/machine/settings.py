"""The machine's own settings behind ``/system``: host name, time zone, network
interfaces, optional packages and remote control. Each goes through the machine
adapters, which change the machine with host management on and only pretend to (keeping
the change in the host's settings) without."""

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from tilewall.host.errors import Failed, Invalid, Unavailable
from tilewall.host.machine.facts import (
    CatalogueEntry,
    InterfaceUpdate,
    NetworkInterface,
    PackageVersion,
)
from tilewall.host.machine.slot import MachineSlot

#: how long an interface update may take before the answer says "accepted, applying"
APPLY_GRACE_SECONDS = 1.0


@dataclass(frozen=True)
class TimeZone:
    current: str
    #: minutes east of UTC of the current zone, now
    offset_minutes: int
    available: list[str]


@dataclass(frozen=True)
class RemoteControl:
    running: bool
    #: False when starting and stopping are only simulated
    performed: bool
    service: str


class MachineSettings:
    def __init__(
        self,
        machine: MachineSlot,
        facts_changed: Callable[[], None] = lambda: None,
    ) -> None:
        self._machine = machine
        #: told when a change may have changed the machine facts (its addresses)
        self._facts_changed = facts_changed
        self._applying: set[asyncio.Task[None]] = set()

    # host name

    def host_name(self) -> str:
        return self._machine.adapters.hostname.get()

    async def set_host_name(self, name: str) -> str:
        hostname = self._machine.adapters.hostname
        try:
            await hostname.set(name)
        finally:
            self._facts_changed()
        return hostname.get()

    # time zone

    def time_zone(self) -> TimeZone:
        zones = self._machine.adapters.timezones
        return TimeZone(zones.current(), zones.current_offset_minutes(), zones.available())

    async def set_time_zone(self, zone: str) -> TimeZone:
        await self._machine.adapters.timezones.set(zone)
        return self.time_zone()

    # network interfaces

    async def network_interfaces(self) -> list[NetworkInterface]:
        return await self._machine.adapters.network.list()

    async def update_network_interface(self, update: InterfaceUpdate) -> bool:
        """Validate and start applying ``update``; True when it took effect within the
        grace period, False when it is still being applied. A failure within the grace
        period raises :class:`Failed` with the reason."""
        network = self._machine.adapters.network
        try:
            await network.update(update)
            await asyncio.wait_for(network.wait_idle(), APPLY_GRACE_SECONDS)
        except TimeoutError:
            self._when_applied(network.wait_idle())
            return False
        except Unavailable as error:
            raise Failed(str(error)) from error
        finally:
            self._facts_changed()
        if network.last_error is not None:
            raise Failed(
                f"network settings of {update.id} could not be applied: {network.last_error}"
            )
        return True

    def _when_applied(self, idle: Awaitable[None]) -> None:
        """Tell that the facts changed once an update still being applied is done
        (whether it worked or not: the update reports its own failure)."""

        async def wait() -> None:
            with contextlib.suppress(Exception):
                await idle
            self._facts_changed()

        task = asyncio.create_task(wait())
        self._applying.add(task)
        task.add_done_callback(self._applying.discard)

    # packages

    async def manifest(self) -> list[PackageVersion]:
        return await self._machine.adapters.packages.manifest()

    async def package_catalogue(self) -> list[CatalogueEntry]:
        return await self._machine.adapters.packages.catalogue()

    async def install_packages(self, names: Sequence[str]) -> list[CatalogueEntry]:
        """Install catalogue packages and answer the catalogue afterwards."""
        if not names:
            raise Invalid("give the names of the packages to install")
        packages = self._machine.adapters.packages
        await packages.install(names)
        return await packages.catalogue()

    # remote control by a support partner

    async def remote_control(self) -> RemoteControl:
        machine = self._machine.adapters
        return RemoteControl(
            await machine.remote.status(), machine.host_management, machine.remote.service
        )

    async def start_remote_control(self) -> RemoteControl:
        await self._machine.adapters.remote.start()
        return await self.remote_control()

    async def stop_remote_control(self) -> RemoteControl:
        await self._machine.adapters.remote.stop()
        return await self.remote_control()
