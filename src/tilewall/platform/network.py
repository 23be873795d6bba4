"""Network interfaces: read as the machine has them, changed through NetworkManager.

An update is validated at once and applied in the background; until it is done every
read raises :class:`NetworkBusy` (the interface answers 500 with its message then).
"""

import asyncio
import ipaddress
import json
import logging
import socket
from pathlib import Path
from typing import Any

import msgspec
import psutil

from tilewall.host.system.facts import InterfaceUpdate, NetworkInterface
from tilewall.platform.errors import InvalidSetting, MachineBusy
from tilewall.platform.routes import PROC_ROUTE, default_routes
from tilewall.platform.runner import Runner, check
from tilewall.platform.settings import SettingsStore

log = logging.getLogger(__name__)

SETTING = "platform.network.interfaces"
#: systemd-resolved's list of real upstream servers comes first; /etc/resolv.conf may
#: only name its local stub
RESOLV_FILES = (Path("/run/systemd/resolve/resolv.conf"), Path("/etc/resolv.conf"))
SYS_CLASS_NET = Path("/sys/class/net")
DHCP_SERVERS = frozenset({"dnsmasq", "dhcpd", "kea-dhcp4", "udhcpd"})
#: how long a DHCP server may take to show up after it was switched on
DHCPD_START_SECONDS = 30.0
_INFINITE_LIFETIME = 0xFFFFFFFF


class NetworkBusy(MachineBusy):
    def __init__(self) -> None:
        super().__init__("network settings are still being applied; try again shortly")


class UnknownInterface(InvalidSetting):
    pass


# --- validation -------------------------------------------------------------------


def _ipv4(value: str, what: str) -> ipaddress.IPv4Address:
    try:
        return ipaddress.IPv4Address(value.strip())
    except ValueError:
        raise InvalidSetting(f"{what} {value!r} is not an IPv4 address") from None


def _netmask(value: str) -> ipaddress.IPv4Address:
    """A netmask given dotted (``255.255.255.0``) or as a prefix length (``24``, ``/24``)."""
    text = value.strip().removeprefix("/")
    if text.isdigit():
        if not 0 <= int(text) <= 32:
            raise InvalidSetting(f"subnet mask {value!r} is not a prefix length of 0 to 32")
        return ipaddress.IPv4Network(f"0.0.0.0/{text}").netmask
    mask = _ipv4(text, "subnet mask")
    inverted = ~int(mask) & 0xFFFFFFFF
    # a netmask is ones then zeros: its complement plus one is a power of two
    if inverted & (inverted + 1):
        raise InvalidSetting(f"subnet mask {value!r} is not a valid netmask")
    return mask


def _host_address(value: str, what: str) -> ipaddress.IPv4Address:
    address = _ipv4(value, what)
    if address.is_unspecified or address.is_loopback or address.is_multicast:
        raise InvalidSetting(f"{what} {value!r} cannot be used by a host")
    if address == ipaddress.IPv4Address("255.255.255.255"):
        raise InvalidSetting(f"{what} {value!r} is the broadcast address")
    return address


def validate_update(update: InterfaceUpdate, known: set[str]) -> InterfaceUpdate:
    """Check an update against the machine's interfaces; return it normalised."""
    if update.id not in known:
        raise UnknownInterface(
            f"unknown network interface {update.id!r}; known: {', '.join(sorted(known))}"
        )
    if update.id == "lo":
        raise InvalidSetting("the loopback interface cannot be configured")
    if update.uses_dhcp and update.running_dhcpd:
        raise InvalidSetting("an interface that gets its address by DHCP cannot serve DHCP")
    if not update.uses_dhcp and not (update.ip_address.strip() and update.subnet_mask.strip()):
        raise InvalidSetting("a static configuration needs ipAddress and subnetMask")

    ip = mask = gateway = None
    if update.ip_address.strip():
        ip = _host_address(update.ip_address, "ipAddress")
    if update.subnet_mask.strip():
        mask = _netmask(update.subnet_mask)
    if update.default_gateway.strip():
        gateway = _host_address(update.default_gateway, "defaultGateway")
    dns = [
        str(_host_address(value, name)) if value.strip() else ""
        for value, name in (
            (update.preferred_dns_address, "preferredDNSAddress"),
            (update.alternate_dns_address, "alternateDNSAddress"),
        )
    ]
    if ip is not None and mask is not None:
        network = ipaddress.IPv4Network(f"{ip}/{mask}", strict=False)
        if network.prefixlen < 31 and ip in (network.network_address, network.broadcast_address):
            raise InvalidSetting(f"ipAddress {ip} is the network or broadcast address of {network}")
        if gateway is not None:
            if gateway not in network:
                raise InvalidSetting(f"defaultGateway {gateway} is not in the subnet {network}")
            if gateway == ip:
                raise InvalidSetting("defaultGateway must differ from ipAddress")
    return msgspec.structs.replace(
        update,
        ip_address=str(ip) if ip is not None else "",
        subnet_mask=str(mask) if mask is not None else "",
        default_gateway=str(gateway) if gateway is not None else "",
        preferred_dns_address=dns[0],
        alternate_dns_address=dns[1],
    )


