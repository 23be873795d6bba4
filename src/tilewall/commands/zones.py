"""tilewall zones ...: the zones of video walls. Each takes a name or an id (``--by``
says which when it matters)."""

from __future__ import annotations

from typing import Any

import click

from tilewall.client.base import By
from tilewall.commands.base import (
    Column,
    by_option,
    client,
    displays_option,
    done,
    interface_group,
    playing,
    show,
    show_list,
    source_names,
)
from tilewall.commands.transport import add_playback

zones = interface_group("zones", "Zones of video walls: list, switch, control playback, manage.")


def _wall_id(wall: str) -> str:
    return str(client().videowalls.get(wall)["id"])


@zones.command("list")
@click.option("--wall", help="Only the zones of this video wall (name or id).")
def list_zones(wall: str | None) -> None:
    """List the zones."""
    host = client()
    items = host.zones.list() if wall is None else host.zones.of_wall(_wall_id(wall))
    names = source_names()

    def members(zone: dict[str, Any]) -> str:
        return " ".join(str(d["displayId"]) for d in zone["zoneDisplays"] if d["isSelected"])

    columns: list[Column] = [
        ("Zone", "zoneName"),
        ("Id", "zoneId"),
        ("Wall", "videowallId"),
        ("Displays", members),
        ("Playing", "isPlaying"),
        ("Source", playing(names)),
    ]
    show_list(items, columns, "zones")


@zones.command("show")
@click.argument("zone")
@by_option
def show_zone(zone: str, by: By) -> None:
    """Show one zone."""
    show(client().zones.get(zone, by=by))


add_playback(zones, "zones", "ZONE", named=True, switch=True, stop=True)


@zones.command("play-assigned")
@click.argument("zone")
@by_option
def play_assigned(zone: str, by: By) -> None:
    """Play the zone's assigned source (the earlier-style operation)."""
    show(client().zones.play_assigned(zone, by=by))


@zones.command("rename")
@click.argument("zone")
@click.argument("new_name")
@by_option
def rename(zone: str, new_name: str, by: By) -> None:
    """Rename a zone."""
    show(client().zones.rename(zone, new_name, by=by))


@zones.command("create")
@click.argument("name")
@click.option("--wall", required=True, help="The video wall (name or id).")
@displays_option
@click.option("--control-display", type=int, help="The display that controls the zone.")
def create_zone(
    name: str, wall: str, display_ids: tuple[int, ...], control_display: int | None
) -> None:
    """Make a zone of displays of a video wall."""
    show(
        client().zones.create(name, _wall_id(wall), display_ids, control_display_id=control_display)
    )


@zones.command("update")
@click.argument("zone")
@click.option("--name", help="A new name.")
@displays_option
@click.option("--control-display", type=int, help="The display that controls the zone.")
@by_option
def update_zone(
    zone: str,
    name: str | None,
    display_ids: tuple[int, ...],
    control_display: int | None,
    by: By,
) -> None:
    """Change a zone's name or displays (what is not given is kept)."""
    answer = client().zones.update(
        zone,
        name=name,
        display_ids=display_ids or None,
        control_display_id=control_display,
        by=by,
    )
    show(answer)


@zones.command("delete")
@click.argument("zone")
@by_option
def delete_zone(zone: str, by: By) -> None:
    """Delete a zone."""
    done(client().zones.delete(zone, by=by), f"zone {zone!r} deleted")
