"""Live sources over HTTP: a live source's status (an extension of the interface), and
the WebSocket ``/live/{sourceId}`` receivers take its frames from (docs/live.md)."""

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from typing import Any

import msgspec
from litestar import WebSocket, get, websocket
from litestar.exceptions import WebSocketDisconnect
from litestar.handlers import WebsocketRouteHandler

from tilewall.api.auth import require_media_access, token_of
from tilewall.api.common import extension, provide_host
from tilewall.host.access.accounts import Accounts
from tilewall.host.errors import HostError, Invalid, NotFound
from tilewall.host.host import Host
from tilewall.live import wire
from tilewall.live.feeds import LiveRelays, Standby
from tilewall.live.fmp4 import Fmp4Feeds
from tilewall.live.relay import Viewer
from tilewall.reaches.uvicorn_connection import SERVER_SEND, direct_writer

log = logging.getLogger(__name__)

TAGS = ["Sources"]
LIVE_PATH = "/live/{sourceId:str}"
#: close codes: no such live source; this host is a standby (as receivers' own 4002)
CLOSE_NOT_LIVE = 4404
CLOSE_STANDBY = 4002
#: the session the connection was opened with ended (logged out, its user changed)
CLOSE_SESSION_ENDED = 4401


class LiveStatusBody(msgspec.Struct):
    state: str = msgspec.field(name="state")
    message: str
    codec: str
    width: int
    height: int
    fps: float
    bitrate: int
    viewers: int


@extension(
    get,
    "/sources/{sourceId:str}/status",
    TAGS,
    "Read a live source's status",
    400,
    404,
    description=(
        "The relay of a live source (a stream source whose URL the host opens: rtsp, "
        "rtsps, srt, rtmp, rtmps, udp, rtp, HLS or MPEG-TS over http(s)): state is "
        "idle (nothing shows it), connecting, live, reconnecting or failed, message "
        "says why (and how many viewers play it without WebCodecs, at a higher latency); "
        "codec, width, height and fps are the input's, bitrate its bits per second, "
        "viewers the connections it is sent to. 400 for a source that is not live."
    ),
)
async def live_status(host: Host, sourceId: str) -> LiveStatusBody:
    s = host.sources.live_status(sourceId)
    return LiveStatusBody(
        s.state, s.message, s.codec, s.width, s.height, s.fps, s.bitrate, s.viewers
    )


ROUTES = [live_status]


async def _reading(socket: WebSocket[Any, Any, Any], report: Callable[[str], None]) -> None:
    """Hand the receiver's text messages (its margins) to ``report`` until it goes."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            event: Any = await socket.receive()
            if event["type"] == "websocket.disconnect":
                return
            text: str | None = event.get("text")
            if text is not None:
                report(text)


async def _until_session_ends(accounts: Accounts, token: str) -> None:
    """Return once the session ``token`` ends; never for a connection without one (a
    locked station's receiver)."""
    if not accounts.is_live(token):
        await asyncio.Event().wait()
    while accounts.is_live(token):
        await accounts.sessions_ended()


async def _refuse(socket: WebSocket[Any, Any, Any], code: int, message: str) -> None:
    with contextlib.suppress(Exception):
        await socket.send_text(wire.status("failed", message))
        await socket.close(code, message[:120])


def live_websocket() -> WebsocketRouteHandler:
    """The route receivers take a live source's frames from: a logged-in session or a
    locked station's receiver, as for media. The app's ``state.live`` holds the relays
    (set when the host is opened)."""

    @websocket(
        LIVE_PATH,
        name="live-ws",
        guards=[require_media_access],
        opt={"exclude_from_auth": True},
    )
    async def live_ws(socket: WebSocket[Any, Any, Any], sourceId: str) -> None:
        await socket.accept()
        relays: LiveRelays | None = socket.app.state.get("live")
        if relays is None:
            await _refuse(socket, CLOSE_STANDBY, "this host relays no live sources yet")
            return

        async def send(item: bytes | str) -> None:
            if isinstance(item, bytes):
                await socket.send({"type": "websocket.send", "bytes": item, "text": None})
            else:
                await socket.send({"type": "websocket.send", "bytes": None, "text": item})

        # a frame goes to each viewer as the same bytes, written straight to the
        # connection where the server allows it, not through a task a viewer
        server_send = socket.scope.get(SERVER_SEND)
        writer = direct_writer(server_send) if callable(server_send) else None
        viewer = Viewer(send, direct=writer.write_binary if writer is not None else None)
        accounts = provide_host(socket.app.state).accounts
        token = token_of(socket)
        # ?format=fmp4: the stream as fragmented MP4 (tilewall.live.fmp4), for receivers
        # without WebCodecs
        mp4: Fmp4Feeds | None = socket.app.state.get("live_fmp4")
        fmp4 = socket.query_params.get("format") == "fmp4" and mp4 is not None
        try:
            viewing = mp4.viewing if fmp4 and mp4 else relays.viewing
            async with viewing(sourceId, viewer) as relay:
                sending = asyncio.create_task(viewer.run(relay.counts))
                report = functools.partial(relay.report, viewer)
                closing = asyncio.create_task(_reading(socket, report))
                ending = asyncio.create_task(_until_session_ends(accounts, token))
                done, pending = await asyncio.wait(
                    {sending, closing, ending}, return_when=asyncio.FIRST_COMPLETED
                )
                for task in pending:
                    task.cancel()
                for task in pending:
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
                for task in done:
                    if not task.cancelled():
                        task.exception()  # a send to a connection gone: nothing to say
                if ending in done and closing not in done:
                    with contextlib.suppress(Exception):
                        await socket.close(CLOSE_SESSION_ENDED, "the session ended")
                elif sending in done and closing not in done:
                    # the source stopped being live, or this host stopped serving
                    code = CLOSE_NOT_LIVE if relays.serving() else CLOSE_STANDBY
                    with contextlib.suppress(Exception):
                        await socket.close(code)
        except Standby as standby:
            await _refuse(socket, CLOSE_STANDBY, str(standby))
        except (NotFound, Invalid) as error:
            await _refuse(socket, CLOSE_NOT_LIVE, str(error))
        except HostError as error:
            await _refuse(socket, CLOSE_NOT_LIVE, str(error))

    return live_ws
