"""The kernel's IPv4 routing table, read from ``/proc/net/route``."""

import ipaddress
import socket
import struct
from dataclasses import dataclass
from pathlib import Path

PROC_ROUTE = Path("/proc/net/route")
_RTF_UP = 0x1
_RTF_GATEWAY = 0x2


@dataclass(frozen=True)
class DefaultRoute:
    interface: str
    gateway: str
    metric: int


def _address(hex_le: str) -> str:
    # the kernel prints addresses as host-order (little-endian here) hex of the raw bytes
    return socket.inet_ntoa(struct.pack("<I", int(hex_le, 16)))


def default_routes(path: Path = PROC_ROUTE) -> list[DefaultRoute]:
    """Default routes that are up, lowest metric first."""
    try:
        lines = path.read_text().splitlines()[1:]
    except OSError:
        return []
    routes = []
    for line in lines:
        fields = line.split()
        if len(fields) < 8:
            continue
        iface, destination, gateway, flags, metric, mask = (
            fields[0],
            fields[1],
            fields[2],
            int(fields[3], 16),
            int(fields[6]),
            fields[7],
        )
        if int(destination, 16) != 0 or int(mask, 16) != 0:
            continue
        if flags & _RTF_UP and flags & _RTF_GATEWAY:
            routes.append(DefaultRoute(iface, _address(gateway), metric))
    routes.sort(key=lambda r: r.metric)
    return routes


def gateway_of(interface: str, path: Path = PROC_ROUTE) -> str:
    for route in default_routes(path):
        if route.interface == interface:
            return route.gateway
    return ""


def is_usable_ipv4(address: str) -> bool:
    """Whether other machines could reach us at ``address`` (not loopback or link-local)."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)
