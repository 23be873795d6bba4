"""What the host needs of the machine it runs on, as Protocols its adapters implement.

The adapters are in ``tilewall.platform``: they change the machine with host management
on, and without it keep the change they pretend to have made in the host's settings.
Reads are real either way.
"""

from collections.abc import Sequence
from typing import Any, Protocol

from tilewall.host.machine.facts import (
    CatalogueEntry,
    DiagnosticResult,
    DiagnosticsInput,
    DiskUsage,
    InterfaceUpdate,
    NetworkInterface,
    OsRelease,
    PackageVersion,
    SerialSettings,
)


class SettingsStore(Protocol):
    """Named JSON-like values (str, int, float, bool, None, lists and dicts of them).

    The host backs this with its durable settings, where simulated adapters keep the
    machine state they pretend to have changed; ``put(name, None)`` removes a value.
    """

    def get(self, name: str) -> Any | None: ...

    async def put(self, name: str, value: Any) -> None: ...


class Facts(Protocol):
    def host_name(self) -> str: ...

    def primary_ipv4(self) -> str: ...

    async def system_id(self) -> str: ...

    def os_release(self) -> OsRelease: ...

    def cpu_cores(self) -> int:
        """Logical CPUs."""
        ...

    def total_memory_bytes(self) -> int: ...

    def memory_used_percent(self) -> float: ...

    def disk_usage(self, path: str = "/") -> DiskUsage: ...

    def interface_names(self) -> list[str]:
        """Names of the machine's network interfaces, loopback excluded."""
        ...

    def build_data(self) -> str:
        """How this copy of tilewall was built and installed (version, commit, when),
        from its package metadata."""
        ...


class HostName(Protocol):
    def get(self) -> str: ...

    async def set(self, name: str) -> None: ...


class TimeZones(Protocol):
    def current(self) -> str: ...

    def current_offset_minutes(self) -> int:
        """Minutes east of UTC of the current zone, now."""
        ...

    def available(self) -> list[str]: ...

    async def set(self, zone: str) -> None: ...


class NetworkInterfaces(Protocol):
    async def list(self) -> list[NetworkInterface]:
        """Every interface; raises :class:`~tilewall.host.errors.Busy` while an update
        is applied."""
        ...

    async def update(self, update: InterfaceUpdate) -> None:
        """Validate ``update`` (raising before anything changes) and start applying it."""
        ...

    @property
    def busy(self) -> bool: ...

    @property
    def last_error(self) -> str | None:
        """Why the last background apply failed, if it did."""
        ...

    async def wait_idle(self) -> None: ...


class Power(Protocol):
    async def reboot(self) -> None: ...

    async def shutdown(self) -> None: ...


class RemoteAccess(Protocol):
    @property
    def service(self) -> str:
        """The name of the service that gives remote control."""
        ...

    async def status(self) -> bool:
        """Whether remote control is running."""
        ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class Packages(Protocol):
    async def manifest(self) -> list[PackageVersion]:
        """Installed Python distributions, then installed Debian packages."""
        ...

    async def catalogue(self) -> list[CatalogueEntry]: ...

    async def install(self, names: Sequence[str]) -> None:
        """Install catalogue packages; any name outside the catalogue refuses them all."""
        ...


class SerialPorts(Protocol):
    def check_settings(
        self, baud_rate: object, data_bits: object, parity: object, stop_bits: object
    ) -> SerialSettings:
        """The settings as the port takes them; raises
        :class:`~tilewall.host.errors.Invalid` naming the first bad one."""
        ...

    async def open_and_write(self, port: str, settings: SerialSettings, data: bytes) -> int:
        """Open ``port`` (device path or pyserial URL) with ``settings`` (as
        :meth:`check_settings` gave them), write ``data`` and close; return the number of
        bytes written."""
        ...


class Diagnostics(Protocol):
    async def run(self, given: DiagnosticsInput) -> list[DiagnosticResult]: ...


class MachineAdapters(Protocol):
    """Every adapter to the machine the host runs on."""

    @property
    def host_management(self) -> bool:
        """True when changes are made to the machine; False when they are simulated."""
        ...

    @property
    def facts(self) -> Facts: ...

    @property
    def hostname(self) -> HostName: ...

    @property
    def timezones(self) -> TimeZones: ...

    @property
    def network(self) -> NetworkInterfaces: ...

    @property
    def power(self) -> Power: ...

    @property
    def packages(self) -> Packages: ...

    @property
    def remote(self) -> RemoteAccess: ...

    @property
    def serial(self) -> SerialPorts: ...

    @property
    def diagnostics(self) -> Diagnostics: ...
