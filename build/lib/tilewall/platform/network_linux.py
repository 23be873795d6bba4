"""The Linux network adapter: applies an update to the interface's NetworkManager
connection with ``nmcli``."""

import ipaddress

from tilewall.platform.network_apply import BackgroundApply
from tilewall.platform.network_model import InterfaceUpdate
from tilewall.platform.runner import check


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


class LinuxNetworkInterfaces(BackgroundApply):
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
