"""tilewall mirrorgroups ...: displays that show the same. Each takes a name or an id
(``--by`` says which when it matters)."""

from __future__ import annotations

import click

from tilewall.client.base import By
from tilewall.commands.base import (
    by_option,
    client,
    displays_option,
    done,
    interface_group,
    show,
    show_list,
)
from tilewall.commands.transport import add_playback

mirrorgroups = interface_group(
    "mirrorgroups", "Mirror groups: displays showing the same; play, control, manage."
)


@mirrorgroups.command("list")
def list_groups() -> None:
    """List the mirror groups."""
    show_list(
        client().mirrorgroups.list(), [("Mirror group", "name"), ("Id", "id")], "mirrorgroups"
    )


@mirrorgroups.command("show")
@click.argument("group")
@by_option
def show_group(group: str, by: By) -> None:
    """Show one mirror group."""
    show(client().mirrorgroups.get(group, by=by))


add_playback(mirrorgroups, "mirrorgroups", "GROUP", named=True, switch=False, stop=False)


@mirrorgroups.command("create")
@click.argument("name")
@displays_option
def create_group(name: str, display_ids: tuple[int, ...]) -> None:
    """Make a mirror group of displays."""
    show(client().mirrorgroups.create(name, display_ids))


@mirrorgroups.command("update")
@click.argument("group")
@click.option("--name", help="A new name.")
@displays_option
@by_option
def update_group(group: str, name: str | None, display_ids: tuple[int, ...], by: By) -> None:
    """Change a mirror group's name or displays (what is not given is kept)."""
    show(client().mirrorgroups.update(group, name=name, display_ids=display_ids or None, by=by))


@mirrorgroups.command("delete")
@click.argument("group")
@by_option
def delete_group(group: str, by: By) -> None:
    """Delete a mirror group."""
    done(client().mirrorgroups.delete(group, by=by), f"mirror group {group!r} deleted")
