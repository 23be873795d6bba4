"""All machine adapters of a host, real or simulated as one choice."""

from dataclasses import dataclass

from tilewall.host.machine.ports import (
    Facts,
    HostName,
    NetworkInterfaces,
    Packages,
    Power,
    RemoteAccess,
    SerialPorts,
    TimeZones,
)
from tilewall.platform.diagnostics import Diagnostics
from tilewall.platform.facts import MachineFacts
from tilewall.platform.hostname import LinuxHostName, SimulatedHostName
from tilewall.platform.network import (
    LinuxNetworkInterfaces,
    SimulatedNetworkInterfaces,
)
from tilewall.platform.packages import LinuxPackages, SimulatedPackages
from tilewall.platform.power import LinuxPower, SimulatedPower
from tilewall.platform.remote import (
    DEFAULT_SERVICE,
    LinuxRemoteAccess,
    SimulatedRemoteAccess,
)
from tilewall.platform.runner import Runner, SubprocessRunner
from tilewall.platform.serialports import PySerialPorts
from tilewall.platform.settings import SettingsStore
from tilewall.platform.timezone import LinuxTimeZones, SimulatedTimeZones


@dataclass(frozen=True)
class Platform:
    host_management: bool
    facts: Facts
    hostname: HostName
    timezones: TimeZones
    network: NetworkInterfaces
    power: Power
    packages: Packages
    remote: RemoteAccess
    serial: SerialPorts
    diagnostics: Diagnostics


def platform_for(
    host_management: bool,
    store: SettingsStore,
    runner: Runner | None = None,
    *,
    remote_service: str = DEFAULT_SERVICE,
    network_apply_seconds: float = 2.0,
) -> Platform:
    """The adapters of a host.

    With ``host_management`` the machine is changed for real; without it changes are
    simulated in ``store``. Reads are real either way, and serial ports are always real
    because writing to a display's port changes no setting of the machine.
    ``network_apply_seconds`` is how long a simulated network update keeps reads busy.
    """
    runner = runner if runner is not None else SubprocessRunner()
    hostname: HostName
    timezones: TimeZones
    network: NetworkInterfaces
    power: Power
    packages: Packages
    remote: RemoteAccess
    if host_management:
        hostname = LinuxHostName(runner)
        timezones = LinuxTimeZones(runner)
        network = LinuxNetworkInterfaces(runner)
        power = LinuxPower(runner)
        packages = LinuxPackages(runner)
        remote = LinuxRemoteAccess(runner, remote_service)
    else:
        hostname = SimulatedHostName(store)
        timezones = SimulatedTimeZones(store)
        network = SimulatedNetworkInterfaces(runner, store, network_apply_seconds)
        power = SimulatedPower(store)
        packages = SimulatedPackages(runner, store)
        remote = SimulatedRemoteAccess(store, remote_service)
    facts = MachineFacts(hostname, store)
    return Platform(
        host_management=host_management,
        facts=facts,
        hostname=hostname,
        timezones=timezones,
        network=network,
        power=power,
        packages=packages,
        remote=remote,
        serial=PySerialPorts(),
        diagnostics=Diagnostics(facts, network),
    )
