"""tilewall playlog ...: what played on each display, when, and what triggered it."""

from __future__ import annotations

import click

from tilewall.commands.base import (
    Column,
    InterfaceGroup,
    add_retention,
    client,
    show_list,
    show_text,
)


@click.group(
    "playlog",
    cls=InterfaceGroup,
    invoke_without_command=True,
    help="What played on each display, when, and what triggered it.",
)
@click.option("--since", metavar="WHEN", help="ISO 8601; plays that ended before are left out.")
@click.option("--until", metavar="WHEN", help="ISO 8601; plays that started after are left out.")
@click.option("--display", type=int, metavar="ID", help="Only this display.")
@click.option("--limit", type=int, help="At most this many plays (default 10000).")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV.")
@click.pass_context
def playlog(
    ctx: click.Context,
    since: str | None,
    until: str | None,
    display: int | None,
    limit: int | None,
    as_csv: bool,
) -> None:
    if ctx.invoked_subcommand is not None:
        return
    log = client().playlog
    if as_csv:
        show_text(log.csv(since, until, display, limit))
        return
    columns: list[Column] = [
        ("Display", "displayId"),
        ("Source", "sourceName"),
        ("Start", "start"),
        ("End", "end"),
        ("Seconds", "durationSeconds"),
        ("Trigger", "trigger"),
        ("Cause", "cause"),
    ]
    show_list(log.entries(since, until, display, limit), columns, "entries", "plays")


add_retention(playlog, lambda host: host.playlog, "plays")
