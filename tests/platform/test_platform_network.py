import asyncio
import json

import msgspec
import psutil
import pytest

from tilewall.platform.errors import InvalidSetting
from tilewall.platform.network import (
    InterfaceUpdate,
    LinuxNetworkInterfaces,
    NetworkBusy,
    NetworkInterface,
    SimulatedNetworkInterfaces,
    UnknownInterface,
)
from tilewall.platform.network_linux import nmcli_settings
from tilewall.platform.network_read import read_interfaces
from tilewall.platform.network_validation import validate_update
from tilewall.platform.routes import default_routes
from tilewall.platform.runner import CommandResult, RecordingRunner, SubprocessRunner
from tilewall.platform.settings import MemorySettingsStore

KNOWN = {"lo", "eth0"}
STATIC = InterfaceUpdate(
    id="eth0",
    ip_address="192.168.10.20",
    subnet_mask="255.255.255.0",
    default_gateway="192.168.10.1",
    preferred_dns_address="9.9.9.9",
    alternate_dns_address="1.1.1.1",
)


def a_real_interface() -> str:
    names = [n for n in psutil.net_if_stats() if n != "lo"]
    if not names:
        pytest.skip("this machine has no interface but loopback")
    return sorted(names)[0]


# --- reading


async def test_interfaces_are_the_machines() -> None:
    interfaces = await read_interfaces(SubprocessRunner())
    assert {i.id for i in interfaces} == set(psutil.net_if_stats()) | set(psutil.net_if_addrs())
    stats = psutil.net_if_stats()
    addrs = psutil.net_if_addrs()
    for iface in interfaces:
        assert iface.port_status == ("UP" if stats[iface.id].isup else "DOWN")
        inet = [a for a in addrs.get(iface.id, []) if a.family == 2]
        assert iface.ip_address == (inet[0].address if inet else "")
        assert iface.subnet_mask == ((inet[0].netmask or "") if inet else "")
        speed = stats[iface.id].speed
        assert iface.link_speed == (f"{speed} Mbit/s" if speed > 0 else "")
    for route in default_routes():
        match = next(i for i in interfaces if i.id == route.interface)
        assert match.default_gateway


async def test_dynamic_addresses_read_as_dhcp_with_lease_left() -> None:
    name = a_real_interface()
    listing = [
        {
            "ifname": name,
            "addr_info": [
                {
                    "family": "inet",
                    "local": "10.0.0.5",
                    "prefixlen": 24,
                    "dynamic": True,
                    "valid_life_time": 3500,
                },
            ],
        }
    ]
    runner = RecordingRunner({"ip -j -4 addr show": CommandResult(0, json.dumps(listing))})
    iface = next(i for i in await read_interfaces(runner) if i.id == name)
    assert iface.uses_dhcp is True
    assert iface.lease_duration == "3500"
    assert runner.commands == [["ip", "-j", "-4", "addr", "show"]]


def test_encoding_uses_the_interface_field_names() -> None:
    encoded = json.loads(msgspec.json.encode(NetworkInterface(id="eth0")))
    assert list(encoded) == [
        "id",
        "deviceName",
        "portStatus",
        "linkSpeed",
        "usesDHCP",
        "leaseDuration",
        "ipAddress",
        "subnetMask",
        "defaultGateway",
        "preferredDNSAddress",
        "alternateDNSAddress",
        "runningDhcpd",
        "dhcpdStarting",
    ]
    body = b'{"id":"eth0","usesDHCP":true,"runningDhcpd":false,"ipAddress":""}'
    assert msgspec.json.decode(body, type=InterfaceUpdate).uses_dhcp is True


# --- validation


def test_valid_static_update_is_normalised() -> None:
    update = msgspec.structs.replace(STATIC, subnet_mask="/24", ip_address=" 192.168.10.20 ")
    assert validate_update(update, KNOWN) == STATIC
    assert validate_update(msgspec.structs.replace(STATIC, subnet_mask="24"), KNOWN) == STATIC


