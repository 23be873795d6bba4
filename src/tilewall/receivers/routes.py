"""The WebSocket route receivers connect to, for the app to mount.

The receiver page itself is static: serve ``RECEIVER_PAGE_DIR`` at ``/receiver/`` (with
``index.html`` for the directory) and the media library at ``/media/`` with range
requests; the page loads its modules from ``/receiver/``.

Two ways to serve the same connection: a Litestar route (``receiver_websocket``), and,
in front of the whole app, the ASGI server's own connection (``receivers_first``): a
thousand receivers each keep a connection open for as long as they run, and through
the app each would hold its stack of middleware and framework objects, and each text
written to it would pass them. ``tilewall serve`` puts ``receivers_first`` in front.
"""

import contextlib
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from litestar import WebSocket, websocket
from litestar.exceptions import WebSocketDisconnect
from litestar.handlers import WebsocketRouteHandler
from litestar.types import WebSocketSendEvent

from tilewall.reaches.uvicorn_connection import direct_writer, release_handshake
from tilewall.receivers.hub import Hub

log = logging.getLogger(__name__)

RECEIVER_PATH = "/receiver/ws"
RECEIVER_PAGE_DIR = Path(__file__).resolve().parent.parent / "web" / "receiver"

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Message, Receive, Send], Awaitable[None]]


class SocketLink:
    """A ``Link`` over a Litestar WebSocket."""

    __slots__ = ("socket",)

    def __init__(self, socket: WebSocket[Any, Any, Any]) -> None:
        self.socket = socket

    async def send_text(self, text: str) -> None:
        # the ASGI event itself (``send_text`` builds the same, a layer further down)
        event: WebSocketSendEvent = {"type": "websocket.send", "bytes": None, "text": text}
        await self.socket.send(event)

    async def close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.socket.close(code)


class AsgiLink:
    """A ``Link`` over the ASGI server's ``send`` of a WebSocket connection (or, while it
    may, straight to the connection's socket: ``reaches.uvicorn_connection``)."""

    __slots__ = ("_direct", "_send")

    def __init__(self, send: Send) -> None:
        self._send = send
        self._direct = direct_writer(send)

    async def send_text(self, text: str) -> None:
        direct = self._direct
        if direct is not None and direct.write(text):
            return
        await self._send({"type": "websocket.send", "text": text})

    async def close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self._send({"type": "websocket.close", "code": code})


async def _serve(hub: Hub, link: SocketLink | AsgiLink, ip: str, receive: Receive) -> None:
    """Hand the connection's frames to the hub until either side closes it."""
    session = hub.open(link, ip)
    try:
        while not (session.closed or session.closing):
            event = await receive()
            if event["type"] == "websocket.disconnect":
                break
            if event["type"] != "websocket.receive":
                continue
            text = event.get("text")
            await hub.receive(session, text if text is not None else event.get("bytes") or b"")
    except WebSocketDisconnect:
        pass
    finally:
        await hub.close(session)


def receiver_websocket(hub: Hub, path: str = RECEIVER_PATH) -> WebsocketRouteHandler:
    """A route handler for receivers' WebSocket connections, served by ``hub``."""

    @websocket(path, name="receiver-ws", opt={"exclude_from_auth": True})
    async def receiver_ws(socket: WebSocket[Any, Any, Any]) -> None:
        await socket.accept()
        ip = socket.client.host if socket.client else ""
        await _serve(hub, SocketLink(socket), ip, socket.receive)  # type: ignore[arg-type]

    return receiver_ws


def receivers_first(app: Any, hub: Hub, path: str = RECEIVER_PATH) -> App:
    """``app`` with receivers' connections at ``path`` served by ``hub`` before it (what
    the app's own route would do, without the app's layers); all else goes to ``app``."""

    async def front(scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or scope.get("path") != path:
            await app(scope, receive, send)
            return
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        release_handshake(send, scope)
        client = scope.get("client")
        await _serve(hub, AsgiLink(send), client[0] if client else "", receive)

    return front
