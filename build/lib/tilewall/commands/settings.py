"""More of tilewall system ...: machine settings (host name, time zone, network
interfaces, partner access, receiver assignment) and what shows over every display
(broadcast alerts, display ids, DPMS)."""

from __future__ import annotations

import click

from tilewall.client.base import ApiError
from tilewall.client.system import AlertLevel
from tilewall.commands.base import Column, client, json_wanted, print_json, show, show_list
from tilewall.commands.system import system

DISPLAY = click.option("--display", type=int, help="Only this display (default: all).")
LEVELS: dict[str, AlertLevel] = {
    "green": "GREEN_LEVEL",
    "orange": "ORANGE_LEVEL",
    "red": "RED_LEVEL",
}


@system.command("hostname")
@click.argument("new_name", required=False)
def hostname(new_name: str | None) -> None:
    """Show the host name, or change it to NEW_NAME."""
    host = client().system
    show(host.hostname() if new_name is None else host.set_hostname(new_name))


@system.command("timezone")
@click.argument("zone", required=False)
@click.option("--available", is_flag=True, help="List the zones available.")
def timezone(zone: str | None, available: bool) -> None:
    """Show the time zone, or change it to ZONE (e.g. Europe/Berlin)."""
    host = client().system
    answer = host.timezone() if zone is None else host.set_timezone(zone)
    if json_wanted():
        print_json(answer)
    elif available:
        click.echo("\n".join(answer["availableTimeZones"]))
    else:
        current = answer["currentTimeZone"]
        click.echo(f"{current['timezone']} (UTC offset {current['offset']} minutes)")


@system.command("interfaces")
def interfaces() -> None:
    """The network interfaces."""
    columns: list[Column] = [
        ("Interface", "id"),
        ("Status", "portStatus"),
        ("Speed", "linkSpeed"),
        ("DHCP", "usesDHCP"),
        ("Address", "ipAddress"),
        ("Mask", "subnetMask"),
        ("Gateway", "defaultGateway"),
        ("DNS", "preferredDNSAddress"),
        ("DHCP server", "runningDhcpd"),
    ]
    show_list(client().system.network_interfaces(), columns, "networkinterfaces")


@system.command("interface-set")
@click.argument("interface")
@click.option("--dhcp/--static", default=None, help="Take the address by DHCP, or the given one.")
@click.option("--ip", help="Address.")
@click.option("--netmask", help="Subnet mask.")
@click.option("--gateway", help="Default gateway.")
@click.option("--dns", help="Preferred DNS server.")
@click.option("--dns2", help="Alternate DNS server.")
@click.option("--dhcp-server/--no-dhcp-server", default=None, help="Serve DHCP on it.")
def interface_set(
    interface: str,
    dhcp: bool | None,
    ip: str | None,
    netmask: str | None,
    gateway: str | None,
    dns: str | None,
    dns2: str | None,
    dhcp_server: bool | None,
) -> None:
    """Change a network interface; what is not given is kept. The network restarts."""
    host = client().system
    current = next((i for i in host.network_interfaces() if i.get("id") == interface), None)
    if current is None:
        raise ApiError(404, f"network interface {interface!r} not found")
    body = {
        key: current.get(key)
        for key in (
            "id",
            "usesDHCP",
            "ipAddress",
            "subnetMask",
            "defaultGateway",
            "preferredDNSAddress",
            "alternateDNSAddress",
            "runningDhcpd",
        )
    }
    given = {
        "usesDHCP": dhcp,
        "ipAddress": ip,
        "subnetMask": netmask,
        "defaultGateway": gateway,
        "preferredDNSAddress": dns,
        "alternateDNSAddress": dns2,
        "runningDhcpd": dhcp_server,
    }
    body.update({k: v for k, v in given.items() if v is not None})
    host.set_network_interface(body)
    click.echo(f"{interface}: accepted; the settings take effect when the network has restarted")


@system.command("partner-access")
@click.argument("state", type=click.Choice(["on", "off"]), required=False)
def partner_access(state: str | None) -> None:
    """Show whether a support partner may access the host, or allow it (on) or not."""
    host = client().system
    show(host.partner_access() if state is None else host.set_partner_access(state == "on"))


@system.command("assignment")
@click.option("--auto-assign/--no-auto-assign", default=None, help="Lock new receivers at once.")
@click.option("--auto-inherit/--no-auto-inherit", default=None, help="Replace an offline seat.")
def assignment(auto_assign: bool | None, auto_inherit: bool | None) -> None:
    """Show or change how receivers are assigned to the host."""
    host = client().system
    if auto_assign is None and auto_inherit is None:
        show(host.receiver_assignment())
    else:
        show(host.set_receiver_assignment(auto_assign=auto_assign, auto_inherit=auto_inherit))


# over every display


@system.command("alert")
@click.argument("message")
@click.option("--level", type=click.Choice(list(LEVELS)), default="green", show_default=True)
@click.option("--seconds", type=click.IntRange(min=1), default=60, show_default=True)
def alert(message: str, level: str, seconds: int) -> None:
    """Show a broadcast alert on every display."""
    show(client().system.start_broadcast(message, LEVELS[level], seconds * 1000))


@system.command("alert-status")
def alert_status() -> None:
    """Whether an alert shows."""
    show(client().system.broadcast())


@system.command("alert-stop")
def alert_stop() -> None:
    """Take the alert down."""
    show(client().system.stop_broadcast())


@system.command("ids-show")
@DISPLAY
def ids_show(display: int | None) -> None:
    """Show display ids on the displays."""
    show(client().system.show_display_ids(display))


@system.command("ids-hide")
@DISPLAY
def ids_hide(display: int | None) -> None:
    """Hide the display ids."""
    show(client().system.hide_display_ids(display))


@system.command("dpms-off")
@DISPLAY
def dpms_off(display: int | None) -> None:
    """Put displays to sleep."""
    show(client().system.dpms_off(display))


@system.command("dpms-on")
@DISPLAY
def dpms_on(display: int | None) -> None:
    """Wake displays."""
    show(client().system.dpms_on(display))
