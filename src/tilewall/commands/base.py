"""What every interface command shares: the connection to the host (options, then the
environment), host errors as one line and an exit status, and output as rich tables or
the host's JSON."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tilewall.client import DEFAULT_URL, ApiError, Client, HostUnreachable, Json
from tilewall.client.timelogs import TimeLog

META = "tilewall.cli."
#: exit statuses: the host refused (its message is printed), or could not be reached
EXIT_REFUSED = 1
EXIT_UNREACHABLE = 3

Column = tuple[str, str | Callable[[Json], Any]]


def _remember(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Keep a connection option given on a group or a command; the innermost wins."""
    if value not in (None, False) and param.name:
        ctx.meta[META + param.name] = value
    return value


def connection_params() -> list[click.Parameter]:
    """--url, --user, --password and --json, accepted by every group and command."""
    return [
        click.Option(
            ["--url"],
            expose_value=False,
            callback=_remember,
            metavar="URL",
            help=f"The host, e.g. http://wall-host:9000 (env TILEWALL_URL; default {DEFAULT_URL}).",
        ),
        click.Option(
            ["--user"],
            expose_value=False,
            callback=_remember,
            help="User to log in as (env TILEWALL_USER; 'admin' when only a password is given).",
        ),
        click.Option(
            ["--password"],
            expose_value=False,
            callback=_remember,
            help="Password (env TILEWALL_PASSWORD; asked for on a terminal when a user is given).",
        ),
        click.Option(
            ["--json", "json_output"],
            is_flag=True,
            default=False,
            expose_value=False,
            callback=_remember,
            help="Print the host's JSON instead of tables.",
        ),
    ]


def _fail(message: str, status: int) -> None:
    click.echo(f"error: {message}", err=True)
    click.get_current_context().exit(status)


class InterfaceGroup(click.Group):
    """A group of commands driving one part of the interface. Its commands all take the
    connection options, and a host error ends them with its message, not a traceback."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.extend(connection_params())

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        have = {p.name for p in cmd.params}
        cmd.params.extend(p for p in connection_params() if p.name not in have)
        super().add_command(cmd, name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HostUnreachable as error:
            _fail(f"{error.message} (is it running? give --url or TILEWALL_URL)", EXIT_UNREACHABLE)
        except ApiError as error:
            message = f"{error.message} (HTTP {error.status})"
            if error.status == 401 and not _credentials()[0]:
                message += "; give --user and --password, or TILEWALL_USER and TILEWALL_PASSWORD"
            _fail(message, EXIT_REFUSED)
        except OSError as error:  # a file to read or write here
            _fail(str(error), EXIT_REFUSED)
        return None


def interface_group(name: str, help_text: str) -> InterfaceGroup:
    return InterfaceGroup(name, help=help_text, no_args_is_help=True)


def _option(name: str) -> Any:
    return click.get_current_context().meta.get(META + name)


def _credentials() -> tuple[str | None, str | None]:
    user = _option("user") or os.environ.get("TILEWALL_USER") or None
    password = _option("password")
    if password is None:
        password = os.environ.get("TILEWALL_PASSWORD") or None
    if password is not None and user is None:
        user = "admin"
    return user, password


def client() -> Client:
    """The client of this command line, made on first use and logged out at the end."""
    ctx = click.get_current_context()
    made: Client | None = ctx.meta.get(META + "client")
    if made is not None:
        return made
    url = _option("url") or os.environ.get("TILEWALL_URL") or DEFAULT_URL
    user, password = _credentials()
    if user is not None and password is None:
        password = (
            click.prompt(f"Password of {user}", hide_input=True) if sys.stdin.isatty() else ""
        )
    made = Client(url, user, password)
    ctx.meta[META + "client"] = made
    ctx.find_root().call_on_close(lambda: _finish(made))
    return made


def _finish(host: Client) -> None:
    if host.token is not None:
        with contextlib.suppress(ApiError):
            host.logout()
    host.close()


# output


def json_wanted() -> bool:
    return bool(_option("json_output"))


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def console() -> Console:
    wide = None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 200
    return Console(highlight=False, width=wide, soft_wrap=False)


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _value(item: Json, field: str | Callable[[Json], Any]) -> Any:
    return field(item) if callable(field) else item.get(field)


def show_list(items: Sequence[Json], columns: Sequence[Column], key: str, title: str = "") -> None:
    """A list answer: a table, or with --json the host's ``{key: items}``."""
    if json_wanted():
        print_json({key: list(items)})
        return
    if not items:
        click.echo(f"no {title or key}")
        return
    table = Table(title=title or None, title_justify="left")
    for header, _ in columns:
        table.add_column(header, overflow="fold")
    for item in items:
        table.add_row(*(Text(cell(_value(item, field))) for _, field in columns))
    console().print(table)


