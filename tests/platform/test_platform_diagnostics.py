import os
from datetime import date
from pathlib import Path

import psutil

from tilewall.host.machine.facts import DiagnosticsInput, StationProbe
from tilewall.host.model import Licence
from tilewall.platform import platform_for
from tilewall.platform.diagnostics import (
    IDS,
    NOT_USED,
    Diagnostics,
    secure_boot_state,
)
from tilewall.platform.facts import MachineFacts
from tilewall.platform.hostname import SimulatedHostName
from tilewall.platform.network import SimulatedNetworkInterfaces
from tilewall.platform.runner import SubprocessRunner
from tilewall.platform.settings import MemorySettingsStore

TODAY = date(2025, 6, 1)
SPEC_IDS = {
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
}
GOOD = Licence(
    reseller_name="R", number_of_stations=3, expires="2026-01-01", support_expires="2025-12-31"
)


def diagnostics(route: Path | None = None) -> Diagnostics:
    store = MemorySettingsStore()
    runner = SubprocessRunner()
    facts = MachineFacts(SimulatedHostName(store), store)
    network = SimulatedNetworkInterfaces(runner, store)
    if route is None:
        return Diagnostics(facts, network)
    return Diagnostics(facts, network, route_path=route)


Verdicts = dict[str, tuple[bool, list[str]]]


async def run(given: DiagnosticsInput, route: Path | None = None) -> Verdicts:
    results = await diagnostics(route).run(given)
    assert [r.id for r in results] == list(IDS)
    return {r.id: (r.success, r.params) for r in results}


async def test_every_known_id_once() -> None:
    results = await diagnostics().run(DiagnosticsInput(GOOD, TODAY))
    assert {r.id for r in results} == SPEC_IDS
    assert len(results) == len(SPEC_IDS)


async def test_machine_checks_use_the_machines_numbers() -> None:
    out = await run(DiagnosticsInput(GOOD, TODAY))
    cores = os.cpu_count() or 1
    assert out["CPU_CORES"] == (cores >= 2, [str(cores), "minimum 2"])
    total = psutil.virtual_memory().total
    assert out["TOTAL_RAM"][1][0] == f"{total / 1024**3:.1f} GiB"
    # other tests write beside this one: the free space read just before and just after
    before = psutil.disk_usage("/").free
    out = await run(DiagnosticsInput(GOOD, TODAY))
    after = psutil.disk_usage("/").free
    passed, (told, *_) = out["ROOT_FREE_DISK_SPACE"]
    gib = float(told.split(" GiB free")[0])
    low, high = sorted(round(free / 1024**3, 1) for free in (before, after))
    assert low <= gib <= high, (before, after, told)
    assert passed == (gib >= 2), out["ROOT_FREE_DISK_SPACE"]


async def test_unused_services_say_so() -> None:
    out = await run(DiagnosticsInput(GOOD, TODAY))
    for name in (
        "CLOUD_SUBSCRIPTION",
        "NOT_REGISTERED_TO_CLOUD",
        "TURN_SERVER",
        "CAPTURE_CARD_FIRMWARE",
        "ONPREM_UCLIENT_GPU_REQUIREMENT",
        "SECUREBOOT_FREE",
    ):
        assert out[name][0] is True
        assert NOT_USED in out[name][1]


async def test_licence_and_support() -> None:
    stations = [StationProbe(f"s{i}", f"Screen {i}") for i in range(4)]
    assert (await run(DiagnosticsInput(GOOD, TODAY, stations[:3])))["LICENSE"][0] is True
    over = await run(DiagnosticsInput(GOOD, TODAY, stations))
    assert over["LICENSE"] == (False, ["expires 2026-01-01", "4 stations", "3 licensed"])
    expired = await run(DiagnosticsInput(GOOD, date(2026, 1, 2)))
    assert expired["LICENSE"][0] is False
    assert expired["SUPPORT"] == (False, ["support expires 2025-12-31"])
    none = await run(DiagnosticsInput(None, TODAY))
    assert none["LICENSE"] == (False, ["no licence"])
    no_support = Licence(number_of_stations=None)
    out = await run(DiagnosticsInput(no_support, TODAY, stations))
    assert out["LICENSE"][0] is True
    assert out["SUPPORT"] == (False, ["no support contract"])


