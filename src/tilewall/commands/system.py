"""tilewall system ...: the host, its licence, power, software, logs, reports and
remote control; its machine settings (host name, time zone, network interfaces, partner
access, receiver assignment) and what shows over every display (broadcast alerts,
display ids, DPMS)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tilewall.client.base import ApiError
from tilewall.client.system import AlertLevel
from tilewall.commands.base import (
    Column,
    client,
    done,
    interface_group,
    json_wanted,
    print_json,
    show,
    show_list,
    show_text,
)

system = interface_group("system", "The host: facts, licence, power, settings, alerts, logs.")

OUT = click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Save it here.")


@system.command("info")
def info() -> None:
    """What the host is."""
    show(client().system.info())


@system.command("mapping-version")
def mapping_version() -> None:
    """The mapping data version (-1 outside a failover group)."""
    show_text(client().system.mapping_data_version())


@system.command("license")
def license_show() -> None:
    """The licence."""
    show(client().system.license())


@system.command("license-set")
@click.argument("activation_code")
@click.option("--stations", type=click.IntRange(min=0), help="Displays to license.")
def license_set(activation_code: str, stations: int | None) -> None:
    """Claim, raise or replace the licence with ACTIVATION_CODE ('-' reads it from stdin)."""
    code = sys.stdin.read().strip() if activation_code == "-" else activation_code
    show(client().system.set_license(code, stations))


@system.command("license-delete")
@click.confirmation_option(prompt="Remove the licence?")
def license_delete() -> None:
    """Remove the licence."""
    done(client().system.delete_license(), "licence removed")


@system.command("license-download")
@OUT
def license_download(out: Path | None) -> None:
    """The licence backup (printed, or saved with --out)."""
    text = client().system.download_license()
    if out is None:
        show_text(text)
    else:
        out.write_text(text)
        click.echo(f"saved {out}")


@system.command("reboot")
@click.confirmation_option(prompt="Reboot the host's machine?")
def reboot() -> None:
    """Reboot the machine."""
    show(client().system.reboot())


@system.command("shutdown")
@click.confirmation_option(prompt="Shut the host's machine down?")
def shutdown() -> None:
    """Shut the machine down."""
    show(client().system.shutdown())


@system.command("manifest")
def manifest() -> None:
    """The installed packages."""
    columns: list[Column] = [("Package", "name"), ("Version", "version")]
    show_list(client().system.manifest(), columns, "installedPackages")


@system.command("diag")
def diag() -> None:
    """Run the host's self-check."""
    columns: list[Column] = [
        ("Check", "id"),
        ("OK", "success"),
        ("Details", lambda r: "; ".join(r.get("params") or [])),
    ]
    show_list(client().system.diagnostics(), columns, "results")


@system.command("apilog")
def apilog() -> None:
    """The interface log."""
    show_text(client().system.api_log())


@system.command("packages")
def packages() -> None:
    """Optional third-party packages."""
    columns: list[Column] = [
        ("Package", "name"),
        ("Group", "groupName"),
        ("Installed", "installed"),
    ]
    show_list(client().system.packages(), columns, "packages")


@system.command("install-packages")
@click.argument("names", nargs=-1, required=True)
def install_packages(names: tuple[str, ...]) -> None:
    """Install third-party packages by name."""
    columns: list[Column] = [
        ("Package", "name"),
        ("Group", "groupName"),
        ("Installed", "installed"),
    ]
    show_list(client().system.install_packages(names), columns, "packages")


@system.command("report-submit")
@click.option("--name", default="")
@click.option("--email", default="")
@click.option("--category", default="")
@click.option("--what-doing", default="", help="What you were doing.")
@click.option("--description", default="")
@click.option("--text", "additional_text", default="", help="Anything else.")
def report_submit(
    name: str, email: str, category: str, what_doing: str, description: str, additional_text: str
) -> None:
    """Build a troubleshooting report."""
    answer = client().system.submit_report(
        name=name,
        email=email,
        category=category,
        what_doing=what_doing,
        description=description,
        additional_text=additional_text,
    )
    done(answer, "troubleshooting report created")


@system.command("report-download")
@OUT
def report_download(out: Path | None) -> None:
    """Save the last troubleshooting report (tar.bz2)."""
    data = client().system.download_report()
    target = out or Path("troubleshooting-report.tar.bz2")
    target.write_bytes(data)
    click.echo(f"saved {target} ({len(data)} bytes)")


@system.command("vpn")
@click.argument("action", type=click.Choice(["status", "start", "stop"]), default="status")
def vpn(action: str) -> None:
    """Remote control by a support partner: status, start or stop."""
    host = client().system
    if action == "start":
        show(host.start_vpn())
    elif action == "stop":
        show(host.stop_vpn())
    else:
        show(host.vpn())


# machine settings and what shows over every display

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
