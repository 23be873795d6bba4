"""The WebSocket a kiosk agent sends its capture devices' frames to
(``/live/agent/<seatId>``; the protocol: ``tilewall.live.agentcapture``). The agent's
station key, as the ``tilewall_key_<seatId>`` cookie, is its right: only the agent of a
locked station, for that station."""

import asyncio
from typing import Any

from litestar import WebSocket, websocket
from litestar.handlers import WebsocketRouteHandler

from tilewall.api import frame_sockets
from tilewall.api.auth import STATION_KEY_COOKIE_PREFIX
from tilewall.api.common import provide_host
from tilewall.host.topology.keys import held_by_a_locked_station
from tilewall.live.agentcapture import AgentCaptures

CAPTURE_PATH = "/live/agent/{seatId:str}"
#: close code: not this station's agent, or no captures here (a message it may not
#: send: ``frame_sockets.CLOSE_REFUSED``)
CLOSE_FORBIDDEN = 4403


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
            await frame_sockets.close(
                socket, CLOSE_FORBIDDEN, "only the agent of this locked station"
            )
            return
        outgoing: asyncio.Queue[str] = asyncio.Queue()
        link = captures.connected(seatId, outgoing.put_nowait)

        async def frame(data: bytes) -> None:
            captures.frame(link, data)

        taking = asyncio.create_task(
            frame_sockets.take(socket, frame, lambda text: captures.text(link, text))
        )
        tasks = {taking, asyncio.create_task(_send(socket, outgoing))}
        try:
            await frame_sockets.first_ends(socket, taking, tasks)
        finally:
            captures.gone(link)
            await frame_sockets.cancel(tasks)

    return agent_capture
