"""The WebSocket a kiosk agent sends its capture devices' frames to
(``/live/agent/<seatId>``; the protocol: ``tilewall.live.agentcapture``). The agent's
station key, as the ``tilewall_key_<seatId>`` cookie, is its right: only the agent of a
locked station, for that station."""

import asyncio
import contextlib
from typing import Any

from litestar import WebSocket, websocket
from litestar.exceptions import WebSocketDisconnect
from litestar.handlers import WebsocketRouteHandler

from tilewall.api.auth import STATION_KEY_COOKIE_PREFIX
from tilewall.api.common import provide_host
from tilewall.host.topology.keys import held_by_a_locked_station
from tilewall.live.agentcapture import AgentCaptures, Link
from tilewall.live.share import Refused

CAPTURE_PATH = "/live/agent/{seatId:str}"
#: close codes: not this station's agent, or no captures here; a message it may not send
CLOSE_FORBIDDEN = 4403
CLOSE_REFUSED = 4400


async def _close(socket: WebSocket[Any, Any, Any], code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await socket.close(code, reason[:120])


async def _take(socket: WebSocket[Any, Any, Any], captures: AgentCaptures, link: Link) -> None:
    while True:
        event: Any = await socket.receive()
        if event["type"] == "websocket.disconnect":
            return
        data: bytes | None = event.get("bytes")
        text: str | None = event.get("text")
        if data is not None:
            captures.frame(link, data)
        elif text is not None:
            captures.text(link, text)


async def _send(socket: WebSocket[Any, Any, Any], queue: "asyncio.Queue[str]") -> None:
    while True:
        await socket.send_text(await queue.get())


def capture_websocket() -> WebsocketRouteHandler:
    """The route of kiosk agents' captures (app.state.agent_captures)."""

    @websocket(CAPTURE_PATH, name="agent-capture", opt={"exclude_from_auth": True})
    async def agent_capture(socket: WebSocket[Any, Any, Any], seatId: str) -> None:
        await socket.accept()
        captures: AgentCaptures | None = socket.app.state.get("agent_captures")
        host = provide_host(socket.app.state)
        station = host.state.stations.get(seatId)
        key = socket.cookies.get(f"{STATION_KEY_COOKIE_PREFIX}{seatId}", "")
        if captures is None or station is None or not held_by_a_locked_station([station], key):
            await _close(socket, CLOSE_FORBIDDEN, "only the agent of this locked station")
            return
        outgoing: asyncio.Queue[str] = asyncio.Queue()
        link = captures.connected(seatId, outgoing.put_nowait)
        taking = asyncio.create_task(_take(socket, captures, link))
        sending = asyncio.create_task(_send(socket, outgoing))
        try:
            done, _ = await asyncio.wait({taking, sending}, return_when=asyncio.FIRST_COMPLETED)
            if taking in done and isinstance(taking.exception(), Refused):
                await _close(socket, CLOSE_REFUSED, str(taking.exception()))
        finally:
            captures.gone(link)
            for task in (taking, sending):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
                    await task

    return agent_capture
