"""A receiver's WebSocket connection that times each message by when its bytes arrived."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.frames import Frame, Opcode


class Deferred:
    """The parsing of every receiver's bytes, held while bytes keep arriving.

    A thousand receivers share this one process: parsed as they come, the bytes of one
    socket would wait, unread and untimed, behind the parsing (and the answers) of the
    sockets read before it, where real receivers, each a device of its own, parse in
    parallel. So the connections only note when their bytes arrived, and the parsing
    runs once the sockets have been quiet for ``QUIET_S`` (or ``HOLD_S`` after the first
    bytes held, so that a steady trickle cannot hold it for ever), in arrival order."""

    QUIET_S = 0.002
    HOLD_S = 0.1

    def __init__(self) -> None:
        self.held: list[Callable[[], None]] = []
        self._first = 0.0
        self._last = 0.0
        self._timer: asyncio.TimerHandle | None = None

    def hold(self, work: Callable[[], None]) -> None:
        now = time.monotonic()
        if not self.held:
            self._first = now
        self._last = now
        self.held.append(work)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.QUIET_S, self._check)

    def _check(self) -> None:
        now = time.monotonic()
        wait = min(self._last + self.QUIET_S, self._first + self.HOLD_S) - now
        if wait > 0:
            self._timer = asyncio.get_running_loop().call_later(wait, self._check)
            return
        self._timer = None
        held, self.held = self.held, []
        for work in held:
            work()


DEFERRED = Deferred()


class TimedConnection(ClientConnection):
    """A receiver's connection that notes when the bytes of each message arrived and
    leaves their parsing to ``DEFERRED`` (the end of the stream and the loss of the
    connection wait their turn the same way); each message read comes with the time
    its last bytes arrived (``arrived``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: when the last bytes of each message not yet read arrived (monotonic s)
        self.arrivals: list[float] = []
        self._chunk_at = 0.0

    def data_received(self, data: bytes) -> None:
        at = time.monotonic()
        DEFERRED.hold(lambda: self._parse(data, at))

    def _parse(self, data: bytes, at: float) -> None:
        self._chunk_at = at
        super().data_received(data)

    def process_event(self, event: Any) -> None:
        if isinstance(event, Frame) and event.fin and event.opcode in MESSAGE_OPCODES:
            self.arrivals.append(self._chunk_at)
        super().process_event(event)

    def eof_received(self) -> None:
        DEFERRED.hold(super().eof_received)

    def connection_lost(self, exc: Exception | None) -> None:
        DEFERRED.hold(lambda: super(TimedConnection, self).connection_lost(exc))

    def arrived(self) -> float:
        """When the message just read arrived."""
        return self.arrivals.pop(0) if self.arrivals else time.monotonic()


MESSAGE_OPCODES = (Opcode.TEXT, Opcode.BINARY, Opcode.CONT)


async def open_receiver(url: str, timeout_s: float) -> TimedConnection:
    """A receiver's connection, timed as it reads."""
    ws = await connect(
        url,
        ping_interval=None,
        max_size=2**20,
        open_timeout=timeout_s,
        create_connection=TimedConnection,
    )
    assert isinstance(ws, TimedConnection)
    return ws
