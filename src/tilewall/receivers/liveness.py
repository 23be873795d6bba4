"""Liveness: every receiver that said hello is pinged each interval, and a connection
silent for too long is closed and its seat goes offline.

The pings of one round have one id, so they are one text written to every receiver (the
hub does not check a pong's id: any message from a receiver shows it is alive). A
connection whose hello the host is still recording is not silent: the host's changes
are one at a time, and a thousand receivers connecting at once wait their turn."""

import asyncio
import logging
from typing import TYPE_CHECKING

from tilewall.receivers import protocol as p
from tilewall.receivers.session import CLOSE_OFFLINE, Session

if TYPE_CHECKING:
    from tilewall.receivers.hub import Hub

log = logging.getLogger("tilewall.receivers.hub")


async def watch(hub: "Hub") -> None:
    """Ping and close the silent, every ``ping_interval_s``, until cancelled."""
    limits = hub.limits
    rounds = 0
    while True:
        await asyncio.sleep(limits.ping_interval_s)
        rounds += 1
        now = hub.monotonic()
        ping = p.encode(p.Ping(id=rounds))
        for session in hub.sessions():
            if greeting(session, now, limits.greeting_s):
                continue
            if now - session.last_rx > limits.offline_after_s:
                log.info("receiver %s stopped answering; offline", session.who)
                await hub.close(session, CLOSE_OFFLINE)
            elif session.seat_id is not None:
                hub.send_text(session, ping, now=True)


def greeting(session: Session, now: float, grace_s: float) -> bool:
    """Whether the connection's hello is still being recorded (not for too long)."""
    since = session.greeting_since
    return since is not None and now - since < grace_s
