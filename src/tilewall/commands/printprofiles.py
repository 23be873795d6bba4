"""tilewall printprofiles ...: print profiles, one per print queue."""

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

printprofiles = interface_group("printprofiles", "Print profiles, one per print queue.")


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
