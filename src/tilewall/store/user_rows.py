"""Users as rows of ``users``: the record of a user (:class:`Account`) to columns and
back; the scope is stored as JSON."""

import json
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from tilewall.host.access.roles import Account, Role, Scope
from tilewall.store import tables

#: the columns a user is read from, in :func:`account_of`'s order (after the name)
COLUMNS = (
    tables.users.c.name,
    tables.users.c.password_hash,
    tables.users.c.role,
    tables.users.c.scope,
    tables.users.c.scoped_reads,
    tables.users.c.disabled,
    tables.users.c.created_ms,
)
#: what a changed user rewrites (the creation time stays)
UPDATED = ("password_hash", "role", "scope", "scoped_reads", "disabled")


def select() -> sa.Select[Any]:
    return sa.select(*COLUMNS)


def row_of(name: str, account: Account) -> dict[str, Any]:
    return {
        "name": name,
        "password_hash": account.password_hash,
        "role": str(account.role),
        "scope": None if account.scope is None else _scope_json(account.scope),
        "scoped_reads": account.scoped_reads,
        "disabled": account.disabled,
        "created_ms": account.created_ms,
    }


def accounts_of(rows: Iterable[Any]) -> dict[str, Account]:
    return {row[0]: account_of(row) for row in rows}


def account_of(row: Any) -> Account:
    _name, hashed, role, scope, scoped_reads, disabled, created_ms = row
    return Account(
        hashed,
        Role(role),
        None if scope is None else _scope_of(scope),
        bool(scoped_reads),
        bool(disabled),
        int(created_ms),
    )


def _scope_json(scope: Scope) -> str:
    return json.dumps(
        {
            "walls": sorted(scope.walls),
            "zones": sorted(scope.zones),
            "mirrorGroups": sorted(scope.mirror_groups),
            "displays": sorted(scope.displays),
            "sources": sorted(scope.sources),
        },
        separators=(",", ":"),
    )


def _scope_of(text: str) -> Scope:
    data = json.loads(text)
    return Scope.of(
        data.get("walls", ()),
        data.get("zones", ()),
        data.get("mirrorGroups", ()),
        (int(d) for d in data.get("displays", ())),
        data.get("sources", ()),
    )
