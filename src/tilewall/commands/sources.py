"""tilewall sources ...: the things displays can play."""

from __future__ import annotations

import click

from tilewall.client.base import By, Json
from tilewall.commands.base import (
    Column,
    by_option,
    client,
    done,
    interface_group,
    pairs,
    show,
    show_list,
)

sources = interface_group("sources", "Sources: things displays can play.")


def _params(source: Json) -> str:
    return ", ".join(f"{p['paramName']}={p['paramValue']}" for p in source.get("params", []))


@sources.command("list")
@click.option("--name", help="Only the source of this name.")
def list_sources(name: str | None) -> None:
    """List the sources."""
    columns: list[Column] = [
        ("Source", "sourceName"),
        ("Id", "sourceId"),
        ("Type", "sourceType"),
        ("Params", _params),
    ]
    show_list(client().sources.list(name), columns, "sources")


@sources.command("show")
@click.argument("source")
@by_option
def show_source(source: str, by: By) -> None:
    """Show one source."""
    show(client().sources.get(source, by=by))


param_option = click.option(
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="A param of the source; repeat it. See 'tilewall sources types'.",
)


@sources.command("create")
@click.argument("name")
@click.option("--type", "source_type", required=True, help="The source type.")
@param_option
def create_source(name: str, source_type: str, params: tuple[str, ...]) -> None:
    """Make a source."""
    show(client().sources.create(name, source_type, pairs(params, "--param")))


@sources.command("update")
@click.argument("source")
@click.option("--name", help="A new name.")
@click.option("--type", "source_type", help="A new source type.")
@param_option
@by_option
def update_source(
    source: str, name: str | None, source_type: str | None, params: tuple[str, ...], by: By
) -> None:
    """Change a source; the params given replace those of the same name."""
    host = client()
    merged = None
    if params:
        given = pairs(params, "--param")
        current = host.sources.get(source, by=by)["params"]
        merged = [p for p in current if p["paramName"] not in given]
        merged += [{"type": "", "paramName": k, "paramValue": v} for k, v in given.items()]
    show(host.sources.update(source, name=name, source_type=source_type, params=merged, by=by))


@sources.command("delete")
@click.argument("source")
@by_option
def delete_source(source: str, by: By) -> None:
    """Delete a source."""
    done(client().sources.delete(source, by=by), f"source {source!r} deleted")


@sources.command("status")
@click.argument("source")
@by_option
def source_status(source: str, by: By) -> None:
    """How a live source is doing: live, reconnecting or failed and why, its picture
    and bitrate, and how many displays take it."""
    show(client().sources.status(source, by=by))


@sources.command("types")
def source_types() -> None:
    """The source types the host plays and their params."""

    def params(kind: Json) -> str:
        return ", ".join(
            p["paramName"] + ("*" if p.get("required") else "") for p in kind.get("params", [])
        )

    columns: list[Column] = [
        ("Type", "sourceType"),
        ("Allowed", "allowed"),
        ("Params (* required)", params),
        ("About", "description"),
    ]
    show_list(client().sources.types(), columns, "sourceTypes")
