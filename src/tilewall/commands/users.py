"""tilewall users ...: the host's users, their roles and scopes, over the interface (an
administrator's; ``passwd`` without a name changes one's own password). ``tilewall user
...`` does the same offline on a data directory."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from tilewall.client import Json
from tilewall.client.users import ROLES
from tilewall.client.users import scope as scope_of
from tilewall.commands.base import Column, client, done, interface_group, show, show_list

users = interface_group("users", "The host's users, their roles and scopes.")


def _scope_text(user: Json) -> str:
    scope = user.get("scope")
    if scope is None:
        return "unlimited" if user.get("role") == "operator" else ""
    parts = [f"{kind} {', '.join(map(str, ids))}" for kind, ids in scope.items() if ids]
    return "; ".join(parts) or "nothing"


COLUMNS: list[Column] = [
    ("User", "userName"),
    ("Role", "role"),
    ("Scope", _scope_text),
    ("Sees only its scope", "scopedReads"),
    ("Disabled", "disabled"),
]


def scope_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--wall, --zone, --mirror, --display, --source (each repeatable, id or name)."""
    for flag, kind, kind_type in (
        ("--source", "sources", str),
        ("--display", "displays", int),
        ("--mirror", "mirror_groups", str),
        ("--zone", "zones", str),
        ("--wall", "walls", str),
    ):
        fn = click.option(
            flag,
            kind,
            multiple=True,
            type=kind_type,
            help=f"Limit an operator to these {kind.replace('_', ' ')} (id or name; repeatable).",
        )(fn)
    return fn


def _given_scope(given: dict[str, tuple[Any, ...]]) -> Json | None:
    if not any(given.values()):
        return None
    return scope_of(**{kind: list(values) for kind, values in given.items()})


@users.command("list")
def list_users() -> None:
    """List the users."""
    show_list(client().users.list(), COLUMNS, "users")


@users.command("show")
@click.argument("name")
def show_user(name: str) -> None:
    """Show the user NAME."""
    show(client().users.get(name))


@users.command("add")
@click.argument("name")
@click.option("--role", type=click.Choice(ROLES), required=True)
@click.password_option("--new-password", "password", help="The user's password (asked).")
@scope_options
@click.option("--scoped-reads", is_flag=True, help="Lists show the operator only its scope.")
def add(name: str, role: str, password: str, scoped_reads: bool, **given: tuple[Any, ...]) -> None:
    """Add the user NAME with a role (and, for an operator, a scope)."""
    show(client().users.create(name, password, role, _given_scope(given), scoped_reads))


@users.command("set")
@click.argument("name")
@click.option("--role", type=click.Choice(ROLES))
@scope_options
@click.option("--unlimited", is_flag=True, help="Remove the operator's scope.")
@click.option("--scoped-reads/--all-reads", default=None, help="What lists show the operator.")
@click.option("--disable/--enable", "disabled", default=None, help="Disable (or enable) it.")
def set_user(
    name: str,
    role: str | None,
    unlimited: bool,
    scoped_reads: bool | None,
    disabled: bool | None,
    **given: tuple[Any, ...],
) -> None:
    """Change the role, scope or state of the user NAME; what is not given is kept. Their
    sessions end when the role changes or they are disabled."""
    changes: dict[str, Any] = {}
    if role is not None:
        changes["role"] = role
    scope = _given_scope(given)
    if unlimited and scope is not None:
        raise click.UsageError("--unlimited and a scope exclude each other")
    if unlimited or scope is not None:
        changes["scope"] = scope
    if scoped_reads is not None:
        changes["scoped_reads"] = scoped_reads
    if disabled is not None:
        changes["disabled"] = disabled
    if not changes:
        raise click.UsageError("nothing to change")
    show(client().users.update(name, **changes))


@users.command("passwd")
@click.argument("name", required=False)
@click.password_option("--new-password", "password", help="The new password (asked).")
@click.option("--old-password", help="Your current password (asked when NAME is not given).")
def passwd(name: str | None, password: str, old_password: str | None) -> None:
    """Reset the password of NAME (an administrator's), or without NAME change your own."""
    host = client()
    if name is None:
        name = host.transport.user
        if name is None:
            raise click.UsageError("log in with --user to change your own password")
        if old_password is None:
            old_password = click.prompt("Current password", hide_input=True)
    done(host.users.set_password(name, password, old_password), f"password of {name!r} changed")


@users.command("delete")
@click.argument("name")
def delete(name: str) -> None:
    """Delete the user NAME and end their sessions."""
    done(client().users.delete(name), f"user {name!r} deleted")
