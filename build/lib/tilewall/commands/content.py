"""tilewall presets ..., tilewall sources ... and tilewall media ...: what displays
play and the saved mappings of it."""

from __future__ import annotations

from pathlib import Path

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

presets = interface_group("presets", "Presets: save what every display plays, recall it.")
sources = interface_group("sources", "Sources: things displays can play.")
media = interface_group("media", "The media library: files signage sources play.")


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


# sources


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


# media


@media.command("list")
def list_media() -> None:
    """List the media files."""
    columns: list[Column] = [
        ("File", "name"),
        ("Kind", "kind"),
        ("Bytes", "size"),
        ("Duration ms", "durationInMilliseconds"),
    ]
    show_list(client().media.list(), columns, "files")


@media.command("upload")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", help="Name in the library (default: the file's name).")
def upload(file: Path, name: str | None) -> None:
    """Upload FILE to the library."""
    answer = client().media.upload(name or file.name, file)
    done(answer, f"uploaded {answer.get('name', name or file.name)} ({answer.get('size')} bytes)")


@media.command("download")
@click.argument("name")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Where to save it.")
def download(name: str, out: Path | None) -> None:
    """Download a media file (to its own name unless --out)."""
    data = client().media.download(name)
    target = out or Path(name.rsplit("/", 1)[-1])
    target.write_bytes(data)
    click.echo(f"saved {target} ({len(data)} bytes)")


@media.command("delete")
@click.argument("name")
def delete_media(name: str) -> None:
    """Delete a media file."""
    done(client().media.delete(name), f"media file {name!r} deleted")
