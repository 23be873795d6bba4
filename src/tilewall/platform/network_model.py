"""A network interface and an update of one, as the interface names their fields, and
the errors of the network adapters."""

import msgspec

from tilewall.platform.errors import InvalidSetting, MachineBusy

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


class NetworkBusy(MachineBusy):
    def __init__(self) -> None:
        super().__init__("network settings are still being applied; try again shortly")


class UnknownInterface(InvalidSetting):
    pass
