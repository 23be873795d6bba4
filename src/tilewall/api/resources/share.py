"""Screen shares over HTTP (a tilewall extension, docs/share.md): start a share to a
display, zone, mirror group or wall, list and end shares; and the WebSocket
``/share/ingest/{shareId}`` the sharer's browser sends its encoded frames to."""

import asyncio
import logging
from typing import Annotated, Any

import msgspec
from litestar import Request, WebSocket, delete, get, post, websocket
from litestar.exceptions import NotAuthorizedException
from litestar.handlers import WebsocketRouteHandler

from tilewall.api import frame_sockets
from tilewall.api.auth import token_of
from tilewall.api.common import Done, extension
from tilewall.host.errors import Invalid, NotFound, Unavailable
from tilewall.host.host import Host
from tilewall.host.playback.shares import TARGET_KINDS, Share, ShareTarget, TargetKind
from tilewall.host.schedule.occurrences import iso_instant
from tilewall.live.share import ShareIngests

log = logging.getLogger(__name__)

TAGS = ["Screen shares"]
INGEST_PATH = "/share/ingest/{shareId:str}"
#: close codes: no such share or a wrong token; the share was ended by someone else (what
#: was sent cannot be relayed: ``frame_sockets.CLOSE_REFUSED``)
CLOSE_UNKNOWN = 4404
CLOSE_ENDED = 4000


class ShareIn(msgspec.Struct, forbid_unknown_fields=True):
    target: Annotated[
        TargetKind | None,
        msgspec.Meta(
            description=f"What to share to: one of {', '.join(TARGET_KINDS)} (a guest: "
            "display, or nothing: the display showing the code)."
        ),
    ] = None
    id: Annotated[
        str,
        msgspec.Meta(
            max_length=200,
            description="The display's id, or the zone's, mirror group's or wall's id "
            "(or its name, with byName).",
        ),
    ] = ""
    byName: bool = False
    code: Annotated[
        str,
        msgspec.Meta(
            max_length=20,
            description="A guest's right to share (without a session): the code the target "
            "display shows.",
        ),
    ] = ""
    name: Annotated[
        str, msgspec.Meta(max_length=60, description="A guest's name, shown with the share.")
    ] = ""


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


@extension(
    post,
    "/shares",
    TAGS,
    "Start a screen share",
    401,
    403,
    404,
    409,
    429,
    status_code=201,
    description=(
        "Makes a 'Screen share' source, to be shown on the target as soon as its first "
        "picture comes. A logged-in user shares to any target and must name it (target "
        "and id: 400 without them); without a session, a guest gives the code a display "
        "shows (docs/share.md) and shares to that display only (400 for another target, "
        "403 for a wrong code, 429 after too many). The answer's ingest path and token "
        "are where the sharer's browser sends its encoded frames (a WebSocket); a share "
        "whose sharer does not connect within 15 s ends."
    ),
    opt={"public": True},  # a guest has a code, not a session: checked here
    security=[{}, {"session": []}],
)
async def start_share(host: Host, request: Request[Any, Any, Any], data: ShareIn) -> StartedShare:
    ingests = _ingests(request)
    session = host.accounts.session(token_of(request))
    if session is not None:
        if data.target is None or not data.id.strip():
            raise Invalid("say where to share: target and id")
        target = ShareTarget(data.target, data.id.strip(), data.byName)
        share, ingest = await ingests.open(target, session.user, guest=False)
    elif data.code.strip():
        display_id = _guest_display(data)
        address = request.client.host if request.client else "unknown"
        share, ingest = await ingests.open_as_guest(data.code, address, display_id, data.name)
    else:
        raise NotAuthorizedException("log in, or give the code the display shows")
    return StartedShare(
        **_fields(share), ingest=INGEST_PATH.replace("{shareId:str}", share.id), token=ingest.token
    )


def _guest_display(data: ShareIn) -> int | None:
    """The display a guest names (None: the one showing the code)."""
    if data.target is None and not data.id.strip():
        return None
    if data.target != "display" or data.byName:
        raise Invalid("a guest shares to a display only: the one showing the code")
    try:
        return int(data.id.strip())
    except ValueError:
        raise NotFound(f"display {data.id!r} not found") from None


@extension(get, "/shares", TAGS, "List screen shares")
async def list_shares(host: Host) -> ShareList:
    return ShareList([ShareOut(**_fields(s)) for s in host.shares.all()])


@extension(
    delete,
    "/shares/{shareId:str}",
    TAGS,
    "End a screen share",
    404,
    description="Its targets go back to what they played before it; its source is deleted.",
)
async def end_share(host: Host, shareId: str) -> Done:
    share = host.shares.get(shareId)
    await host.shares.end(share.id)
    return Done(f"share {share.source_name!r} ended")


ROUTES = [start_share, list_shares, end_share]


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
            await frame_sockets.close(
                socket, CLOSE_UNKNOWN, "no such share waits for its sharer here"
            )
            return
        ended = asyncio.Event()
        keys = asyncio.Event()
        ingest.ask_key = keys.set
        ingest.let_go = ended.set
        host: Host = socket.app.state.host

        async def frame(data: bytes) -> None:
            if ingest.frame(data):
                await host.shares.show(ingest.share_id)

        taking = asyncio.create_task(frame_sockets.take(socket, frame, ingest.text))
        waiting = asyncio.create_task(ended.wait())
        tasks = {taking, waiting, asyncio.create_task(_ask_keys(socket, keys))}
        try:
            refused = await frame_sockets.first_ends(socket, taking, tasks)
            if not refused and waiting.done():
                await frame_sockets.close(socket, CLOSE_ENDED, "the share was ended")
        finally:
            await frame_sockets.cancel(tasks)
            if ingests.ingests.get(shareId) is ingest:
                ingests.end_soon(shareId)

    return share_ingest