# --- reading the machine -----------------------------------------------------------


def read_nameservers(files: tuple[Path, ...] = RESOLV_FILES) -> list[str]:
    for path in files:
        try:
            lines = path.read_text().splitlines()
        except OSError:
            continue
        servers = [
            parts[1]
            for parts in (line.split() for line in lines)
            if len(parts) >= 2 and parts[0] == "nameserver"
        ]
        if servers:
            return servers
    return []


def _driver(name: str, sys_class_net: Path) -> str:
    try:
        return (sys_class_net / name / "device" / "driver").readlink().name
    except OSError:
        return ""


def _dhcp_server_args() -> list[list[str]]:
    """Command lines of the DHCP servers running on the machine."""
    found = []
    for proc in psutil.process_iter(["name", "cmdline"]):
        name = proc.info.get("name") or ""
        if name in DHCP_SERVERS:
            found.append(list(proc.info.get("cmdline") or []))
    return found


def _serves(args: list[str], interface: str, address: str) -> bool:
    for arg in args:
        value = arg.split("=", 1)[-1]
        if value == interface or (address and value == address) or arg == interface:
            return True
    return False


async def _address_details(runner: Runner) -> dict[str, dict[str, Any]]:
    """Per interface, whether its first IPv4 address is dynamic and its lifetime left.

    psutil cannot tell; ``ip -j`` can. Without ``ip`` every address reads as static.
    """
    result = await runner.run(["ip", "-j", "-4", "addr", "show"])
    if not result.ok:
        return {}
    try:
        links = json.loads(result.stdout or "[]")
    except ValueError:
        return {}
    details: dict[str, dict[str, Any]] = {}
    for link in links:
        for info in link.get("addr_info", []):
            if info.get("family") == "inet":
                details.setdefault(str(link.get("ifname")), info)
    return details


async def read_interfaces(
    runner: Runner,
    *,
    route_path: Path = PROC_ROUTE,
    resolv_files: tuple[Path, ...] = RESOLV_FILES,
    sys_class_net: Path = SYS_CLASS_NET,
) -> list[NetworkInterface]:
    """The machine's interfaces as they are now, sorted by name."""
    stats = psutil.net_if_stats()
    addrs = psutil.net_if_addrs()
    details = await _address_details(runner)
    gateways: dict[str, str] = {}
    for route in default_routes(route_path):
        gateways.setdefault(route.interface, route.gateway)
    dns = read_nameservers(resolv_files)
    servers = _dhcp_server_args()
    result = []
    for name in sorted(set(stats) | set(addrs)):
        stat = stats.get(name)
        inet = [a for a in addrs.get(name, []) if a.family == socket.AF_INET]
        address = inet[0].address if inet else ""
        detail = details.get(name, {})
        dynamic = bool(detail.get("dynamic"))
        lifetime = detail.get("valid_life_time")
        loopback = stat is not None and "loopback" in stat.flags.split(",")
        result.append(
            NetworkInterface(
                id=name,
                device_name=_driver(name, sys_class_net) or name,
                port_status="UP" if stat is not None and stat.isup else "DOWN",
                link_speed=f"{stat.speed} Mbit/s" if stat is not None and stat.speed > 0 else "",
                uses_dhcp=dynamic,
                lease_duration=(
                    str(lifetime)
                    if dynamic and isinstance(lifetime, int) and lifetime != _INFINITE_LIFETIME
                    else ""
                ),
                ip_address=address,
                subnet_mask=(inet[0].netmask or "") if inet else "",
                default_gateway=gateways.get(name, ""),
                preferred_dns_address=dns[0] if dns and inet and not loopback else "",
                alternate_dns_address=dns[1] if len(dns) > 1 and inet and not loopback else "",
                running_dhcpd=any(_serves(args, name, address) for args in servers),
            )
        )
    return result


# --- the adapters --------------------------------------------------------------------


class _Applying:
    """The part both faces share: validation, and one background apply at a time."""

    def __init__(self, runner: Runner) -> None:
        self._runner = runner
        self._task: asyncio.Task[None] | None = None
        self._last_error: str | None = None
        #: interface -> loop time until which a DHCP server counts as starting
        self._dhcpd_starting: dict[str, float] = {}

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def last_error(self) -> str | None:
        return self._last_error

    async def wait_idle(self) -> None:
        if self._task is not None:
            await asyncio.shield(self._task)

    async def _read(self) -> list[NetworkInterface]:
        return await read_interfaces(self._runner)

    async def list(self) -> list[NetworkInterface]:
        if self.busy:
            raise NetworkBusy()
        interfaces = await self._read()
        now = asyncio.get_running_loop().time()
        for iface in interfaces:
            until = self._dhcpd_starting.get(iface.id)
            if until is None:
                continue
            if iface.running_dhcpd or now >= until:
                del self._dhcpd_starting[iface.id]
            else:
                iface.dhcpd_starting = True
        return interfaces

    async def update(self, update: InterfaceUpdate) -> None:
        if self.busy:
            raise NetworkBusy()
        known = {iface.id for iface in await self._read()}
        update = validate_update(update, known)
        self._last_error = None
        self._task = asyncio.create_task(self._run(update), name=f"network-apply-{update.id}")

    async def _run(self, update: InterfaceUpdate) -> None:
        try:
            await self._apply(update)
        except Exception as error:  # the request has been answered; keep the reason
            log.exception("applying network settings of %s failed", update.id)
            self._last_error = str(error)
            return
        if update.running_dhcpd:
            self._dhcpd_starting[update.id] = (
                asyncio.get_running_loop().time() + self._dhcpd_start_seconds()
            )
        else:
            self._dhcpd_starting.pop(update.id, None)

    def _dhcpd_start_seconds(self) -> float:
        return DHCPD_START_SECONDS

    async def _apply(self, update: InterfaceUpdate) -> None:
        raise NotImplementedError


