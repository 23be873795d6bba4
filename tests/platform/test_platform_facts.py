import os
import socket
import uuid
from pathlib import Path

import psutil

from tilewall.platform.facts import MachineFacts, parse_os_release, read_os_release
from tilewall.platform.hostname import SimulatedHostName
from tilewall.platform.routes import default_routes, gateway_of
from tilewall.platform.settings import MemorySettingsStore

ROUTE_TABLE = (
    "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
    "eth0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
    "eth0\t0001A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
    "wlan0\t00000000\t010010AC\t0003\t0\t0\t50\t00000000\t0\t0\t0\n"
    "eth1\t00000000\t01000A0A\t0002\t0\t0\t0\t00000000\t0\t0\t0\n"
)


def facts(store: MemorySettingsStore, tmp_path: Path, machine_id: str | None) -> MachineFacts:
    path = tmp_path / "machine-id"
    if machine_id is not None:
        path.write_text(machine_id + "\n")
    return MachineFacts(SimulatedHostName(store), store, machine_id=path)


def test_resources_are_the_machines(store: MemorySettingsStore, tmp_path: Path) -> None:
    f = facts(store, tmp_path, None)
    assert f.cpu_cores() == os.cpu_count()
    assert f.total_memory_bytes() == psutil.virtual_memory().total
    assert f.disk_usage("/").total_bytes == psutil.disk_usage("/").total
    assert 0 <= f.memory_used_percent() <= 100


async def test_host_name_follows_the_hostname_adapter(
    store: MemorySettingsStore, tmp_path: Path
) -> None:
    f = facts(store, tmp_path, None)
    assert f.host_name() == socket.gethostname()
    await SimulatedHostName(store).set("renamed")
    assert f.host_name() == "renamed"


async def test_system_id_is_derived_from_machine_id_and_kept(
    store: MemorySettingsStore, tmp_path: Path
) -> None:
    first = await facts(store, tmp_path, "0123456789abcdef0123456789abcdef").system_id()
    assert "0123456789abcdef" not in first.replace("-", "")
    uuid.UUID(first)
    # the same machine gives the same id even with a fresh store
    again = facts(MemorySettingsStore(), tmp_path, "0123456789abcdef0123456789abcdef")
    assert await again.system_id() == first
    # and a kept id wins over the machine
    (tmp_path / "machine-id").write_text("ffffffffffffffffffffffffffffffff\n")
    assert await facts(store, tmp_path, None).system_id() == first


async def test_system_id_without_machine_id_is_random_but_kept(
    store: MemorySettingsStore, tmp_path: Path
) -> None:
    f = facts(store, tmp_path, None)
    first = await f.system_id()
    assert await f.system_id() == first
    assert await facts(MemorySettingsStore(), tmp_path, None).system_id() != first


def test_os_release_of_this_machine() -> None:
    text = Path("/etc/os-release").read_text()
    values = parse_os_release(text)
    release = read_os_release()
    assert release.name == values["NAME"]
    assert release.version == values.get("VERSION_ID", values.get("VERSION", ""))


def test_os_release_parsing_handles_quotes_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "os-release"
    path.write_text('# c\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nPRETTY_NAME=\'D 12\'\nX\n')
    release = read_os_release((tmp_path / "none", path))
    assert (release.name, release.version, release.pretty_name) == (
        "Debian GNU/Linux",
        "12",
        "D 12",
    )


def test_default_routes_are_parsed_lowest_metric_first(tmp_path: Path) -> None:
    path = tmp_path / "route"
    path.write_text(ROUTE_TABLE)
    routes = default_routes(path)
    # eth1's entry is not up, so it is not a route
    assert [(r.interface, r.gateway, r.metric) for r in routes] == [
        ("wlan0", "172.16.0.1", 50),
        ("eth0", "192.168.1.1", 100),
    ]
    assert gateway_of("eth0", path) == "192.168.1.1"
    assert gateway_of("eth9", path) == ""


def test_primary_ipv4_is_the_default_route_interfaces(
    store: MemorySettingsStore, tmp_path: Path
) -> None:
    address = facts(store, tmp_path, None).primary_ipv4()
    routes = default_routes()
    addrs = psutil.net_if_addrs()
    if routes:
        expected = [a.address for a in addrs[routes[0].interface] if a.family == socket.AF_INET]
        assert address == expected[0]
    else:
        assert address == "" or not address.startswith("127.")
