"""Screen shares over HTTP (a tilewall extension, docs/share.md): start a share to a
display, zone, mirror group or wall, list and end shares; and the WebSocket
``/share/ingest/{shareId}`` the sharer's browser sends its encoded frames to."""

import asyncio
import contextlib
import logging
from typing import Annotated, Any

import msgspec
from litestar import Request, WebSocket, delete, get, post, websocket
from litestar.exceptions import WebSocketDisconnect
from litestar.handlers import WebsocketRouteHandler

from tilewall.api.auth import token_of
from tilewall.api.common import EXTENSION_TAG, Done, Extension, NotBlank, errors
from tilewall.host.errors import Unavailable
from tilewall.host.host import Host
from tilewall.host.playback.shares import TARGET_KINDS, Share, ShareTarget, TargetKind
from tilewall.host.schedule.occurrences import iso_instant
from tilewall.live.share import Ingest, Refused, ShareIngests

log = logging.getLogger(__name__)

TAGS = [EXTENSION_TAG, "Screen shares"]
INGEST_PATH = "/share/ingest/{shareId:str}"
#: close codes: no such share or a wrong token; what was sent cannot be relayed; the
#: share was ended by someone else
CLOSE_UNKNOWN = 4404
CLOSE_REFUSED = 4400
CLOSE_ENDED = 4000


class ShareIn(msgspec.Struct, forbid_unknown_fields=True):
    target: Annotated[
        TargetKind,
        msgspec.Meta(description=f"What to share to: one of {', '.join(TARGET_KINDS)}."),
    ]
    id: Annotated[
        NotBlank,
        msgspec.Meta(
            max_length=200,
            description="The display's id, or the zone's, mirror group's or wall's id "
            "(or its name, with byName).",
        ),
    ]
    byName: bool = False


class ShareOut(msgspec.Struct):
    shareId: str
    sourceId: str
    sourceName: str
    sharedBy: str
    guest: bool
    target: str
    targetId: str
    targetName: str
    started: str
    shown: bool


class StartedShare(ShareOut):
    #: where the sharer's browser sends its frames (with ``?token=``)
    ingest: str
    token: str


class ShareList(msgspec.Struct):
    shares: list[ShareOut]


def _fields(share: Share) -> dict[str, Any]:
    return {
        "shareId": share.id,
        "sourceId": share.id,
        "sourceName": share.source_name,
        "sharedBy": share.shared_by,
        "guest": share.guest,
        "target": share.target.kind,
        "targetId": share.target.key,
        "targetName": share.target_name,
        "started": iso_instant(share.started_ms),
        "shown": share.shown,
    }


def _ingests(request: Request[Any, Any, Any]) -> ShareIngests:
    ingests: ShareIngests | None = request.app.state.get("shares")
    if ingests is None:
        raise Unavailable("this host takes no screen shares yet")
    return ingests


@post(
    "/shares",
    status_code=201,
    tags=TAGS,
    summary="Start a screen share",
    description=(
        "Makes a 'Screen share' source for the session's user, to be shown on the target "
        "as soon as its first picture comes. The answer's ingest path and token are where "
        "the sharer's browser sends its encoded frames (a WebSocket, docs/share.md); a share "
        "whose sharer does not connect within 15 s ends."
    ),
    responses=errors(404, 409),
    operation_class=Extension,
)
async def start_share(host: Host, request: Request[Any, Any, Any], data: ShareIn) -> StartedShare:
    ingests = _ingests(request)
    session = host.accounts.session(token_of(request))
    shared_by = session.user if session is not None else "guest"
    target = ShareTarget(data.target, data.id.strip(), data.byName)
    share, ingest = await ingests.open(target, shared_by, guest=False)
    return StartedShare(
        **_fields(share), ingest=INGEST_PATH.replace("{shareId:str}", share.id), token=ingest.token
    )


@get(
    "/shares",
    tags=TAGS,
    summary="List screen shares",
    responses=errors(),
    operation_class=Extension,
)
async def list_shares(host: Host) -> ShareList:
    return ShareList([ShareOut(**_fields(s)) for s in host.shares.all()])


@delete(
    "/shares/{shareId:str}",
    status_code=200,
    tags=TAGS,
    summary="End a screen share",
    description="Its targets go back to what they played before it; its source is deleted.",
    responses=errors(404),
    operation_class=Extension,
)
async def end_share(host: Host, shareId: str) -> Done:
    share = host.shares.get(shareId)
    await host.shares.end(share.id)
    return Done(f"share {share.source_name!r} ended")


ROUTES = [start_share, list_shares, end_share]


async def _close(socket: WebSocket[Any, Any, Any], code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await socket.close(code, reason[:120])


async def _take(socket: WebSocket[Any, Any, Any], ingest: Ingest) -> None:
    """Read the sharer's messages into ``ingest`` until the connection goes."""
    host: Host = socket.app.state.host
    while True:
        event: Any = await socket.receive()
        if event["type"] == "websocket.disconnect":
            return
        data: bytes | None = event.get("bytes")
        text: str | None = event.get("text")
        if data is not None:
            if ingest.frame(data):
                await host.shares.show(ingest.share_id)
        elif text is not None:
            ingest.text(text)


async def _ask_keys(socket: WebSocket[Any, Any, Any], wanted: asyncio.Event) -> None:
    """Ask the sharer for a key frame each time one is ``wanted``."""
    while True:
        await wanted.wait()
        wanted.clear()
        await socket.send_text('{"type":"key"}')


def share_websocket() -> WebsocketRouteHandler:
    """The route a sharer's browser sends its frames to; the token of the share's start
    is its right (so the page need not hold a session: a guest has none)."""

    @websocket(INGEST_PATH, name="share-ingest", opt={"exclude_from_auth": True})
    async def share_ingest(socket: WebSocket[Any, Any, Any], shareId: str) -> None:
        await socket.accept()
        ingests: ShareIngests | None = socket.app.state.get("shares")
        token = socket.query_params.get("token", "")
        ingest = None if ingests is None else ingests.take(shareId, token)
        if ingests is None or ingest is None:
            await _close(socket, CLOSE_UNKNOWN, "no such share waits for its sharer here")
            return
        ended = asyncio.Event()
        keys = asyncio.Event()
        ingest.ask_key = keys.set
        ingest.let_go = ended.set
        taking = asyncio.create_task(_take(socket, ingest))
        tasks: set[asyncio.Task[Any]] = {taking, asyncio.create_task(_ask_keys(socket, keys))}
        waiting = asyncio.create_task(ended.wait())
        tasks.add(waiting)
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            if taking in done and isinstance(taking.exception(), Refused):
                await _close(socket, CLOSE_REFUSED, str(taking.exception()))
            elif waiting in done:
                await _close(socket, CLOSE_ENDED, "the share was ended")
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
                    await task
            if ingests.ingests.get(shareId) is ingest:
                ingests.end_soon(shareId)

    return share_ingest
