"""tilewall user ...: the users who may log in, changed in the data directory (the host
need not run)."""

import asyncio
import sys
from pathlib import Path

import click

from tilewall import LazyConsole
from tilewall.cli.local import data_dir_option, needs_server
from tilewall.host.errors import HostError

console = LazyConsole()


@click.group("user")
def user() -> None:
    """Manage the users who may log in."""


def _with_host(data_dir: Path, action: str, name: str, password: str | None) -> None:
    try:
        from tilewall.assembly import open_host
    except ImportError as error:
        needs_server(error)

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


@user.command("add")
@click.argument("name")
@click.password_option()
@data_dir_option
def user_add(name: str, password: str, data_dir: Path) -> None:
    """Add a user."""
    _with_host(data_dir, "add", name, password)
    console.print(f"user {name!r} added")


@user.command("passwd")
@click.argument("name")
@click.password_option()
@data_dir_option
def user_passwd(name: str, password: str, data_dir: Path) -> None:
    """Change a user's password."""
    _with_host(data_dir, "passwd", name, password)
    console.print(f"password of {name!r} changed")


@user.command("remove")
@click.argument("name")
@data_dir_option
def user_remove(name: str, data_dir: Path) -> None:
    """Remove a user and end their sessions."""
    _with_host(data_dir, "remove", name, None)
    console.print(f"user {name!r} removed")
