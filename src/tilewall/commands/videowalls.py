"""tilewall videowalls ...: walls of displays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from tilewall.client import grid
from tilewall.client.base import By, Json
from tilewall.commands.base import (
    Column,
    by_option,
    client,
    done,
    interface_group,
    read_json,
    show,
    show_list,
)

videowalls = interface_group("videowalls", "Video walls: list, show, make, change, delete.")


def _monitors(wall: Json) -> str:
    return " ".join(str(m["displayId"]) for m in wall.get("monitors", []))


def _zones(wall: Json) -> str:
    return ", ".join(z["zoneName"] for z in wall.get("zones", []))


@videowalls.command("list")
def list_walls() -> None:
    """List the video walls."""
    columns: list[Column] = [
        ("Wall", "name"),
        ("Id", "id"),
        ("Displays", _monitors),
        ("Zones", _zones),
    ]
    show_list(client().videowalls.list(), columns, "videowalls")


@videowalls.command("show")
@click.argument("wall")
@by_option
def show_wall(wall: str, by: By) -> None:
    """Show one video wall."""
    show(client().videowalls.get(wall, by=by))


@videowalls.command("delete")
@click.argument("wall")
@by_option
def delete_wall(wall: str, by: By) -> None:
    """Delete a video wall and its zones."""
    done(client().videowalls.delete(wall, by=by), f"video wall {wall!r} deleted")


def _layout_options(f: Any) -> Any:
    options = [
        click.option(
            "--display", "display_ids", type=int, multiple=True, help="A display; repeat it."
        ),
        click.option("--columns", type=int, default=2, show_default=True, help="Panels per row."),
        click.option("--panel-width", type=float, default=1210.0, show_default=True),
        click.option("--panel-height", type=float, default=680.0, show_default=True),
        click.option("--bezel", type=float, default=10.0, show_default=True, help="Gap."),
        click.option(
            "--monitors-file",
            type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help="JSON list of monitors (displayId, monitorGeometry, monitorDiagonal).",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _monitor_list(
    display_ids: tuple[int, ...],
    columns: int,
    panel_width: float,
    panel_height: float,
    bezel: float,
    monitors_file: Path | None,
) -> list[Json] | None:
    if monitors_file is not None:
        loaded = read_json(monitors_file, "--monitors-file")
        if not isinstance(loaded, list):
            raise click.BadParameter("must hold a JSON list", param_hint="--monitors-file")
        return loaded
    if not display_ids:
        return None
    if columns < 1:
        raise click.BadParameter("must be at least 1", param_hint="--columns")
    return grid(display_ids, columns, panel_width, panel_height, bezel)


@videowalls.command("create")
@click.argument("name")
@_layout_options
def create_wall(name: str, **layout: Any) -> None:
    """Make a wall of equal panels, --columns per row, in the order of --display."""
    show(client().videowalls.create(name, _monitor_list(**layout) or []))


@videowalls.command("update")
@click.argument("wall")
@click.option("--name", help="A new name.")
@_layout_options
@by_option
def update_wall(wall: str, name: str | None, by: By, **layout: Any) -> None:
    """Change a wall's name or monitors (what is not given is kept)."""
    show(client().videowalls.update(wall, name=name, monitors=_monitor_list(**layout), by=by))
