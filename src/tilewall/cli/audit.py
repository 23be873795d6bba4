"""tilewall audit verify: check the audit trail's chain in the host's database itself
(the host need not run); the listing is :mod:`tilewall.commands.audit`."""

import asyncio
import sys
from pathlib import Path

import click

from tilewall.cli.local import data_dir_option, database_option, needs_server
from tilewall.commands.audit import audit

#: exit statuses: the chain holds, it is broken, the database could not be read
HOLDS, BROKEN, UNREADABLE = 0, 1, 2


@click.command("verify")
@data_dir_option
@database_option
def verify(data_dir: Path, database: str | None) -> None:
    """Check that no entry of the audit trail was edited, removed or inserted: exit 0
    when the chain holds, 1 naming the first bad entry's id when not."""
    try:
        from tilewall.assembly import first_bad_audit_entry, has_local_database
        from tilewall.host.errors import StoreFailed
    except ImportError as error:
        needs_server(error)
    if not database and not has_local_database(data_dir):
        click.echo(f"error: no host database in {data_dir}", err=True)
        sys.exit(UNREADABLE)

    try:
        bad = asyncio.run(first_bad_audit_entry(data_dir, database))
    except StoreFailed as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(UNREADABLE)
    if bad is not None:
        click.echo(f"the audit trail is broken at entry {bad}")
        sys.exit(BROKEN)
    click.echo("the audit trail holds")


# the listing's group takes the connection options; verify reads the database instead
click.Group.add_command(audit, verify)
