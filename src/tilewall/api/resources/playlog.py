"""Proof of play (a tilewall extension): what played on each display, as JSON or CSV,
and how long it is kept. Also how the interface tells the play log who asked: a
request with the header ``X-Tilewall-Client: console`` is the console's, any other
the interface's (``api``)."""

import csv
import io
from typing import Annotated

import msgspec
from litestar import Response, get, put
from litestar.params import Parameter
from litestar.types import ASGIApp, Receive, Scope, Send

from tilewall.api.common import EXTENSION_TAG, Extension, documented, errors
from tilewall.api.resources.schedule import INSTANT
from tilewall.host.host import Host
from tilewall.host.ports import Play
from tilewall.host.schedule import occurrences as occ
from tilewall.host.schedule.playlog import MAX_LIMIT, MAX_RETENTION_DAYS
from tilewall.host.triggers import triggered_by

TAGS = [EXTENSION_TAG, "Play log"]
CLIENT_HEADER = b"x-tilewall-client"
CSV_COLUMNS = [
    "id",
    "displayId",
    "sourceId",
    "sourceName",
    "start",
    "end",
    "durationSeconds",
    "trigger",
    "cause",
]


def client_trigger(app: ASGIApp) -> ASGIApp:
    """Middleware: changes made by a request of the console are marked ``console``."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        if headers.get(CLIENT_HEADER, b"").strip().lower() == b"console":
            with triggered_by("console"):
                await app(scope, receive, send)
            return
        await app(scope, receive, send)

    return middleware


class Entry(msgspec.Struct):
    id: str
    displayId: int
    sourceId: str
    sourceName: str
    #: ISO 8601 instants in UTC
    start: str
    end: str | None
    #: None while it still plays
    durationSeconds: float | None
    trigger: str
    #: the scheduled event or preset that caused it, if one did
    cause: str


class PlayLogBody(msgspec.Struct):
    entries: list[Entry]


class Retention(msgspec.Struct):
    retentionDays: Annotated[int, documented(minimum=1, maximum=MAX_RETENTION_DAYS)]


def entry(play: Play) -> Entry:
    return Entry(
        play.id,
        play.display_id,
        play.source_id,
        play.source_name,
        occ.iso_instant(play.start_ms),
        None if play.end_ms is None else occ.iso_instant(play.end_ms),
        None if play.end_ms is None else (play.end_ms - play.start_ms) / 1000,
        play.trigger,
        play.cause,
    )


async def _entries(
    host: Host, since: str | None, until: str | None, display_id: int | None, limit: int
) -> list[Entry]:
    tz = occ.zone(host.schedule.host_zone())
    since_ms = None if not since else occ.parse_instant(since, "since", tz)
    until_ms = None if not until else occ.parse_instant(until, "until", tz)
    plays = await host.playlog.plays(since_ms, until_ms, display_id, limit)
    return [entry(p) for p in plays]


SINCE = Parameter(
    query="since",
    default=None,
    required=False,
    pattern=INSTANT,
    description="ISO 8601 (without an offset: the host's local time); plays that ended "
    "before it are left out",
)
UNTIL = Parameter(
    query="until",
    default=None,
    required=False,
    pattern=INSTANT,
    description="ISO 8601 (without an offset: the host's local time); plays that started "
    "at or after it are left out",
)
DISPLAY = Parameter(query="displayId", default=None, required=False)
#: the rules of a window no schema of one parameter can state
WINDOW = (
    "Answers 400 when until is not after since (both given), or when a date does not "
    "exist (February 30, hour 25)."
)
LIMIT = Parameter(query="limit", default=10_000, required=False, ge=1, le=MAX_LIMIT)


@get(
    "/playlog",
    tags=TAGS,
    summary="What played on each display, when, and what triggered it",
    responses=errors(),
    description=WINDOW,
    operation_class=Extension,
)
async def playlog(
    host: Host,
    since: str | None = SINCE,
    until: str | None = UNTIL,
    display_id: int | None = DISPLAY,
    limit: int = LIMIT,
) -> PlayLogBody:
    return PlayLogBody(await _entries(host, since, until, display_id, limit))


@get(
    "/playlog.csv",
    tags=TAGS,
    summary="The play log as CSV",
    responses=errors(),
    description=WINDOW,
    operation_class=Extension,
    media_type="text/csv",
)
async def playlog_csv(
    host: Host,
    since: str | None = SINCE,
    until: str | None = UNTIL,
    display_id: int | None = DISPLAY,
    limit: int = LIMIT,
) -> Response[str]:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for e in await _entries(host, since, until, display_id, limit):
        writer.writerow(
            [
                e.id,
                e.displayId,
                e.sourceId,
                _cell(e.sourceName),
                e.start,
                e.end or "",
                "" if e.durationSeconds is None else f"{e.durationSeconds:g}",
                e.trigger,
                _cell(e.cause),
            ]
        )
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="playlog.csv"'},
    )


def _cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@get(
    "/playlog/settings",
    tags=TAGS,
    summary="How many days plays are kept",
    responses=errors(),
    operation_class=Extension,
)
async def get_retention(host: Host) -> Retention:
    return Retention(host.playlog.retention_days())


@put(
    "/playlog/settings",
    tags=TAGS,
    summary="Set how many days plays are kept (older ones are forgotten)",
    responses=errors(),
    operation_class=Extension,
)
async def set_retention(host: Host, data: Retention) -> Retention:
    return Retention(await host.playlog.set_retention_days(data.retentionDays))


ROUTES = [playlog, playlog_csv, get_retention, set_retention]
