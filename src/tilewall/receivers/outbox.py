"""Writing texts to one connection in order; the fan-out's at once.

A WebSocket send over ASGI is a coroutine that, while the socket takes what it is given,
never suspends: it frames the text and writes it to the transport. So a text of a push
is written by running the link's send right away, in the caller (a push to a thousand
receivers is a thousand socket writes, no task and no queue each). Only a send that
does suspend (the socket's buffer is full: the receiver reads slowly) is finished by a
task, and the texts sent meanwhile wait behind it, up to a limit past which the
receiver counts as not reading. That is what ``asyncio``'s eager tasks do (Python
3.12); this runs on 3.11 too.

Replies to what a receiver sends (``put(text, now=False)``) are written by a task, as
they always were: while a connection's frames are being read one after another its
replies wait, and a receiver flooding the host is closed before it is answered at length.
"""

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

Broken = Callable[[Exception], None]


class Outbox:
    __slots__ = ("_backlog", "_broken", "_limit", "_send", "writer")

    def __init__(self, send: Callable[[str], Awaitable[None]], limit: int) -> None:
        self._send = send
        self._limit = limit
        self._broken: Broken | None = None
        #: texts waiting behind a send that suspended (None: nothing is waiting)
        self._backlog: deque[str] | None = None
        #: the task finishing a send that suspended, and the backlog after it
        self.writer: asyncio.Task[None] | None = None

    def on_broken(self, broken: Broken) -> None:
        """Call ``broken`` with the error when a send fails (nothing more is sent)."""
        self._broken = broken

    @property
    def waiting(self) -> int:
        return len(self._backlog) if self._backlog is not None else 0

    def put(self, text: str, now: bool = True) -> bool:
        """Write ``text`` now (``now``: at once if nothing waits, else by a task), after
        the texts waiting; False if too many are waiting (the receiver is not reading)."""
        if self._backlog is not None:
            if len(self._backlog) >= self._limit:
                return False
            self._backlog.append(text)
            return True
        loop = asyncio.get_running_loop()
        if not now:
            self._backlog = deque((text,))
            self.writer = loop.create_task(self._finish(None, None))
            return True
        send = self._send(text)
        if not isinstance(send, Coroutine):
            send = _awaiting(send)
        try:
            waiting_on = send.send(None)
        except StopIteration:
            return True  # written
        except Exception as error:
            self._fail(error)
            return True
        self._backlog = deque()
        self.writer = loop.create_task(self._finish(send, waiting_on))
        return True

    async def drain(self, timeout_s: float) -> None:
        """Let what is waiting be written (at most ``timeout_s``)."""
        writer = self.writer
        if writer is None or writer.done():
            return
        with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
            async with asyncio.timeout(timeout_s):
                await asyncio.shield(writer)

    async def stop(self) -> None:
        """Stop writing: what is waiting is dropped."""
        writer = self.writer
        self._backlog = deque()  # nothing more is taken
        if writer is not None and writer is not asyncio.current_task():
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    async def _finish(self, send: Coroutine[Any, Any, None] | None, waiting_on: Any) -> None:
        try:
            if send is not None:
                await finish(send, waiting_on)
            while self._backlog:
                await self._send(self._backlog.popleft())
        except Exception as error:
            self._fail(error)
            return
        self._backlog = None
        self.writer = None

    def _fail(self, error: Exception) -> None:
        self._backlog = deque()  # a broken connection takes nothing more
        if self._broken is not None:
            self._broken(error)


async def finish(coroutine: Coroutine[Any, Any, None], waiting_on: Any) -> None:
    """Run to its end a coroutine started by hand (``coroutine.send(None)``) that
    suspended on ``waiting_on``: what it yielded, an asyncio future (or None, a bare
    yield). Its errors are raised here; cancelling this cancels it."""
    while True:
        try:
            if waiting_on is None:
                await asyncio.sleep(0)
            else:
                waiting_on._asyncio_future_blocking = False
                await asyncio.wait((waiting_on,))
        except asyncio.CancelledError as cancelled:
            try:
                waiting_on = coroutine.throw(cancelled)
            except StopIteration:
                return
            continue
        try:
            waiting_on = coroutine.send(None)
        except StopIteration:
            return


async def _awaiting(awaitable: Awaitable[None]) -> None:
    await awaitable
