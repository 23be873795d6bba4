"""One receiver connection as the hub keeps it: what it is sent (``outbox``), the token
bucket its messages pass, and what the receiver said. A thousand of them are connected
at once, so a session is small: slots, and no task or queue of its own while nothing
waits to be written."""

import logging
from collections.abc import Callable
from dataclasses import dataclass

from tilewall.receivers import protocol as p
from tilewall.receivers.outbox import Outbox
from tilewall.receivers.ports import Link

log = logging.getLogger(__name__)

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
    #: messages waiting for one receiver (behind a write its socket did not take at once)
    #: before it counts as not reading. Above the burst: the replies to a permitted burst
    #: may all be waiting.
    outbox: int = 256
    #: a connection whose hello the host is still recording (behind other changes) is
    #: not counted silent for up to this long
    greeting_s: float = 60.0


@dataclass(eq=False, slots=True)
class Session:
    link: Link
    ip: str
    opened: float
    last_rx: float
    tokens: float
    refilled: float
    outbox: Outbox
    seat_id: str | None = None
    #: "page" or "agent", as it said in its hello
    role: str = "page"
    #: showed no valid key for a station bound to another device: given nothing
    impostor: bool = False
    #: the hello it was refused with, to greet it again if the host gives it the station
    refused_hello: p.Hello | None = None
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
    #: told ``content`` messages (it said so in its hello), else whole ``state``s
    shares: bool = False
    #: says when it has kept a station key (``keyStored``)
    confirms_keys: bool = False
    #: when its hello began to be recorded (None: not now)
    greeting_since: float | None = None

    @classmethod
    def open(cls, link: Link, ip: str, now: float, limits: Limits) -> "Session":
        """A new connection with a full bucket."""
        return cls(
            link=link,
            ip=ip,
            opened=now,
            last_rx=now,
            tokens=limits.burst,
            refilled=now,
            outbox=Outbox(link.send_text, max(limits.outbox, int(limits.burst) + 64)),
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

    def queue(self, text: str, now: bool = False) -> bool:
        """Send ``text`` after what waits (``now``: at once if nothing does); False if
        the receiver is not reading."""
        return self.outbox.put(text, now)

    def start_writer(self, broken: Callable[["Session", Exception], None]) -> None:
        """A failed send calls ``broken``; nothing more is sent after it."""
        self.outbox.on_broken(lambda error: broken(self, error))

    async def drain(self, timeout_s: float) -> None:
        """Let what waits be sent (at most ``timeout_s``)."""
        await self.outbox.drain(timeout_s)

    async def stop_writer(self) -> None:
        await self.outbox.stop()
