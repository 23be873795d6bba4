"""tilewall audit ...: who changed what on the host, when, from where, and how it ended
(``tilewall audit verify``, which checks the chain in the database itself, is added by
:mod:`tilewall.cli.audit`)."""

from __future__ import annotations

import json
from typing import Any

import click

from tilewall.client import Json
from tilewall.commands.base import (
    Column,
    InterfaceGroup,
    add_retention,
    client,
    json_wanted,
    print_json,
    show_list,
    show_text,
)


def _target(entry: Json) -> str:
    target: dict[str, Any] | None = entry.get("target")
    if not target:
        return ""
    return f"{target['kind']} {target['name'] or target['id']}"


def _changed(entry: Json) -> str:
    fields = []
    for change in entry.get("changes", []):
        for action in ("created", "changed", "deleted"):
            if action in change:
                fields += sorted(change[action])
    return ", ".join(dict.fromkeys(fields))


COLUMNS: list[Column] = [
    ("Id", "id"),
    ("At", "at"),
    ("User", "user"),
    ("Address", "address"),
    ("Operation", "operation"),
    ("Target", _target),
    ("Changed", _changed),
    ("Outcome", "outcome"),
]


@click.group(
    "audit",
    cls=InterfaceGroup,
    invoke_without_command=True,
    help="Who changed what on the host, when, from where, and how it ended (newest first).",
)
@click.option("--since", metavar="WHEN", help="ISO 8601; older entries are left out.")
@click.option("--until", metavar="WHEN", help="ISO 8601; entries at or after it are left out.")
@click.option("--who", "user", metavar="USER", help="Only this user's (or schedule, agent...).")
@click.option("--target", metavar="ID", help="Only entries about this id.")
@click.option("--operation", metavar="OP", help="Only this operation ('POST /api/sources').")
@click.option("--before", type=int, metavar="ID", help="Only entries older than this id.")
@click.option("--limit", type=int, default=100, show_default=True, help="At most this many.")
@click.option("--csv", "as_csv", is_flag=True, help="Print every entry that matches as CSV.")
@click.pass_context
def audit(
    ctx: click.Context,
    since: str | None,
    until: str | None,
    user: str | None,
    target: str | None,
    operation: str | None,
    before: int | None,
    limit: int,
    as_csv: bool,
) -> None:
    if ctx.invoked_subcommand is not None:
        return
    trail = client().audit
    if as_csv:
        show_text(trail.csv(since, until, user, target, operation))
        return
    page = trail.page(since, until, user, target, operation, before, limit)
    if json_wanted():
        print_json(page)
        return
    show_list(page["entries"], COLUMNS, "entries", "audit entries")
    if not page["verified"]:
        click.echo("warning: these entries do not verify (run 'tilewall audit verify')", err=True)
    if page["next"] is not None:
        click.echo(f"older entries: --before {json.dumps(page['next'])}")


add_retention(audit, lambda host: host.audit, "audit entries")