def test_dhcp_update_needs_no_addresses() -> None:
    update = InterfaceUpdate(id="eth0", uses_dhcp=True)
    assert validate_update(update, KNOWN) == update


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"id": "eth7"}, "unknown network interface"),
        ({"id": "lo"}, "loopback"),
        ({"ip_address": "192.168.10.256"}, "ipAddress"),
        ({"ip_address": "192.168.010.20"}, "ipAddress"),
        ({"ip_address": ""}, "needs ipAddress and subnetMask"),
        ({"subnet_mask": "255.0.255.0"}, "not a valid netmask"),
        ({"subnet_mask": "0.0.0.255"}, "not a valid netmask"),
        ({"subnet_mask": "33"}, "prefix length"),
        ({"subnet_mask": "fish"}, "subnet mask"),
        ({"default_gateway": "10.0.0.1"}, "not in the subnet"),
        ({"default_gateway": "192.168.10.20"}, "must differ"),
        ({"default_gateway": "gateway"}, "defaultGateway"),
        ({"ip_address": "192.168.10.0"}, "network or broadcast"),
        ({"ip_address": "192.168.10.255"}, "network or broadcast"),
        ({"ip_address": "127.0.0.5", "default_gateway": ""}, "cannot be used"),
        ({"preferred_dns_address": "dns.example"}, "preferredDNSAddress"),
        ({"alternate_dns_address": "2001:db8::1"}, "alternateDNSAddress"),
        ({"uses_dhcp": True, "running_dhcpd": True}, "cannot serve DHCP"),
        ({"uses_dhcp": True, "ip_address": "1.2.3"}, "ipAddress"),
    ],
)
def test_invalid_updates_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidSetting, match=message):
        validate_update(msgspec.structs.replace(STATIC, **changes), KNOWN)


def test_unknown_interface_has_its_own_error() -> None:
    with pytest.raises(UnknownInterface):
        validate_update(msgspec.structs.replace(STATIC, id="eth7"), KNOWN)


def test_nmcli_settings() -> None:
    assert nmcli_settings(STATIC) == [
        "ipv4.method",
        "manual",
        "ipv4.addresses",
        "192.168.10.20/24",
        "ipv4.gateway",
        "192.168.10.1",
        "ipv4.dns",
        "9.9.9.9,1.1.1.1",
        "ipv4.ignore-auto-dns",
        "yes",
    ]
    assert nmcli_settings(InterfaceUpdate(id="eth0", uses_dhcp=True)) == [
        "ipv4.method",
        "auto",
        "ipv4.addresses",
        "",
        "ipv4.gateway",
        "",
        "ipv4.dns",
        "",
        "ipv4.ignore-auto-dns",
        "no",
    ]
    shared = InterfaceUpdate(
        id="eth0", ip_address="10.42.0.1", subnet_mask="255.255.255.0", running_dhcpd=True
    )
    assert nmcli_settings(shared)[:6] == [
        "ipv4.method",
        "shared",
        "ipv4.addresses",
        "10.42.0.1/24",
        "ipv4.gateway",
        "",
    ]


# --- applying


async def test_linux_update_drives_nmcli_and_reads_are_busy_meanwhile() -> None:
    name = a_real_interface()
    gate = asyncio.Event()

    class SlowUp(RecordingRunner):
        async def run(self, argv, *, timeout=60.0):
            result = await super().run(argv, timeout=timeout)
            if argv[:3] == ["nmcli", "connection", "up"]:
                await gate.wait()
            return result

    runner = SlowUp(
        {
            "ip": CommandResult(1),
            "nmcli -g GENERAL.CONNECTION device show": CommandResult(0, "Wired connection 1\n"),
        }
    )
    network = LinuxNetworkInterfaces(runner)
    await network.update(msgspec.structs.replace(STATIC, id=name))
    await asyncio.sleep(0.01)
    assert network.busy
    with pytest.raises(NetworkBusy):
        await network.list()
    with pytest.raises(NetworkBusy):
        await network.update(msgspec.structs.replace(STATIC, id=name))
    gate.set()
    await network.wait_idle()
    assert not network.busy
    assert network.last_error is None
    nm = [c for c in runner.commands if c[0] == "nmcli"]
    assert nm == [
        ["nmcli", "-g", "GENERAL.CONNECTION", "device", "show", name],
        [
            "nmcli",
            "connection",
            "modify",
            "Wired connection 1",
            *nmcli_settings(msgspec.structs.replace(STATIC, id=name)),
        ],
        ["nmcli", "connection", "up", "Wired connection 1"],
    ]
    assert await network.list()


