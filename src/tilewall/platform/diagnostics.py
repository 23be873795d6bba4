"""The host's self-check: one verdict per known diagnostic id, with the numbers behind it.

Checks that concern services tilewall does not have (cloud, TURN relays, capture cards,
a GPU on the host) succeed with the single param ``NOT_USED``: nothing there can fail.
"""

from collections.abc import Sequence
from pathlib import Path

from tilewall.host.machine.facts import (
    DiagnosticResult,
    DiagnosticsInput,
    NetworkInterface,
    StationProbe,
)
from tilewall.host.machine.ports import Facts, NetworkInterfaces
from tilewall.platform.network import NetworkBusy
from tilewall.platform.routes import PROC_ROUTE, default_routes, is_usable_ipv4

NOT_USED = "not used by this host"

MIN_CPU_CORES = 2
MIN_TOTAL_RAM_BYTES = 2 * 1024**3
MIN_ROOT_FREE_BYTES = 2 * 1024**3
MAX_MEMORY_USED_PERCENT = 90.0
MAX_ROUND_TRIP_MS = 20.0
MIN_LINK_MBITS = 1000
SECURE_BOOT_VAR = Path("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e98c2b7e77ac")

IDS = (
    "MISSING_USER_NAMES",
    "SUPPORT",
    "CLOUD_SUBSCRIPTION",
    "ONPREM_UCLIENT_GPU_REQUIREMENT",
    "CAPTURE_CARD_FIRMWARE",
    "LICENSE",
    "TURN_SERVER",
    "ALL_STATIONS_GBIT_SETTINGS",
    "UNSUPPORTED_DEVICES",
    "REDUNDANT_DEFAULT_GATEWAY",
    "NETWORK_LATENCY",
    "SOURCE_MEMORY_USAGE",
    "NOT_REGISTERED_TO_CLOUD",
    "NETWORK_DHCP",
    "ROOT_FREE_DISK_SPACE",
    "CPU_CORES",
    "NETWORK_BANDWIDTH",
    "ALL_ZC_DISPLAY",
    "SOFTWARE_UPDATE_CONGRUENCY",
    "NETWORK_IP",
    "TOTAL_RAM",
    "SECUREBOOT_FREE",
)


def _label(station: StationProbe) -> str:
    return station.name or station.seat_id


def _gib(n: int) -> str:
    return f"{n / 1024**3:.1f} GiB"


def secure_boot_state(path: Path = SECURE_BOOT_VAR) -> str:
    """``enabled``, ``disabled`` or ``no EFI``, from the EFI variable."""
    try:
        raw = path.read_bytes()
    except OSError:
        # the variable lives in <efi>/efivars/; without <efi> the machine booted without EFI
        return "no EFI" if not path.parent.parent.exists() else "unknown"
    # four bytes of attributes, then the value
    return "enabled" if len(raw) >= 5 and raw[4] == 1 else "disabled"


