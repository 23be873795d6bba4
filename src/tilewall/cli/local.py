"""What the commands that work on this machine's data directory share (``tilewall
serve``, ``user``, ``backup``, ``restore``): its default place, the options naming it
and the database, and the message when the server side is not installed."""

import os
from pathlib import Path
from typing import NoReturn

import click

DEFAULT_DATA_DIR = Path(os.environ.get("TILEWALL_DATA_DIR", "data"))

data_dir_option = click.option(
    "--data-dir", type=click.Path(path_type=Path), default=DEFAULT_DATA_DIR, show_default=True
)

database_option = click.option(
    "--database",
    metavar="URL",
    envvar="TILEWALL_DATABASE",
    help="The host's PostgreSQL database, as for serve. Also TILEWALL_DATABASE.",
)


def needs_server(error: ImportError) -> NoReturn:
    """End a command that could not import the server side, saying what to install."""
    raise click.ClickException(
        f"this command needs the server side ({error.name} is missing): install tilewall[server]"
    )