def _nmcli_unescape(text: str) -> str:
    return text.replace("\\:", ":").replace("\\\\", "\\")


def nmcli_settings(update: InterfaceUpdate) -> list[str]:
    """``nmcli connection modify`` arguments for a validated update."""
    cidr = ""
    if update.ip_address and update.subnet_mask:
        prefix = ipaddress.IPv4Network(f"0.0.0.0/{update.subnet_mask}").prefixlen
        cidr = f"{update.ip_address}/{prefix}"
    if update.uses_dhcp:
        args = ["ipv4.method", "auto", "ipv4.addresses", "", "ipv4.gateway", ""]
    elif update.running_dhcpd:
        # "shared" makes NetworkManager run a DHCP server (dnsmasq) on the interface
        args = ["ipv4.method", "shared", "ipv4.addresses", cidr, "ipv4.gateway", ""]
    else:
        args = [
            "ipv4.method",
            "manual",
            "ipv4.addresses",
            cidr,
            "ipv4.gateway",
            update.default_gateway,
        ]
    dns = [d for d in (update.preferred_dns_address, update.alternate_dns_address) if d]
    args += ["ipv4.dns", ",".join(dns), "ipv4.ignore-auto-dns", "yes" if dns else "no"]
    return args


class LinuxNetworkInterfaces(_Applying):
    """Applies updates to the interface's NetworkManager connection with ``nmcli``."""

    async def _apply(self, update: InterfaceUpdate) -> None:
        shown = await check(
            self._runner, ["nmcli", "-g", "GENERAL.CONNECTION", "device", "show", update.id]
        )
        connection = _nmcli_unescape(shown.stdout.strip())
        if not connection:
            connection = f"tilewall-{update.id}"
            await check(
                self._runner,
                [
                    "nmcli",
                    "connection",
                    "add",
                    "type",
                    "ethernet",
                    "ifname",
                    update.id,
                    "con-name",
                    connection,
                ],
            )
        await check(
            self._runner, ["nmcli", "connection", "modify", connection, *nmcli_settings(update)]
        )
        await check(self._runner, ["nmcli", "connection", "up", connection], timeout=90.0)


class SimulatedNetworkInterfaces(_Applying):
    """Keeps updates in the store and lays them over the machine's real values."""

    def __init__(self, runner: Runner, store: SettingsStore, apply_seconds: float = 2.0) -> None:
        super().__init__(runner)
        self._store = store
        self.apply_seconds = apply_seconds

    def _overrides(self) -> dict[str, dict[str, Any]]:
        stored = self._store.get(SETTING)
        return dict(stored) if isinstance(stored, dict) else {}

    def _dhcpd_start_seconds(self) -> float:
        return self.apply_seconds

    async def _read(self) -> list[NetworkInterface]:
        interfaces = await read_interfaces(self._runner)
        overrides = self._overrides()
        result = []
        for iface in interfaces:
            raw = overrides.get(iface.id)
            if raw is None:
                result.append(iface)
                continue
            update = msgspec.convert(raw, InterfaceUpdate)
            # a simulated DHCP client keeps whatever address the machine really has
            address_fields: dict[str, Any] = (
                {}
                if update.uses_dhcp
                else {
                    "ip_address": update.ip_address,
                    "subnet_mask": update.subnet_mask,
                    "default_gateway": update.default_gateway,
                    "lease_duration": "",
                }
            )
            result.append(
                msgspec.structs.replace(
                    iface,
                    uses_dhcp=update.uses_dhcp,
                    preferred_dns_address=update.preferred_dns_address,
                    alternate_dns_address=update.alternate_dns_address,
                    running_dhcpd=update.running_dhcpd and not self._starting(iface.id),
                    **address_fields,
                )
            )
        return result

    def _starting(self, interface: str) -> bool:
        until = self._dhcpd_starting.get(interface)
        return until is not None and asyncio.get_running_loop().time() < until

    async def _apply(self, update: InterfaceUpdate) -> None:
        log.info("simulated: applying network settings of %s", update.id)
        # a real network restart takes a while; clients must see the busy phase
        await asyncio.sleep(self.apply_seconds)
        overrides = self._overrides()
        overrides[update.id] = msgspec.to_builtins(update)
        await self._store.put(SETTING, overrides)