class Diagnostics:
    def __init__(
        self,
        facts: Facts,
        network: NetworkInterfaces,
        *,
        route_path: Path = PROC_ROUTE,
        secure_boot_var: Path = SECURE_BOOT_VAR,
    ) -> None:
        self._facts = facts
        self._network = network
        self._route_path = route_path
        self._secure_boot_var = secure_boot_var

    async def run(self, given: DiagnosticsInput) -> list[DiagnosticResult]:
        """Every known id, in the order of :data:`IDS`."""
        try:
            interfaces = await self._network.list()
        except NetworkBusy:  # judge the network by what the routes say until it settles
            interfaces = []
        results = {
            **self._stations(given.stations, given.expected_firmware),
            **self._licence(given),
            **self._machine(),
            **self._network_checks(interfaces),
        }
        for unused in (
            "CLOUD_SUBSCRIPTION",
            "NOT_REGISTERED_TO_CLOUD",
            "TURN_SERVER",
            "CAPTURE_CARD_FIRMWARE",
        ):
            results[unused] = DiagnosticResult(unused, True, [NOT_USED])
        results["ONPREM_UCLIENT_GPU_REQUIREMENT"] = DiagnosticResult(
            "ONPREM_UCLIENT_GPU_REQUIREMENT",
            True,
            [NOT_USED, "receivers render in their own browsers"],
        )
        state = secure_boot_state(self._secure_boot_var)
        # tilewall loads no kernel modules, so Secure Boot never stands in its way
        results["SECUREBOOT_FREE"] = DiagnosticResult(
            "SECUREBOOT_FREE", True, [f"secure boot: {state}", NOT_USED]
        )
        return [results[i] for i in IDS]

    def _stations(
        self, stations: Sequence[StationProbe], expected: str
    ) -> dict[str, DiagnosticResult]:
        unnamed = [s.seat_id for s in stations if not s.name.strip()]
        slow_links = [
            f"{_label(s)}: {s.link_mbits} Mbit/s"
            for s in stations
            if s.link_mbits is not None and s.link_mbits < MIN_LINK_MBITS
        ]
        unsupported = [_label(s) for s in stations if not s.supported]
        measured = [s for s in stations if s.round_trip_ms is not None]
        late = [
            f"{_label(s)}: {s.round_trip_ms:.1f} ms"
            for s in measured
            if s.round_trip_ms is not None and s.round_trip_ms > MAX_ROUND_TRIP_MS
        ]
        worst = max((s.round_trip_ms or 0.0 for s in measured), default=0.0)
        blind = [_label(s) for s in stations if not s.has_display]
        versions = sorted({s.firmware for s in stations if s.firmware})
        if expected:
            congruent = all(s.firmware == expected for s in stations if s.firmware)
        else:
            congruent = len(versions) <= 1
        return {
            "MISSING_USER_NAMES": DiagnosticResult("MISSING_USER_NAMES", not unnamed, unnamed),
            "ALL_STATIONS_GBIT_SETTINGS": DiagnosticResult(
                "ALL_STATIONS_GBIT_SETTINGS",
                not slow_links,
                [f"minimum {MIN_LINK_MBITS} Mbit/s", *slow_links],
            ),
            "UNSUPPORTED_DEVICES": DiagnosticResult(
                "UNSUPPORTED_DEVICES", not unsupported, unsupported
            ),
            "NETWORK_LATENCY": DiagnosticResult(
                "NETWORK_LATENCY",
                not late,
                [
                    f"worst {worst:.1f} ms",
                    f"limit {MAX_ROUND_TRIP_MS:.0f} ms",
                    f"{len(measured)} of {len(stations)} measured",
                    *late,
                ],
            ),
            "ALL_ZC_DISPLAY": DiagnosticResult("ALL_ZC_DISPLAY", not blind, blind),
            "SOFTWARE_UPDATE_CONGRUENCY": DiagnosticResult(
                "SOFTWARE_UPDATE_CONGRUENCY",
                congruent,
                ([f"expected {expected}"] if expected else []) + versions,
            ),
        }

    def _licence(self, given: DiagnosticsInput) -> dict[str, DiagnosticResult]:
        licence, today = given.licence, given.today.isoformat()
        if licence is None:
            return {
                "LICENSE": DiagnosticResult("LICENSE", False, ["no licence"]),
                "SUPPORT": DiagnosticResult("SUPPORT", False, ["no licence"]),
            }
        stations = len(given.stations)
        limit = licence.number_of_stations
        in_date = not licence.expires or licence.expires >= today
        within = limit is None or stations <= limit
        support = licence.support_expires
        return {
            "LICENSE": DiagnosticResult(
                "LICENSE",
                in_date and within,
                [
                    f"expires {licence.expires or 'never'}",
                    f"{stations} stations",
                    f"{'unlimited' if limit is None else limit} licensed",
                ],
            ),
            # ISO dates compare correctly as strings
            "SUPPORT": DiagnosticResult(
                "SUPPORT",
                bool(support) and support >= today,
                [f"support expires {support}" if support else "no support contract"],
            ),
        }

    def _machine(self) -> dict[str, DiagnosticResult]:
        cores = self._facts.cpu_cores()
        ram = self._facts.total_memory_bytes()
        used = self._facts.memory_used_percent()
        disk = self._facts.disk_usage("/")
        return {
            "CPU_CORES": DiagnosticResult(
                "CPU_CORES", cores >= MIN_CPU_CORES, [str(cores), f"minimum {MIN_CPU_CORES}"]
            ),
            "TOTAL_RAM": DiagnosticResult(
                "TOTAL_RAM",
                ram >= MIN_TOTAL_RAM_BYTES,
                [_gib(ram), f"minimum {_gib(MIN_TOTAL_RAM_BYTES)}"],
            ),
            "SOURCE_MEMORY_USAGE": DiagnosticResult(
                "SOURCE_MEMORY_USAGE",
                used <= MAX_MEMORY_USED_PERCENT,
                [f"{used:.0f}% used", f"limit {MAX_MEMORY_USED_PERCENT:.0f}%"],
            ),
            "ROOT_FREE_DISK_SPACE": DiagnosticResult(
                "ROOT_FREE_DISK_SPACE",
                disk.free_bytes >= MIN_ROOT_FREE_BYTES,
                [
                    f"{_gib(disk.free_bytes)} free of {_gib(disk.total_bytes)}",
                    f"minimum {_gib(MIN_ROOT_FREE_BYTES)}",
                ],
            ),
        }

    def _network_checks(self, interfaces: list[NetworkInterface]) -> dict[str, DiagnosticResult]:
        routes = default_routes(self._route_path)
        address = self._facts.primary_ipv4()
        primary = next((i for i in interfaces if address and i.ip_address == address), None)
        speed = primary.link_speed if primary is not None and primary.link_speed else "unknown"
        mbits = int(speed.split()[0]) if speed != "unknown" else None
        return {
            "REDUNDANT_DEFAULT_GATEWAY": DiagnosticResult(
                "REDUNDANT_DEFAULT_GATEWAY",
                len(routes) <= 1,
                [f"{r.interface} via {r.gateway}" for r in routes],
            ),
            "NETWORK_IP": DiagnosticResult(
                "NETWORK_IP", is_usable_ipv4(address), [address or "no IPv4 address"]
            ),
            # a host whose address a DHCP server may change strands its receivers
            "NETWORK_DHCP": DiagnosticResult(
                "NETWORK_DHCP",
                primary is not None and not primary.uses_dhcp,
                [primary.id, "dhcp" if primary.uses_dhcp else "static"]
                if primary is not None
                else ["no primary interface"],
            ),
            # an unknown speed (virtual interfaces) is not held against the host
            "NETWORK_BANDWIDTH": DiagnosticResult(
                "NETWORK_BANDWIDTH",
                mbits is None or mbits >= MIN_LINK_MBITS,
                [
                    primary.id if primary is not None else "no primary interface",
                    speed,
                    f"minimum {MIN_LINK_MBITS} Mbit/s",
                ],
            ),
        }
