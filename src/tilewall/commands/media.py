"""tilewall media ...: the media library, the files signage sources play."""

from __future__ import annotations

from pathlib import Path

import click

from tilewall.commands.base import (
    Column,
    client,
    done,
    interface_group,
    show_list,
)

media = interface_group("media", "The media library: files signage sources play.")


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
