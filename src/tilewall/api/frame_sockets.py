"""What the WebSockets that senders push frames up (a sharer's browser, a kiosk agent's
captures) share: reading the sender's messages, ending a connection when its first task
ends, and closing it with a reason."""

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from litestar import WebSocket
from litestar.exceptions import WebSocketDisconnect

from tilewall.live.share import Refused

#: close code: the sender sent what cannot be relayed
CLOSE_REFUSED = 4400


async def close(socket: WebSocket[Any, Any, Any], code: int, reason: str) -> None:
    """Close with ``code`` and ``reason`` (cut to what a close frame holds); a connection
    already gone is left as it is."""
    with contextlib.suppress(Exception):
        await socket.close(code, reason[:120])


async def take(
    socket: WebSocket[Any, Any, Any],
    frame: Callable[[bytes], Awaitable[None]],
    text: Callable[[str], None],
) -> None:
    """Hand each binary message to ``frame`` and each text message to ``text`` until the
    sender disconnects; :class:`Refused` from either ends it."""
    while True:
        event: Any = await socket.receive()
        if event["type"] == "websocket.disconnect":
            return
        data: bytes | None = event.get("bytes")
        message: str | None = event.get("text")
        if data is not None:
            await frame(data)
        elif message is not None:
            text(message)


async def first_ends(
    socket: WebSocket[Any, Any, Any], taking: "asyncio.Task[None]", tasks: set["asyncio.Task[Any]"]
) -> bool:
    """Wait until one of ``tasks`` (``taking``, the reading, among them) ends; a reading
    refused closes the connection with the reason. Returns whether it was refused."""
    done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    if taking in done and isinstance(taking.exception(), Refused):
        await close(socket, CLOSE_REFUSED, str(taking.exception()))
        return True
    return False


async def cancel(tasks: Iterable["asyncio.Task[Any]"]) -> None:
    """Cancel a connection's tasks and wait for them; how each ended is of no interest
    once the connection is over."""
    for task in tasks:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
            await task
