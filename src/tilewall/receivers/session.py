"""One receiver connection as the hub keeps it: the queue of texts to send and the task
that writes them, the token bucket its messages pass, and what the receiver said."""

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from tilewall.receivers import protocol as p
from tilewall.receivers.ports import Link

log = logging.getLogger("tilewall.receivers.hub")

CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008
CLOSE_REPLACED = 4000
CLOSE_OFFLINE = 4001
#: the host is a standby of its group: connect to the active member
CLOSE_STANDBY = 4002


@dataclass(frozen=True)
class Limits:
    ping_interval_s: float = 1.0
    #: a receiver silent this long (no pong, no message) is closed and marked offline
    offline_after_s: float = 4.0
    max_frame_bytes: int = p.MAX_FRAME_BYTES
    #: agents send device lists
    max_agent_frame_bytes: int = 1024 * 1024
    #: how long a command to an agent (a serial write) may take to be answered
    agent_command_s: float = 15.0
    #: sustained messages per second per connection, and the burst allowed above it
    rate_per_s: float = 40.0
    burst: float = 80.0
    #: dropped flood messages after which the connection is closed
    flood_close_after: int = 2000
    #: messages queued for one receiver before it counts as not reading. Above the burst:
    #: the replies to a permitted burst are queued before the writer gets to run.
    outbox: int = 256


@dataclass(eq=False)
class Session:
    link: Link
    ip: str
    opened: float
    last_rx: float
    tokens: float
    refilled: float
    seat_id: str | None = None
    #: "page" or "agent", as it said in its hello
    role: str = "page"
    #: showed no valid key for a station bound to another device: given nothing
    impostor: bool = False
    #: in-process (a virtual receiver): admitted without a station key
    trusted: bool = False
    closed: bool = False
    #: a close is under way; nothing more is read from or sent to the peer
    closing: bool = False
    flooding: bool = False
    #: the close code a pending close (``closing``) was asked for
    close_code: int = CLOSE_NORMAL
    drops: int = 0
    flood_drops: int = 0
    acked_rev: int = 0
    status: p.Status | None = None
    status_at: float = 0.0
    ping_id: int = 0
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(64))
    writer: asyncio.Task[None] | None = None

    @classmethod
    def open(cls, link: Link, ip: str, now: float, limits: Limits) -> "Session":
        """A new connection with a full bucket; its writer is not started yet."""
        return cls(
            link=link,
            ip=ip,
            opened=now,
            last_rx=now,
            tokens=limits.burst,
            refilled=now,
            outbox=asyncio.Queue(max(limits.outbox, int(limits.burst) + 64)),
        )

    @property
    def who(self) -> str:
        """The connection in log lines: ``seat@ip``, ``seat/agent@ip`` for an agent."""
        role = "/agent" if self.role == "agent" else ""
        return f"{self.seat_id or '?'}{role}@{self.ip}"

    def take_token(self, now: float, limits: Limits) -> bool:
        """Whether one more message fits the connection's rate (a token bucket)."""
        refill = max(now - self.refilled, 0.0) * limits.rate_per_s
        self.refilled = now
        self.tokens = min(limits.burst, self.tokens + refill)
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def admit(self, now: float, limits: Limits) -> tuple[bool, bool]:
        """Whether a frame is within the connection's rate, and whether the flood has
        gone on so long that the connection must be closed."""
        if self.take_token(now, limits):
            self.flooding = False
            return True, False
        self.flood_drops += 1
        if not self.flooding:
            self.flooding = True
            log.warning("receiver %s: flooding; dropping messages", self.who)
        if self.flood_drops >= limits.flood_close_after:
            log.warning("receiver %s: flood went on; closing", self.who)
            return False, True
        return False, False

    def drop(self, reason: str) -> None:
        """A frame dropped: logged, but not all of a long stream of them."""
        self.drops += 1
        if self.drops <= 20 or self.drops % 1000 == 0:
            log.warning("receiver %s: dropped %s", self.who, reason)

    # --- sending ------------------------------------------------------------------------

    def queue(self, text: str) -> bool:
        """Queue ``text`` for the writer; False if the receiver is not reading."""
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            return False
        return True

    def start_writer(self, broken: Callable[["Session", Exception], None]) -> None:
        """Send queued texts in order; a failed send calls ``broken`` and ends the writer."""
        self.writer = asyncio.create_task(self._write(broken))

    async def drain(self, timeout_s: float) -> None:
        """Let the writer send what is queued (at most ``timeout_s``), then end it."""
        writer = self.writer
        if writer is None or writer.done() or not self.queue_end():
            return
        with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
            async with asyncio.timeout(timeout_s):
                await asyncio.shield(writer)

    def queue_end(self) -> bool:
        try:
            self.outbox.put_nowait(None)
        except asyncio.QueueFull:
            return False
        return True

    async def stop_writer(self) -> None:
        writer = self.writer
        if writer is not None and writer is not asyncio.current_task():
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    async def _write(self, broken: Callable[["Session", Exception], None]) -> None:
        while True:
            text = await self.outbox.get()
            if text is None:
                return
            try:
                await self.link.send_text(text)
            except Exception as error:
                broken(self, error)
                return
