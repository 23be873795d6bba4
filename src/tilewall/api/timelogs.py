"""What the interface's two logs, the play log and the audit trail, share: a window of
time given in the host's local time, CSV a spreadsheet opens without running a cell,
and the setting of how many days are kept."""

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from typing import Annotated, Any, Protocol

import msgspec
from litestar import get, put
from litestar.handlers import HTTPRouteHandler
from litestar.params import Parameter

from tilewall.api.common import documented, extension
from tilewall.api.resources.schedule import INSTANT
from tilewall.host.host import Host
from tilewall.host.retention import MAX_RETENTION_DAYS
from tilewall.host.schedule import occurrences as occ

_LOCAL = "ISO 8601 (without an offset: the host's local time)"


def instant_param(name: str, left_out: str) -> Any:
    """The query parameter ``name`` (``since`` or ``until``), an instant; ``left_out``
    says what of the log it leaves out."""
    return Parameter(
        query=name,
        default=None,
        required=False,
        pattern=INSTANT,
        description=f"{_LOCAL}; {left_out}",
    )


def window(host: Host, since: str | None, until: str | None) -> tuple[int | None, int | None]:
    """``since`` and ``until`` as instants (ms), read in the host's time zone; 400 for a
    date that does not exist."""
    tz = occ.zone(host.schedule.host_zone())
    since_ms = None if not since else occ.parse_instant(since, "since", tz)
    until_ms = None if not until else occ.parse_instant(until, "until", tz)
    return since_ms, until_ms


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """CSV records, each CRLF-terminated as RFC 4180 says."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue()


def csv_cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


class Retaining(Protocol):
    """A log that forgets what is older than its retention."""

    def retention_days(self) -> int: ...

    async def set_retention_days(self, days: int) -> int: ...


class Retention(msgspec.Struct):
    """The body of a retention setting: the play log's and the audit trail's alike."""

    retentionDays: Annotated[int, documented(minimum=1, maximum=MAX_RETENTION_DAYS)]


def retention_routes(
    path: str,
    tags: list[str],
    kept: str,
    on_set: str,
    log: Callable[[Host], Retaining],
) -> list[HTTPRouteHandler]:
    """GET and PUT ``path``: how many days of ``kept`` the ``log`` keeps; ``on_set`` says
    what setting it does at once."""

    @extension(get, path, tags, f"How many days {kept} are kept")
    async def get_retention(host: Host) -> Retention:
        return Retention(log(host).retention_days())

    @extension(put, path, tags, f"Set how many days {kept} are kept ({on_set})")
    async def set_retention(host: Host, data: Retention) -> Retention:
        return Retention(await log(host).set_retention_days(data.retentionDays))

    return [get_retention, set_retention]
