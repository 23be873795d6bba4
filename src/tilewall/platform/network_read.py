"""The machine's network interfaces as they are now: psutil for links and addresses,
``ip -j`` for DHCP leases, the routing table for gateways, resolv.conf for DNS, and
the running DHCP servers."""

import json
import socket
from pathlib import Path
from typing import Any

from tilewall.platform.network_model import NetworkInterface
from tilewall.platform.routes import PROC_ROUTE, default_routes
from tilewall.platform.runner import Runner

#: systemd-resolved's list of real upstream servers comes first; /etc/resolv.conf may
#: only name its local stub
RESOLV_FILES = (Path("/run/systemd/resolve/resolv.conf"), Path("/etc/resolv.conf"))
SYS_CLASS_NET = Path("/sys/class/net")
DHCP_SERVERS = frozenset({"dnsmasq", "dhcpd", "kea-dhcp4", "udhcpd"})
_INFINITE_LIFETIME = 0xFFFFFFFF


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
    import psutil

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
    import psutil

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