def show(data: Json | Sequence[Json], title: str = "", key: str = "") -> None:
    """An object answer as a field/value table (a list of them, one table each), or the
    host's JSON with --json."""
    if json_wanted():
        print_json({key: list(data)} if key and not isinstance(data, dict) else data)
        return
    for item in [data] if isinstance(data, dict) else data:
        table = Table(title=title or None, title_justify="left", show_header=False)
        table.add_column("field", style="bold")
        table.add_column("value", overflow="fold")
        for field, value in item.items():
            table.add_row(Text(field), Text(cell(value)))
        console().print(table)


def show_text(text: str) -> None:
    """A text answer, as it is (also with --json: the host answers text)."""
    click.echo(text, nl=not text.endswith("\n"))


def done(answer: Json, message: str) -> None:
    """An action's answer: a line saying what was done, or the host's JSON."""
    if json_wanted():
        print_json(answer)
    else:
        click.echo(str(answer.get("message") or message))


def source_names() -> dict[str, str]:
    """Source names by id, to show what plays by name; empty if they cannot be read."""
    try:
        return {s["sourceId"]: s["sourceName"] for s in client().sources.list()}
    except ApiError:
        return {}


def playing(names: dict[str, str], field: str = "playingSourceId") -> Callable[[Json], str]:
    def value(item: Json) -> str:
        source_id = str(item.get(field) or "")
        return names.get(source_id, source_id)

    return value


def read_json(path: Path, what: str) -> Any:
    """The JSON in a file given as ``what``; a clear usage error when it is not JSON."""
    try:
        return json.loads(path.read_text())
    except ValueError as error:
        raise click.BadParameter(f"{path} is not JSON: {error}", param_hint=what) from None


def pairs(values: Iterable[str], what: str) -> dict[str, str]:
    """``NAME=VALUE`` arguments as a dict."""
    out: dict[str, str] = {}
    for text in values:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"{text!r} is not NAME=VALUE", param_hint=what)
        out[name.strip()] = value
    return out


by_option = click.option(
    "--by",
    type=click.Choice(["auto", "id", "name"]),
    default="auto",
    show_default=True,
    help="Whether the argument is an id or a name; auto: an id if one exists, else a name.",
)

#: the displays of a zone or a mirror group
displays_option = click.option(
    "--display",
    "display_ids",
    type=int,
    multiple=True,
    help="A display id; repeat it for each display.",
)


def add_retention(group: click.Group, log: Callable[[Client], TimeLog], kept: str) -> None:
    """Add ``retention`` to ``group``: how many days ``log`` keeps ``kept`` (the plays,
    the audit entries), or set it."""

    @group.command("retention", help=f"Show how many days {kept} are kept, or set it to DAYS.")
    @click.argument("days", type=int, required=False)
    def retention(days: int | None) -> None:
        of = log(client())
        days = of.retention_days() if days is None else of.set_retention_days(days)
        if json_wanted():
            print_json({"retentionDays": days})
        else:
            click.echo(f"{kept} are kept {days} days")
