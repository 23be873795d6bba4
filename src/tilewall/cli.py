"""The ``tilewall`` command: serve the host, manage users, run the kiosk agent.

The server side (``tilewall.server``, ``tilewall.config``, licensing) is imported by the
commands that need it, not here: a kiosk that installs ``tilewall[agent]`` runs
``tilewall agent`` without the server's libraries."""

import asyncio
import logging
import os
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from tilewall import LazyConsole, __version__
from tilewall.agent.cli import agent
from tilewall.commands import WithGroups
from tilewall.host.errors import HostError

if TYPE_CHECKING:
    from tilewall.tls import TlsFiles

console = LazyConsole()
DEFAULT_DATA_DIR = Path(os.environ.get("TILEWALL_DATA_DIR", "data"))


def _needs_server(error: ImportError) -> NoReturn:
    raise click.ClickException(
        f"this command needs the server side ({error.name} is missing): install tilewall[server]"
    )


@click.group(cls=WithGroups)
@click.version_option(__version__)
def main() -> None:
    """tilewall: an open host for displays and video walls."""


@main.command()
@click.option("--host", "bind", default="0.0.0.0", show_default=True, help="Address to bind.")
@click.option("--port", default=9000, show_default=True, type=int)
@click.option(
    "--data-dir", type=click.Path(path_type=Path), default=DEFAULT_DATA_DIR, show_default=True
)
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
        _needs_server(error)

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


@main.group()
def user() -> None:
    """Manage the users who may log in."""


def _with_host(data_dir: Path, action: str, name: str, password: str | None) -> None:
    try:
        from tilewall.server import open_host
    except ImportError as error:
        _needs_server(error)

    async def go() -> None:
        host = await open_host(data_dir)
        try:
            if action == "remove":
                await host.accounts.remove_user(name)
            else:
                exists = name in host.accounts.users()
                if action == "add" and exists:
                    raise HostError(f"user {name!r} exists; use 'tilewall user passwd'")
                if action == "passwd" and not exists:
                    raise HostError(f"user {name!r} not found")
                assert password is not None
                await host.accounts.set_password(name, password)
        finally:
            await host.close()

    try:
        asyncio.run(go())
    except HostError as exc:
        console.print(f"[red]{exc}[/]")
        sys.exit(1)


_data_dir = click.option(
    "--data-dir", type=click.Path(path_type=Path), default=DEFAULT_DATA_DIR, show_default=True
)


@user.command("add")
@click.argument("name")
@click.password_option()
@_data_dir
def user_add(name: str, password: str, data_dir: Path) -> None:
    """Add a user."""
    _with_host(data_dir, "add", name, password)
    console.print(f"user {name!r} added")


@user.command("passwd")
@click.argument("name")
@click.password_option()
@_data_dir
def user_passwd(name: str, password: str, data_dir: Path) -> None:
    """Change a user's password."""
    _with_host(data_dir, "passwd", name, password)
    console.print(f"password of {name!r} changed")


@user.command("remove")
@click.argument("name")
@_data_dir
def user_remove(name: str, data_dir: Path) -> None:
    """Remove a user and end their sessions."""
    _with_host(data_dir, "remove", name, None)
    console.print(f"user {name!r} removed")


_database = click.option(
    "--database",
    metavar="URL",
    envvar="TILEWALL_DATABASE",
    help="The host's PostgreSQL database, as for serve. Also TILEWALL_DATABASE.",
)


@main.command("backup")
@click.argument("archive", type=click.Path(path_type=Path, dir_okay=False))
@_data_dir
@_database
def backup_command(archive: Path, data_dir: Path, database: str | None) -> None:
    """Write a backup of the host in DATA_DIR to ARCHIVE (.tar.gz), also while it runs."""
    try:
        from tilewall import backup
    except ImportError as error:
        _needs_server(error)
    try:
        manifest = backup.backup(data_dir.resolve(), archive, database or None)
    except backup.BackupError as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    click.echo(f"backup {archive}: {len(manifest['files'])} files, format {manifest['version']}")


