"""tilewall controlroom ...: the control-room layouts shown on the zones of walls."""

from __future__ import annotations

import click

from tilewall.client import window
from tilewall.client.base import By, Json
from tilewall.commands.base import (
    Column,
    by_option,
    client,
    done,
    interface_group,
    show,
    show_list,
)

controlroom = interface_group("controlroom", "Control rooms: layouts of sources on a zone.")


@controlroom.command("list")
def list_instances() -> None:
    """The zones showing a Command and Control source."""
    columns: list[Column] = [
        ("Zone", "zoneName"),
        ("Source", "sourceName"),
        ("Layout", lambda i: i["currentLayout"]["name"]),
    ]
    show_list(client().controlroom.list(), columns, "controlrooms")


def _sources(layout: Json) -> str:
    return ", ".join(s["name"] for s in layout.get("sources", []))


@controlroom.command("layouts")
@click.argument("zone")
def zone_layouts(zone: str) -> None:
    """The layouts ZONE (a zone name) can show."""
    columns: list[Column] = [("Layout", "name"), ("Id", "id"), ("Sources", _sources)]
    show_list(client().controlroom.layouts(zone), columns, "layouts")


@controlroom.command("current")
@click.argument("zone")
def current(zone: str) -> None:
    """The layout ZONE shows."""
    show(client().controlroom.current_layout(zone))


@controlroom.command("load")
@click.argument("zone")
@click.argument("layout")
def load(zone: str, layout: str) -> None:
    """Show LAYOUT (by name) on ZONE."""
    show(client().controlroom.load(zone, layout))


def _windows(specs: tuple[str, ...]) -> list[Json]:
    """``SOURCE_ID[@X,Y,W,H]`` with fractions of the picture."""
    out = []
    for spec in specs:
        source, _, box = spec.partition("@")
        numbers = box.split(",") if box else []
        try:
            values = [float(n) for n in numbers]
        except ValueError:
            values = []
        if not source or (box and len(values) != 4):
            raise click.BadParameter(f"{spec!r} is not SOURCE_ID[@X,Y,W,H]", param_hint="--window")
        out.append(window(source, *values))
    return out


window_option = click.option(
    "--window",
    "windows",
    multiple=True,
    metavar="SOURCE_ID[@X,Y,W,H]",
    help="A window showing a source; X,Y,W,H are fractions (0..1). Repeat it.",
)


@controlroom.command("layout-list")
def layout_list() -> None:
    """Every layout."""
    columns: list[Column] = [("Layout", "name"), ("Id", "id"), ("Sources", _sources)]
    show_list(client().controlroom.all_layouts(), columns, "layouts")


@controlroom.command("layout-show")
@click.argument("layout")
@by_option
def layout_show(layout: str, by: By) -> None:
    """Show one layout."""
    show(client().controlroom.get_layout(layout, by=by))


@controlroom.command("layout-create")
@click.argument("name")
@window_option
def layout_create(name: str, windows: tuple[str, ...]) -> None:
    """Make a layout of windows."""
    show(client().controlroom.create_layout(name, _windows(windows)))


@controlroom.command("layout-update")
@click.argument("layout")
@click.option("--name", help="A new name.")
@window_option
@by_option
def layout_update(layout: str, name: str | None, windows: tuple[str, ...], by: By) -> None:
    """Change a layout's name or windows (what is not given is kept)."""
    answer = client().controlroom.update_layout(
        layout, name=name, windows=_windows(windows) if windows else None, by=by
    )
    show(answer)


@controlroom.command("layout-delete")
@click.argument("layout")
@by_option
def layout_delete(layout: str, by: By) -> None:
    """Delete a layout no source lists."""
    done(client().controlroom.delete_layout(layout, by=by), f"layout {layout!r} deleted")
