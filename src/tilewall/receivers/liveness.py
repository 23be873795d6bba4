"""Liveness: every receiver that said hello is pinged each interval, and a connection
silent for too long is closed and its seat goes offline.

The pings of one round have one id, so they are one text written to every receiver (the
hub does not check a pong's id: any message from a receiver shows it is alive). A
connection whose hello the host is still recording is not silent: the host's changes
are one at a time, and a thousand receivers connecting at once wait their turn.

A round is spread over its interval, ``SLICE`` receivers at a time: a thousand pings
written at once, and the thousand pongs that come back at once, would hold the event
loop for tens of milliseconds, and a push of a change (or an answer) would wait behind
them."""

import asyncio
import logging
import math

from tilewall.receivers import protocol as p
from tilewall.receivers.connections import Connections
from tilewall.receivers.session import CLOSE_OFFLINE, Session

log = logging.getLogger(__name__)

#: receivers pinged at a time
SLICE = 50


async def watch(hub: Connections) -> None:
    """Ping and close the silent, every ``ping_interval_s``, until cancelled."""
    limits = hub.limits
    rounds = 0
    while True:
        rounds += 1
        ping = p.encode(p.Ping(id=rounds))
        sessions = hub.sessions()
        slices = max(1, math.ceil(len(sessions) / SLICE))
        for start in range(0, slices * SLICE, SLICE):
            await asyncio.sleep(limits.ping_interval_s / slices)
            now = hub.monotonic()
            for session in sessions[start : start + SLICE]:
                if session.closed or session.closing or greeting(session, now, limits.greeting_s):
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