async def test_station_checks_name_the_offenders() -> None:
    stations = [
        StationProbe("a", "Lobby", round_trip_ms=2.0, firmware="1.2", link_mbits=1000),
        StationProbe(
            "b",
            "",
            round_trip_ms=45.5,
            firmware="1.1",
            link_mbits=100,
            has_display=False,
            supported=False,
        ),
        StationProbe("c", "Bar"),
    ]
    out = await run(DiagnosticsInput(GOOD, TODAY, stations))
    assert out["MISSING_USER_NAMES"] == (False, ["b"])
    assert out["ALL_STATIONS_GBIT_SETTINGS"] == (False, ["minimum 1000 Mbit/s", "b: 100 Mbit/s"])
    assert out["UNSUPPORTED_DEVICES"] == (False, ["b"])
    assert out["ALL_ZC_DISPLAY"] == (False, ["b"])
    assert out["NETWORK_LATENCY"] == (
        False,
        ["worst 45.5 ms", "limit 20 ms", "2 of 3 measured", "b: 45.5 ms"],
    )
    assert out["SOFTWARE_UPDATE_CONGRUENCY"] == (False, ["1.1", "1.2"])
    fine = await run(DiagnosticsInput(GOOD, TODAY, stations[:1], expected_firmware="1.2"))
    for name in (
        "MISSING_USER_NAMES",
        "ALL_STATIONS_GBIT_SETTINGS",
        "UNSUPPORTED_DEVICES",
        "ALL_ZC_DISPLAY",
        "NETWORK_LATENCY",
        "SOFTWARE_UPDATE_CONGRUENCY",
    ):
        assert fine[name][0] is True, name
    stale = await run(DiagnosticsInput(GOOD, TODAY, stations[:1], expected_firmware="1.3"))
    assert stale["SOFTWARE_UPDATE_CONGRUENCY"] == (False, ["expected 1.3", "1.2"])


async def test_two_default_gateways_are_redundant(tmp_path: Path) -> None:
    route = tmp_path / "route"
    header = "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\tMTU\tWindow\tIRTT\n"
    one = "eth0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
    two = "wlan0\t00000000\t010010AC\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
    route.write_text(header + one)
    assert (await run(DiagnosticsInput(GOOD, TODAY), route))["REDUNDANT_DEFAULT_GATEWAY"] == (
        True,
        ["eth0 via 192.168.1.1"],
    )
    route.write_text(header + one + two)
    assert (await run(DiagnosticsInput(GOOD, TODAY), route))["REDUNDANT_DEFAULT_GATEWAY"] == (
        False,
        ["eth0 via 192.168.1.1", "wlan0 via 172.16.0.1"],
    )


async def test_network_ip_is_the_primary_address() -> None:
    platform = platform_for(False, MemorySettingsStore())
    results = await platform.diagnostics.run(DiagnosticsInput(GOOD, TODAY))
    network_ip = next(r for r in results if r.id == "NETWORK_IP")
    address = platform.facts.primary_ipv4()
    assert network_ip.params == [address or "no IPv4 address"]
    assert network_ip.success is bool(address)


def test_secure_boot_state(tmp_path: Path) -> None:
    var = tmp_path / "efi" / "efivars" / "SecureBoot-x"
    assert secure_boot_state(var) == "no EFI"
    var.parent.mkdir(parents=True)
    assert secure_boot_state(var) == "unknown"
    var.write_bytes(b"\x06\x00\x00\x00\x01")
    assert secure_boot_state(var) == "enabled"
    var.write_bytes(b"\x06\x00\x00\x00\x00")
    assert secure_boot_state(var) == "disabled"
