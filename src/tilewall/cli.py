"""The ``tilewall`` command: serve the host, manage users."""

import asyncio
import logging
import os
import secrets
import sys
from pathlib import Path

import click
from rich.console import Console

from tilewall import __version__
from tilewall.host.errors import HostError
from tilewall.host.host import Host

console = Console(stderr=True)
DEFAULT_DATA_DIR = Path(os.environ.get("TILEWALL_DATA_DIR", "data"))


@click.group()
@click.version_option(__version__)
def main() -> None:
    """tilewall: an open host for displays and video walls."""


async def ensure_admin(host: Host, data_dir: Path) -> None:
    """First start: create the admin user, with a generated password unless one is given."""
    if host.accounts.users():
        return
    user = os.environ.get("TILEWALL_ADMIN_USER", "admin")
    password = os.environ.get("TILEWALL_ADMIN_PASSWORD")
    if password:
        await host.accounts.set_password(user, password)
        return
    password = secrets.token_urlsafe(12)
    await host.accounts.set_password(user, password)
    path = data_dir / "initial-admin-password"
    path.write_text(password + "\n")
    path.chmod(0o600)
    console.print(
        f"[bold]Created user {user!r} with password {password}[/] (also written to {path})"
    )


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
def serve(
    bind: str, port: int, data_dir: Path, demo: bool, server: str, session_idle_seconds: float
) -> None:
    """Serve the interface, the receivers and the console."""
    from tilewall.server import run

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    run(bind, port, data_dir.resolve(), demo, server, session_idle_seconds)


@main.group()
def user() -> None:
    """Manage the users who may log in."""


def _with_host(data_dir: Path, action: str, name: str, password: str | None) -> None:
    async def go() -> None:
        host = await Host.open(data_dir)
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