async def test_linux_update_creates_a_connection_when_the_device_has_none() -> None:
    name = a_real_interface()
    runner = RecordingRunner({"ip": CommandResult(1)})
    network = LinuxNetworkInterfaces(runner)
    await network.update(InterfaceUpdate(id=name, uses_dhcp=True))
    await network.wait_idle()
    nm = [c for c in runner.commands if c[0] == "nmcli"]
    assert nm[1] == [
        "nmcli",
        "connection",
        "add",
        "type",
        "ethernet",
        "ifname",
        name,
        "con-name",
        f"tilewall-{name}",
    ]
    assert nm[-1] == ["nmcli", "connection", "up", f"tilewall-{name}"]


async def test_linux_update_failure_is_kept_for_the_caller() -> None:
    name = a_real_interface()
    runner = RecordingRunner(
        {
            "ip": CommandResult(1),
            "nmcli connection up": CommandResult(4, "", "Error: Connection activation failed."),
        }
    )
    network = LinuxNetworkInterfaces(runner)
    await network.update(InterfaceUpdate(id=name, uses_dhcp=True))
    await network.wait_idle()
    assert network.last_error is not None
    assert "activation failed" in network.last_error


async def test_invalid_update_runs_nothing() -> None:
    runner = RecordingRunner({"ip": CommandResult(1)})
    network = LinuxNetworkInterfaces(runner)
    with pytest.raises(InvalidSetting):
        await network.update(
            msgspec.structs.replace(STATIC, id=a_real_interface(), subnet_mask="255.0.255.0")
        )
    assert not network.busy
    assert [c for c in runner.commands if c[0] == "nmcli"] == []


async def test_simulated_update_is_busy_then_reflected(store: MemorySettingsStore) -> None:
    name = a_real_interface()
    runner = RecordingRunner({"ip": CommandResult(1)})
    network = SimulatedNetworkInterfaces(runner, store, apply_seconds=0.05)
    await network.update(msgspec.structs.replace(STATIC, id=name))
    with pytest.raises(NetworkBusy):
        await network.list()
    await network.wait_idle()
    iface = next(i for i in await network.list() if i.id == name)
    assert (iface.ip_address, iface.subnet_mask, iface.default_gateway) == (
        "192.168.10.20",
        "255.255.255.0",
        "192.168.10.1",
    )
    assert (iface.preferred_dns_address, iface.alternate_dns_address) == ("9.9.9.9", "1.1.1.1")
    assert iface.uses_dhcp is False
    assert [c for c in runner.commands if c[0] == "nmcli"] == []
    # state survives a new adapter on the same store
    again = SimulatedNetworkInterfaces(runner, store)
    assert next(i for i in await again.list() if i.id == name).ip_address == "192.168.10.20"


async def test_simulated_dhcp_server_is_starting_then_running(
    store: MemorySettingsStore,
) -> None:
    name = a_real_interface()
    # the server starts for as long as an update applies: long enough to be read
    # starting on a busy machine (other tests run beside this one)
    network = SimulatedNetworkInterfaces(
        RecordingRunner({"ip": CommandResult(1)}), store, apply_seconds=3
    )
    await network.update(
        InterfaceUpdate(
            id=name, ip_address="10.42.0.1", subnet_mask="255.255.255.0", running_dhcpd=True
        )
    )
    await network.wait_idle()
    iface = next(i for i in await network.list() if i.id == name)
    assert (iface.running_dhcpd, iface.dhcpd_starting) == (False, True)
    deadline = asyncio.get_running_loop().time() + 8
    while not iface.running_dhcpd and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
        iface = next(i for i in await network.list() if i.id == name)
    assert (iface.running_dhcpd, iface.dhcpd_starting) == (True, False)


async def test_simulated_dhcp_keeps_the_real_address(store: MemorySettingsStore) -> None:
    name = a_real_interface()
    runner = RecordingRunner({"ip": CommandResult(1)})
    real = next(i for i in await read_interfaces(runner) if i.id == name)
    network = SimulatedNetworkInterfaces(runner, store, apply_seconds=0)
    await network.update(InterfaceUpdate(id=name, uses_dhcp=True))
    await network.wait_idle()
    iface = next(i for i in await network.list() if i.id == name)
    assert iface.uses_dhcp is True
    assert iface.ip_address == real.ip_address
