"""tilewall failover ...: the interface's failover groups (version 1 and 2) and their
network."""

from __future__ import annotations

import click

from tilewall.commands.base import (
    client,
    done,
    interface_group,
    pairs,
    show,
)

failover = interface_group("failover", "Failover groups (version 1 and 2) and their network.")


V2 = click.option("--v2", is_flag=True, help="The version 2 group.")


@failover.command("show")
@V2
def show_group(v2: bool) -> None:
    """The failover group the host is in."""
    host = client().failover
    show(host.get_v2() if v2 else host.get_v1())


@failover.command("join")
@click.argument("group_name")
@click.option(
    "--system",
    "systems",
    multiple=True,
    required=True,
    metavar="HOSTNAME=SYSTEM_ID",
    help="A member; repeat it for each (both members send the same command).",
)
@click.option("--autofailback", is_flag=True, help="Fail back when the primary returns.")
@click.option("--grace", type=click.IntRange(min=0), default=0, help="Seconds before failback.")
@click.option("--hostname-switching", is_flag=True)
def join(
    group_name: str,
    systems: tuple[str, ...],
    autofailback: bool,
    grace: int,
    hostname_switching: bool,
) -> None:
    """Create and join a version 1 group."""
    answer = client().failover.join_v1(
        group_name,
        pairs(systems, "--system"),
        autofailback=autofailback,
        grace_seconds=grace,
        hostname_switching=hostname_switching,
    )
    show(answer)


@failover.command("join-v2")
@click.argument("group_name")
@click.option("--peer", "peer_ip", required=True, help="The peer's address.")
@click.option("--group-password", required=True, help="The group's password.")
@click.option("--primary", is_flag=True, help="This host is the primary.")
@click.option("--no-auto-failover", is_flag=True)
@click.option("--autofailback", is_flag=True)
@click.option("--grace", type=click.IntRange(min=0), default=0, help="Seconds before failback.")
@click.option("--hostname-switching", is_flag=True)
@click.option("--interface", default="", help="Network interface of the group.")
def join_v2(
    group_name: str,
    peer_ip: str,
    group_password: str,
    primary: bool,
    no_auto_failover: bool,
    autofailback: bool,
    grace: int,
    hostname_switching: bool,
    interface: str,
) -> None:
    """Create and join a version 2 group (reboot the host afterwards)."""
    answer = client().failover.join_v2(
        group_name,
        peer_ip,
        group_password,
        primary=primary,
        auto_failover=not no_auto_failover,
        auto_failback=autofailback,
        grace_seconds=grace,
        hostname_switching=hostname_switching,
        interface=interface,
    )
    show(answer)


@failover.command("leave")
@V2
def leave(v2: bool) -> None:
    """Leave the failover group."""
    host = client().failover
    done(host.leave_v2() if v2 else host.leave_v1(), "left the failover group")


@failover.command("network")
@click.option("--interface", help="Interface for the group ('' for the system default).")
@click.option("--auto-discover/--no-auto-discover", default=None, help="Find the peer by itself.")
@click.option("--peer", "peer_ip", help="The peer's address.")
def network(interface: str | None, auto_discover: bool | None, peer_ip: str | None) -> None:
    """Show the failover network settings, or change them (reboot to apply)."""
    host = client().failover
    if interface is None and auto_discover is None and peer_ip is None:
        show(host.network())
    else:
        show(
            host.set_network(interface=interface, auto_discover_peer=auto_discover, peer_ip=peer_ip)
        )
