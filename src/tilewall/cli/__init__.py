"""The ``tilewall`` command: serve the host, back it up and restore it, run the kiosk
agent; its command groups (``tilewall displays ...``, ``tilewall user ...``) are in
:mod:`tilewall.cli.groups`.

The server side (``tilewall.server``, ``tilewall.assembly``, ``tilewall.config``, licensing) is imported by the
commands that need it, not here: a kiosk that installs ``tilewall[agent]`` runs
``tilewall agent`` without the server's libraries."""

import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tilewall import LazyConsole, __version__
from tilewall.agent.cli import agent
from tilewall.cli.groups import WithGroups
from tilewall.cli.local import data_dir_option, database_option, needs_server

if TYPE_CHECKING:
    from tilewall.tls import TlsFiles

console = LazyConsole()


@click.group(cls=WithGroups)
@click.version_option(__version__)
def main() -> None:
    """tilewall: an open host for displays and video walls."""


@main.command()
@click.option("--host", "bind", default="0.0.0.0", show_default=True, help="Address to bind.")
@click.option("--port", default=9000, show_default=True, type=int)
@data_dir_option
@click.option("--demo", is_flag=True, help="Seed the demo topology on an empty data directory.")
@click.option(
    "--server",
    type=click.Choice(["uvicorn", "granian"]),
    default="uvicorn",
    show_default=True,
    help="ASGI server.",
)
@click.option(
    "--session-idle-seconds",
    type=float,
    default=float(os.environ.get("TILEWALL_SESSION_IDLE_SECONDS", "1800")),
    show_default=True,
    help="Idle time after which a session expires.",
)
@click.option(
    "--host-management",
    is_flag=True,
    help="Let the host change the machine (host name, time zone, network, power, packages, "
    "remote control). Also TILEWALL_HOST_MANAGEMENT=1. Off: those changes are simulated.",
)
@click.option(
    "--database",
    metavar="URL",
    help="Keep the host's state in this PostgreSQL database "
    "(postgresql://USER:PASSWORD@HOST:PORT/DATABASE). Also TILEWALL_DATABASE. "
    "Default: SQLite in the data directory. Hosts started on one database form a group: "
    "one is active, the others are hot standbys.",
)
@click.option(
    "--media-dir",
    type=click.Path(path_type=Path),
    help="The media library (also TILEWALL_MEDIA_DIR); the members of a group share one. "
    "Default: DATA_DIR/media.",
)
@click.option(
    "--advertise",
    metavar="URL",
    help="http://HOST:PORT where the other members of a group and the receivers reach "
    "this host (also TILEWALL_ADVERTISE). Default: the bound address, or the machine's "
    "primary IPv4, and the port.",
)
@click.option(
    "--tls-cert",
    type=click.Path(path_type=Path, dir_okay=False),
    envvar="TILEWALL_TLS_CERT",
    help="Serve HTTPS with this PEM certificate (chain). Also TILEWALL_TLS_CERT.",
)
@click.option(
    "--tls-key",
    type=click.Path(path_type=Path, dir_okay=False),
    envvar="TILEWALL_TLS_KEY",
    help="The private key of --tls-cert (PEM). Also TILEWALL_TLS_KEY.",
)
@click.option(
    "--tls",
    "tls_mode",
    type=click.Choice(["self-signed"]),
    help="Serve HTTPS with a self-signed certificate kept in DATA_DIR/tls/.",
)
def serve(
    bind: str,
    port: int,
    data_dir: Path,
    demo: bool,
    server: str,
    session_idle_seconds: float,
    host_management: bool,
    database: str | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    tls_mode: str | None,
    media_dir: Path | None,
    advertise: str | None,
) -> None:
    """Serve the interface, the receivers and the console."""
    password = os.environ.get("TILEWALL_ADMIN_PASSWORD")
    if password is not None and len(password) < 8:
        raise click.UsageError("TILEWALL_ADMIN_PASSWORD must be at least 8 characters")

    try:
        from tilewall.config import Config, ConfigError
        from tilewall.server import run
    except ImportError as error:
        needs_server(error)

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    data_dir = data_dir.resolve()
    try:
        config = Config.load(
            data_dir, host_management, database=database, media_dir=media_dir, advertise=advertise
        )
    except ConfigError as error:
        console.print(f"[red]{error}[/]")
        sys.exit(2)
    if config.host_management:
        console.print("[bold]host management is on:[/] the host may change this machine")
    files = _tls_files(data_dir, tls_cert, tls_key, tls_mode)
    run(bind, port, data_dir, demo, server, session_idle_seconds, config, files)


def _tls_files(
    data_dir: Path, cert: Path | None, key: Path | None, mode: str | None
) -> "TlsFiles | None":
    """The certificate and key to serve HTTPS with, checked; None for plain HTTP."""
    from tilewall import tls

    try:
        files, notes = tls.files_for(data_dir, cert, key, mode)
    except tls.TlsError as error:
        click.echo(str(error), err=True)
        sys.exit(2)
    for note in notes:
        click.echo(note, err=True)
    return files


@main.command("backup")
@click.argument("archive", type=click.Path(path_type=Path, dir_okay=False))
@data_dir_option
@database_option
def backup_command(archive: Path, data_dir: Path, database: str | None) -> None:
    """Write a backup of the host in DATA_DIR to ARCHIVE (.tar.gz), also while it runs."""
    try:
        from tilewall import backup
    except ImportError as error:
        needs_server(error)
    try:
        manifest = backup.backup(data_dir.resolve(), archive, database or None)
    except backup.BackupError as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    click.echo(f"backup {archive}: {len(manifest['files'])} files, format {manifest['version']}")


@main.command("restore")
@click.argument("archive", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@data_dir_option
@database_option
@click.option("--force", is_flag=True, help="Replace what a non-empty data directory holds.")
def restore_command(archive: Path, data_dir: Path, database: str | None, force: bool) -> None:
    """Make DATA_DIR (and --database) what ARCHIVE holds; the host must not be running."""
    try:
        from tilewall import backup
    except ImportError as error:
        needs_server(error)
    try:
        manifest = backup.restore(archive, data_dir.resolve(), database or None, force)
    except backup.BackupError as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    click.echo(f"restored {archive} (made {manifest['created']}) into {data_dir}")


# the command groups (tilewall displays ..., tilewall user ...) are added by WithGroups
# when first needed
main.add_command(agent)
