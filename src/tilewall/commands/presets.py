"""tilewall presets ...: saved mappings of what every display plays."""

from __future__ import annotations

import click

from tilewall.client.base import By
from tilewall.commands.base import (
    by_option,
    client,
    done,
    interface_group,
    show,
    show_list,
)

presets = interface_group("presets", "Presets: save what every display plays, recall it.")


@presets.command("list")
def list_presets() -> None:
    """List the presets."""
    show_list(client().presets.list(), [("Preset", "name"), ("Id", "id")], "presets")


@presets.command("show")
@click.argument("preset")
@by_option
def show_preset(preset: str, by: By) -> None:
    """Show one preset."""
    show(client().presets.get(preset, by=by))


@presets.command("save")
@click.argument("name")
def save_preset(name: str) -> None:
    """Save what plays now as preset NAME (an existing one is updated)."""
    answer = client().presets.save(name)
    done(answer, f"preset {answer.get('name', name)!r} saved (id {answer.get('id', '?')})")


@presets.command("recall")
@click.argument("preset")
@by_option
def recall_preset(preset: str, by: By) -> None:
    """Switch every display back to what the preset saved."""
    answer = client().presets.recall(preset, by=by)
    done(answer, f"preset {answer.get('name', preset)!r} recalled")


@presets.command("delete")
@click.argument("preset")
@by_option
def delete_preset(preset: str, by: By) -> None:
    """Delete a preset."""
    done(client().presets.delete(preset, by=by), f"preset {preset!r} deleted")
