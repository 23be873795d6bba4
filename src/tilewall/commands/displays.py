"""tilewall displays ...: list, show, switch, playback, resolution, tag, reset, render."""

from __future__ import annotations

import click

from tilewall.commands.base import (
    Column,
    client,
    interface_group,
    playing,
    print_json,
    show,
    show_list,
    source_names,
)
from tilewall.commands.transport import add_playback

displays = interface_group("displays", "Displays: list, show, switch, control playback.")


@displays.command("list")
@click.option("--standalone", is_flag=True, help="Only displays in no video wall.")
def list_displays(standalone: bool) -> None:
    """List the displays."""
    items = client().displays.list(standalone)
    names = source_names()
    columns: list[Column] = [
        ("Display", "displayId"),
        ("Seat", "seatId"),
        ("Type", "stationType"),
        ("Online", "isOnline"),
        ("Playing", playing(names)),
        ("Welcome screen", "isShowingWelcomeScreen"),
    ]
    show_list(items, columns, "displays")


@displays.command("show")
@click.argument("display")
def show_display(display: str) -> None:
    """Show one display."""
    show(client().displays.get(display))


add_playback(displays, "displays", "DISPLAY", named=False, switch=True, stop=False)


@displays.command("reset")
@click.argument("display")
def reset(display: str) -> None:
    """Restart the display's rendering."""
    show(client().displays.reset(display))


def _resolution(text: str) -> tuple[int, int]:
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise click.BadParameter(f"{text!r} is not WIDTHxHEIGHT, e.g. 1920x1080")
    return int(width), int(height)


@displays.command("settings")
@click.argument("display")
@click.argument("resolution", required=False)
def settings(display: str, resolution: str | None) -> None:
    """Show the resolutions, or set RESOLUTION (WIDTHxHEIGHT)."""
    host = client()
    if resolution is None:
        answer = host.displays.settings(display)
    else:
        answer = host.displays.set_resolution(display, *_resolution(resolution))
    show(answer)


@displays.command("tag")
@click.argument("display")
@click.argument("tag", required=False)
def tag(display: str, tag: str | None) -> None:
    """Show the display's tag, or set it to TAG."""
    host = client()
    show(host.displays.tag(display) if tag is None else host.displays.set_tag(display, tag))


@displays.command("render")
@click.argument("display")
def render(display: str) -> None:
    """What the display's receiver is told to show (JSON)."""
    print_json(client().displays.render(display))
