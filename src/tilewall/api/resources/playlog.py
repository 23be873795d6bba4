"""Proof of play (a tilewall extension): what played on each display, as JSON or CSV,
and how long it is kept. Also how the interface tells the play log who asked: a
request with the header ``X-Tilewall-Client: console`` is the console's, any other
the interface's (``api``)."""

import msgspec
from litestar import Response, get
from litestar.di import Provide
from litestar.params import Parameter
from litestar.types import ASGIApp, Receive, Scope, Send

from tilewall.api.common import extension
from tilewall.api.timelogs import (
    csv_cell,
    csv_text,
    instant_param,
    retention_routes,
    window,
)
from tilewall.host.host import Host
from tilewall.host.ports import Play
from tilewall.host.schedule import occurrences as occ
from tilewall.host.schedule.playlog import MAX_LIMIT
from tilewall.host.triggers import triggered_by

TAGS = ["Play log"]
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


SINCE = instant_param("since", "plays that ended before it are left out")
UNTIL = instant_param("until", "plays that started at or after it are left out")
DISPLAY = Parameter(query="displayId", default=None, required=False)
#: the rules of a window no schema of one parameter can state
WINDOW = (
    "Answers 400 when until is not after since (both given), or when a date does not "
    "exist (February 30, hour 25)."
)
LIMIT = Parameter(query="limit", default=10_000, required=False, ge=1, le=MAX_LIMIT)


async def plays(
    host: Host,
    since: str | None = SINCE,
    until: str | None = UNTIL,
    display_id: int | None = DISPLAY,
    limit: int = LIMIT,
) -> list[Entry]:
    """The dependency ``entries``: the plays the query asks for, oldest first."""
    since_ms, until_ms = window(host, since, until)
    return [entry(p) for p in await host.playlog.plays(since_ms, until_ms, display_id, limit)]


WINDOWED = {"entries": Provide(plays)}


@extension(
    get,
    "/playlog",
    TAGS,
    "What played on each display, when, and what triggered it",
    description=WINDOW,
    dependencies=WINDOWED,
)
async def playlog(entries: list[Entry]) -> PlayLogBody:
    return PlayLogBody(entries)


@extension(
    get,
    "/playlog.csv",
    TAGS,
    "The play log as CSV",
    description=WINDOW,
    media_type="text/csv",
    dependencies=WINDOWED,
)
async def playlog_csv(entries: list[Entry]) -> Response[str]:
    return Response(
        csv_text([CSV_COLUMNS, *(_cells(e) for e in entries)]),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="playlog.csv"'},
    )


def _cells(e: Entry) -> list[object]:
    duration = "" if e.durationSeconds is None else f"{e.durationSeconds:g}"
    return [
        e.id,
        e.displayId,
        e.sourceId,
        csv_cell(e.sourceName),
        e.start,
        e.end or "",
        duration,
        e.trigger,
        csv_cell(e.cause),
    ]


ROUTES = [
    playlog,
    playlog_csv,
    *retention_routes(
        "/playlog/settings",
        TAGS,
        "plays",
        "older ones are forgotten",
        lambda host: host.playlog,
    ),
]
