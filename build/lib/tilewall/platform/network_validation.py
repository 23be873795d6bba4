"""Checking an interface update before anything changes: IPv4 addresses, netmasks
(dotted or as a prefix length) and how they fit together."""

import ipaddress

import msgspec

from tilewall.platform.errors import InvalidSetting
from tilewall.platform.network_model import InterfaceUpdate, UnknownInterface


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
