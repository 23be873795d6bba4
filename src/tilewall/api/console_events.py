"""``GET /api/console/events``: the console follows the host by a push, not a poll.

A server-sent event stream (``text/event-stream``) for a logged-in session, like the
console's other calls. Its first event gives the host's revision at once; then one
``revision`` event follows each move of the revision (a change installed, a receiver
come or gone, an announcement), coalesced: moves within :data:`COALESCE_S` of the first
are one event. Between events a comment every :data:`HEARTBEAT_S` tells the browser
(and any proxy) that the stream is alive. A stream waits on the host's change
notification, one future that every stream shares, so open consoles cost the host
nothing while nothing changes. When the server stops, :meth:`ConsoleStreams.close` ends
every stream, so that stopping need not wait for them (``tilewall.uvicorn_server``).
"""

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from litestar import Litestar, Request, get
from litestar.response import Stream

from tilewall.api.auth import token_of
from tilewall.host.access.accounts import Accounts
from tilewall.host.host import Host
from tilewall.host.state import Core

#: a comment this long after the last event or comment
HEARTBEAT_S = 15.0
#: moves of the revision this close after the first one are told in one event
COALESCE_S = 0.2
#: how long the browser waits before it opens a lost stream again
RETRY_MS = 2000


class ConsoleStreams:
    """The app's open event streams, ended all at once when the server stops."""

    def __init__(self) -> None:
        self.closing = asyncio.Event()

    def close(self) -> None:
        self.closing.set()


def console_streams(app: Litestar) -> ConsoleStreams:
    """The streams of ``app`` (made on first use)."""
    streams: ConsoleStreams | None = getattr(app.state, "console_streams", None)
    if streams is None:
        streams = app.state.console_streams = ConsoleStreams()
    return streams


def event(revision: int) -> str:
    return f"event: revision\ndata: {revision}\n\n"


async def next_revision(
    core: Core, after: int, closing: asyncio.Event, ended: "asyncio.Future[None]"
) -> int | None:
    """The revision once it moves past ``after``; None when it has not within
    :data:`HEARTBEAT_S`, the streams are closing or sessions ``ended``."""
    moved = asyncio.ensure_future(core.revision_moved(after))
    closed = asyncio.ensure_future(closing.wait())
    try:
        done, _ = await asyncio.wait(
            (moved, closed, ended), timeout=HEARTBEAT_S, return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        moved.cancel()
        closed.cancel()
    return moved.result() if moved in done else None


async def events(
    core: Core, closing: asyncio.Event, accounts: Accounts, token: str
) -> AsyncIterator[str]:
    """The stream's text: the revision now, then each move of it, heartbeats between;
    it ends when the server stops or the session it was opened with ends."""
    revision = core.revision
    yield f"retry: {RETRY_MS}\n{event(revision)}"
    while not closing.is_set():
        moved = await next_revision(core, revision, closing, accounts.sessions_ended())
        if closing.is_set() or not accounts.is_live(token):
            return
        if moved is None:
            yield ": alive\n\n"
            continue
        # a change often comes with others (a switch moves a zone and its displays)
        await asyncio.sleep(COALESCE_S)
        revision = core.revision
        yield event(revision)


@get("/console/events", include_in_schema=False, name="console-events")
async def console_events(request: Request[Any, Any, Any], host: Host) -> Stream:
    closing = console_streams(request.app).closing
    return Stream(
        events(host.core, closing, host.accounts, token_of(request)),
        media_type="text/event-stream",
        # no proxy may hold the events back, nor keep a copy
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


ROUTES = [console_events]
