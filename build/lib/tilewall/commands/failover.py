"""tilewall failover ... and tilewall printprofiles ...."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from tilewall.commands.base import (
    Column,
    client,
    done,
    interface_group,
    pairs,
    read_json,
    show,
    show_list,
)

failover = interface_group("failover", "Failover groups (version 1 and 2) and their network.")
printprofiles = interface_group("printprofiles", "Print profiles, one per print queue.")

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


# print profiles


@printprofiles.command("list")
def list_profiles() -> None:
    """List the print profiles."""
    columns: list[Column] = [
        ("Queue", "queueName"),
        ("Global", "isGlobal"),
        ("Dialog", "print_dialog"),
        ("Release jobs", "release_jobs"),
        ("Cost per page", "cost_per_page"),
        ("Free pages", "free_pages_per_session"),
        ("Page limit", "session_page_limit"),
    ]
    show_list(client().printprofiles.list(), columns, "printProfiles")


@printprofiles.command("show")
@click.argument("queue")
def show_profile(queue: str) -> None:
    """Show the profile of QUEUE."""
    show(client().printprofiles.get(queue))


def _value(text: str) -> Any:
    """A field value: JSON (true, 3, 0.25, "text") or else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


@printprofiles.command("save")
@click.argument("queue", required=False)
@click.argument("fields", nargs=-1, metavar="[FIELD=VALUE]...")
@click.option(
    "--file",
    "file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="JSON of a profile or a list of them.",
)
def save(queue: str | None, fields: tuple[str, ...], file: Path | None) -> None:
    """Create or update the profile of QUEUE with FIELD=VALUE pairs (either name of a
    field, e.g. isGlobal=true print_dialog=false costPerPage=0.1), or profiles from --file."""
    profiles: list[dict[str, Any]] = []
    if file is not None:
        loaded = read_json(file, "--file")
        profiles += loaded if isinstance(loaded, list) else [loaded]
    if queue is not None:
        profile: dict[str, Any] = {"queueName": queue}
        profile.update({k: _value(v) for k, v in pairs(fields, "FIELD=VALUE").items()})
        profiles.append(profile)
    if not profiles:
        raise click.UsageError("give a QUEUE or --file")
    show(client().printprofiles.save(profiles), key="printProfiles")


@printprofiles.command("delete")
@click.argument("queue")
def delete(queue: str) -> None:
    """Delete the profile of QUEUE."""
    done(client().printprofiles.delete(queue), f"print profile of {queue!r} deleted")