@main.command("restore")
@click.argument("archive", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@_data_dir
@_database
@click.option("--force", is_flag=True, help="Replace what a non-empty data directory holds.")
def restore_command(archive: Path, data_dir: Path, database: str | None, force: bool) -> None:
    """Make DATA_DIR (and --database) what ARCHIVE holds; the host must not be running."""
    try:
        from tilewall import backup
    except ImportError as error:
        _needs_server(error)
    try:
        manifest = backup.restore(archive, data_dir.resolve(), database or None, force)
    except backup.BackupError as error:
        click.echo(str(error), err=True)
        sys.exit(1)
    click.echo(f"restored {archive} (made {manifest['created']}) into {data_dir}")


@main.group("license")
def license_group() -> None:
    """Make licence signing keys and issue activation codes."""


@license_group.command("keygen")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    required=True,
    help="Folder for the key pair.",
)
@click.option(
    "--name", default="licence-signing", show_default=True, help="Base name of the key files."
)
def license_keygen(out_dir: Path, name: str) -> None:
    """Make a signing key pair: NAME.key (private, keep it safe) and NAME.pub.

    Copy NAME.pub into a host's DATA_DIR/trusted-keys/ (or put its text in
    TILEWALL_LICENCE_KEYS) so the host accepts codes signed with NAME.key.
    """
    try:
        from tilewall.host.licence import codes
    except ImportError as error:
        _needs_server(error)
    private_path, public_path = out_dir / f"{name}.key", out_dir / f"{name}.pub"
    for path in (private_path, public_path):
        if path.exists():
            console.print(f"[red]{path} exists; not overwriting it[/]")
            sys.exit(1)
    out_dir.mkdir(parents=True, exist_ok=True)
    key = codes.generate_signing_key()
    # created private from the start, never readable by others even briefly
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(codes.private_key_pem(key))
    public_path.write_text(codes.public_key_text(key) + "\n")
    console.print(
        f"key id {codes.key_id(key)}: private key {private_path}, public key {public_path}"
    )


def _date(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value is None or value == "":
        return value
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date YYYY-MM-DD") from None


@license_group.command("issue")
@click.option(
    "--key",
    "key_path",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    required=True,
    help="Private key file from 'tilewall license keygen'.",
)
@click.option(
    "--stations",
    type=click.IntRange(min=0),
    required=True,
    help="Number of displays licensed; 0 for unlimited.",
)
@click.option(
    "--expires",
    required=True,
    callback=_date,
    help="Expiry date YYYY-MM-DD; 'never' is not accepted, use a far date.",
)
@click.option("--support-expires", default="", callback=_date, help="Support end YYYY-MM-DD.")
@click.option("--issued", default=None, callback=_date, help="Issue date; default today.")
@click.option("--reseller", default="", help="Reseller name shown with the licence.")
@click.option(
    "--source-type",
    "source_types",
    multiple=True,
    help="A source type the licence allows; repeat it. None given: all types.",
)
@click.option(
    "--system-id",
    default="",
    help="Bind the code to one host (its licenseSystemId from GET /api/system).",
)
@click.option("--fast-video/--no-fast-video", default=False, show_default=True)
def license_issue(
    key_path: Path,
    stations: int,
    expires: str,
    support_expires: str,
    issued: str | None,
    reseller: str,
    source_types: tuple[str, ...],
    system_id: str,
    fast_video: bool,
) -> None:
    """Print an activation code signed with KEY."""
    try:
        from tilewall.host.licence import codes
    except ImportError as error:
        _needs_server(error)
    text = key_path.read_text()
    # any 32 bytes are a valid raw seed, so a public key file would "load": insist on PEM
    if "PRIVATE KEY" not in text:
        console.print(
            f"[red]{key_path} is not a private key file (PEM); "
            "give the .key file made by 'tilewall license keygen'[/]"
        )
        sys.exit(1)
    try:
        key = codes.load_private_key(text)
    except ValueError as error:
        console.print(f"[red]{key_path} is not an Ed25519 private key: {error}[/]")
        sys.exit(1)
    terms = codes.LicenceTerms(
        reseller_name=reseller,
        number_of_stations=stations or None,
        issued=issued or date.today().isoformat(),
        expires=expires,
        support_expires=support_expires,
        system_id=system_id,
        fast_video_feature=fast_video,
        source_types=list(source_types) if source_types else None,
    )
    try:
        code = codes.issue(key, terms)
    except ValueError as error:
        console.print(f"[red]{error}[/]")
        sys.exit(1)
    click.echo(code)


# the commands that drive a host over its interface (tilewall displays list, ...) are
# added by WithGroups when first needed
main.add_command(agent)
