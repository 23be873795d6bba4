"""The WebSocket route receivers connect to, for the app to mount.

The receiver page itself is static: serve ``RECEIVER_PAGE_DIR`` at ``/receiver/`` (with
``index.html`` for the directory) and the media library at ``/media/`` with range
requests; the page loads its modules from ``/receiver/``.
"""

import contextlib
import logging
from pathlib import Path
from typing import Any

from litestar import WebSocket, websocket
from litestar.exceptions import WebSocketDisconnect
from litestar.handlers import WebsocketRouteHandler

from tilewall.receivers.hub import Hub

log = logging.getLogger(__name__)

RECEIVER_PATH = "/receiver/ws"
RECEIVER_PAGE_DIR = Path(__file__).resolve().parent.parent / "web" / "receiver"


class SocketLink:
    """A ``Link`` over a Litestar WebSocket."""

    def __init__(self, socket: WebSocket[Any, Any, Any]) -> None:
        self.socket = socket

    async def send_text(self, text: str) -> None:
        await self.socket.send_text(text)

    async def close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.socket.close(code)


def receiver_websocket(hub: Hub, path: str = RECEIVER_PATH) -> WebsocketRouteHandler:
    """A route handler for receivers' WebSocket connections, served by ``hub``."""

    @websocket(path, name="receiver-ws", opt={"exclude_from_auth": True})
    async def receiver_ws(socket: WebSocket[Any, Any, Any]) -> None:
        await socket.accept()
        ip = socket.client.host if socket.client else ""
        session = hub.open(SocketLink(socket), ip)
        try:
            while not (session.closed or session.closing):
                event = await socket.receive()
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

    return receiver_ws
