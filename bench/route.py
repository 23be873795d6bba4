"""Where a simulated receiver connects next, chosen as the receiver page (receiver.js) chooses."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

#: the receiver page's reconnection (receiver.js): backoff from 1 s doubling to 10 s,
#: ±20 % jitter, after each full round of the candidates; 250 ms between candidates of
#: a round; a connection not open within 3 s counts as failed; after a standby's close
#: 4002 the active member at once (50 ms)
BACKOFF_MIN_S = 1.0
BACKOFF_MAX_S = 10.0
BETWEEN_CANDIDATES_S = 0.25
OPEN_TIMEOUT_S = 3.0
CLOSE_STANDBY = 4002
AFTER_STANDBY_S = 0.05
#: a host that said nothing for this long (at least; 4 pings) is silent: the page drops
#: the connection at its next check (every second) and tries that host last for a while
SILENT_AFTER_S = 5.0
SILENT_CHECK_S = 1.0
SILENT_AVOID_S = 15.0


@dataclass
class Route:
    """Where one receiver connects next, chosen as the receiver page chooses (receiver.js:
    ``candidates``, ``nextHost``, ``scheduleReconnect``)."""

    origin: str
    members: list[str] = field(default_factory=list)
    active: str | None = None
    at: str = ""
    tried: int = 0
    backoff_s: float = BACKOFF_MIN_S
    #: the host that went silent, tried last until ``silent_until`` (monotonic s)
    silent: str | None = None
    silent_until: float = 0.0
    #: the connection was dropped for its host's silence: the next host at once
    left_silent: bool = False

    def candidates(self) -> list[str]:
        seen: list[str] = []
        for address in (self.active, *self.members, self.origin):
            if isinstance(address, str) and address.startswith("http") and address not in seen:
                seen.append(address)
        others = [a for a in seen if a != self.silent]
        if self.avoiding() and others:
            return others + [a for a in seen if a == self.silent]
        return seen

    def avoiding(self) -> bool:
        return self.silent is not None and time.monotonic() < self.silent_until

    def went_silent(self) -> None:
        """The host connected to said nothing for too long: try it last for a while."""
        self.silent = self.at
        self.silent_until = time.monotonic() + SILENT_AVOID_S
        self.tried = 0
        self.left_silent = True

    def next_host(self) -> str:
        options = self.candidates()
        self.at = options[self.tried % len(options)]
        self.tried += 1
        return self.at

    def welcomed(self) -> None:
        self.tried = 0
        self.backoff_s = BACKOFF_MIN_S

    def group(self, message: dict[str, Any]) -> None:
        members = message.get("members")
        self.members = (
            [m for m in members if isinstance(m, str)] if isinstance(members, list) else []
        )
        active = message.get("active")
        self.active = active if isinstance(active, str) else None

    def delay_after(self, close_code: int | None) -> float:
        """Seconds to wait before the next attempt, after a close with ``close_code``."""
        if self.left_silent:
            self.left_silent = False
            if len(self.candidates()) > 1:
                return AFTER_STANDBY_S
        avoided = self.active == self.silent and self.avoiding()
        if close_code == CLOSE_STANDBY and self.active and self.active != self.at and not avoided:
            self.tried = 0
            return AFTER_STANDBY_S
        if self.tried % len(self.candidates()) == 0:
            delay = self.backoff_s * (0.8 + random.random() * 0.4)
            self.backoff_s = min(self.backoff_s * 2, BACKOFF_MAX_S)
            return delay
        return BETWEEN_CANDIDATES_S
