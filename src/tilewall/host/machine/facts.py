"""What the machine reports and is told, as values: the types its ports speak.

The adapters in ``tilewall.platform`` produce and take these; the host and the
interface only ever see them.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

import msgspec

from tilewall.host.model import Licence

#: the setting that keeps this host's stable system id once made
SYSTEM_ID_SETTING = "platform.system_id"


@dataclass(frozen=True)
class OsRelease:
    name: str
    version: str
    pretty_name: str


@dataclass(frozen=True)
class DiskUsage:
    total_bytes: int
    free_bytes: int


_SPEC_NAMES = {
    "device_name": "deviceName",
    "port_status": "portStatus",
    "link_speed": "linkSpeed",
    "uses_dhcp": "usesDHCP",
    "lease_duration": "leaseDuration",
    "ip_address": "ipAddress",
    "subnet_mask": "subnetMask",
    "default_gateway": "defaultGateway",
    "preferred_dns_address": "preferredDNSAddress",
    "alternate_dns_address": "alternateDNSAddress",
    "running_dhcpd": "runningDhcpd",
    "dhcpd_starting": "dhcpdStarting",
}


class NetworkInterface(msgspec.Struct, rename=_SPEC_NAMES):
    """One interface, encoded with the interface's field names.

    ``link_speed`` is like ``"1000 Mbit/s"`` (empty when the driver does not say);
    ``lease_duration`` is the seconds left on a DHCP lease (empty for static addresses).
    """

    id: str
    device_name: str = ""
    port_status: str = "DOWN"
    link_speed: str = ""
    uses_dhcp: bool = False
    lease_duration: str = ""
    ip_address: str = ""
    subnet_mask: str = ""
    default_gateway: str = ""
    preferred_dns_address: str = ""
    alternate_dns_address: str = ""
    running_dhcpd: bool = False
    dhcpd_starting: bool = False


class InterfaceUpdate(msgspec.Struct, rename=_SPEC_NAMES):
    """The body of an interface update; empty strings mean "none"."""

    id: str
    uses_dhcp: bool = False
    ip_address: str = ""
    subnet_mask: str = ""
    default_gateway: str = ""
    preferred_dns_address: str = ""
    alternate_dns_address: str = ""
    running_dhcpd: bool = False


class PackageVersion(msgspec.Struct, frozen=True):
    name: str
    version: str


#: optional packages an installer may want on a display host: (Debian name, group)
PACKAGE_CATALOGUE: tuple[tuple[str, str], ...] = (
    ("chromium", "Receivers"),
    ("unclutter", "Receivers"),
    ("ffmpeg", "Media"),
    ("fonts-noto-cjk", "Fonts"),
    ("fonts-noto-color-emoji", "Fonts"),
    ("openssh-server", "Remote access"),
    ("wireguard-tools", "Remote access"),
    ("dnsmasq", "Network"),
    ("chrony", "Network"),
)
PACKAGE_CATALOGUE_NAMES = frozenset(name for name, _ in PACKAGE_CATALOGUE)


class CatalogueEntry(msgspec.Struct, frozen=True, rename={"group_name": "groupName"}):
    name: str
    group_name: str
    installed: bool = False


@dataclass(frozen=True)
class SerialSettings:
    baud_rate: int
    data_bits: int
    parity: str
    stop_bits: float


@dataclass(frozen=True)
class StationProbe:
    """What the host knows of one locked station (receiver)."""

    seat_id: str
    name: str = ""
    #: lowest recent round trip to the receiver, None when never measured
    round_trip_ms: float | None = None
    firmware: str = ""
    #: link speed the receiver reports, None when it cannot tell
    link_mbits: int | None = None
    has_display: bool = True
    #: False when the receiver lacks a feature rendering needs
    supported: bool = True


@dataclass(frozen=True)
class DiagnosticsInput:
    licence: Licence | None
    today: date
    stations: Sequence[StationProbe] = field(default_factory=tuple)
    #: receiver software version the host serves; empty means "all alike is enough"
    expected_firmware: str = ""


class DiagnosticResult(msgspec.Struct):
    id: str
    success: bool
    params: list[str] = []
