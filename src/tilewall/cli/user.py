"""tilewall user ...: the users who may log in, changed in the data directory (the host
need not run). ``tilewall users ...`` does the same over the interface."""

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import click

from tilewall import LazyConsole
from tilewall.cli.local import data_dir_option, needs_server
from tilewall.host.errors import HostError

console = LazyConsole()
ROLES = ("viewer", "operator", "administrator")


@click.group("user")
def user() -> None:
    """Manage the users who may log in (in the data directory)."""


def _with_accounts(data_dir: Path, action: Callable[[Any], Awaitable[None]]) -> None:
    """Run ``action(accounts)`` on the users of the host in ``data_dir``."""
    try:
        from tilewall.assembly import open_host
    except ImportError as error:
        needs_server(error)

    async def go() -> None:
        host = await open_host(data_dir)
        try:
            await action(host.accounts)
        finally:
            await host.close()

    try:
        asyncio.run(go())
    except HostError as exc:
        console.print(f"[red]{exc}[/]")
        sys.exit(1)


def _known(accounts: Any, name: str) -> None:
    if name not in accounts.users():
        raise HostError(f"user {name!r} not found")


@user.command("list")
@data_dir_option
def user_list(data_dir: Path) -> None:
    """List the users and their roles."""
    found: dict[str, Any] = {}

    async def read(accounts: Any) -> None:
        found.update(accounts.accounts())

    _with_accounts(data_dir, read)
    for name, account in sorted(found.items()):
        state = " (disabled)" if account.disabled else ""
        scoped = " (scoped)" if account.scope is not None else ""
        console.print(f"{name}: {account.role}{scoped}{state}", highlight=False)


@user.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(ROLES), default="administrator", show_default=True)
@click.password_option()
@data_dir_option
def user_add(name: str, role: str, password: str, data_dir: Path) -> None:
    """Add a user (an administrator unless --role says otherwise)."""

    async def add(accounts: Any) -> None:
        from tilewall.host.access.roles import Account, Role

        if name in accounts.users():
            raise HostError(f"user {name!r} exists; use 'tilewall user passwd'")
        await accounts.add_user(name, password, Account("", Role(role)))

    _with_accounts(data_dir, add)
    console.print(f"user {name!r} added ({role})")


@user.command("role")
@click.argument("name")
@click.argument("role", type=click.Choice(ROLES))
@data_dir_option
def user_role(name: str, role: str, data_dir: Path) -> None:
    """Give a user another role (an operator's scope is kept; their sessions end)."""

    async def change(accounts: Any) -> None:
        from tilewall.host.access.roles import Role
        from tilewall.host.access.users import changed

        _known(accounts, name)
        known = accounts.account(name)
        scope = known.scope if role == "operator" else None
        reads = known.scoped_reads and scope is not None
        await accounts.change_user(
            name, changed(known, role=Role(role), scope=scope, scoped_reads=reads)
        )

    _with_accounts(data_dir, change)
    console.print(f"{name!r} is now a {role}")


@user.command("passwd")
@click.argument("name")
@click.password_option()
@data_dir_option
def user_passwd(name: str, password: str, data_dir: Path) -> None:
    """Change a user's password (their sessions end)."""

    async def change(accounts: Any) -> None:
        _known(accounts, name)
        await accounts.reset_password(name, password)

    _with_accounts(data_dir, change)
    console.print(f"password of {name!r} changed")


@user.command("enable")
@click.argument("name")
@data_dir_option
def user_enable(name: str, data_dir: Path) -> None:
    """Let a disabled user log in again."""
    _set_disabled(name, False, data_dir)
    console.print(f"{name!r} enabled")


@user.command("disable")
@click.argument("name")
@data_dir_option
def user_disable(name: str, data_dir: Path) -> None:
    """Keep a user from logging in, ending their sessions."""
    _set_disabled(name, True, data_dir)
    console.print(f"{name!r} disabled")


def _set_disabled(name: str, disabled: bool, data_dir: Path) -> None:
    async def change(accounts: Any) -> None:
        from tilewall.host.access.users import changed

        _known(accounts, name)
        await accounts.change_user(name, changed(accounts.account(name), disabled=disabled))

    _with_accounts(data_dir, change)


@user.command("remove")
@click.argument("name")
@data_dir_option
def user_remove(name: str, data_dir: Path) -> None:
    """Remove a user and end their sessions."""

    async def remove(accounts: Any) -> None:
        await accounts.remove_user(name)

    _with_accounts(data_dir, remove)
    console.print(f"user {name!r} removed")
