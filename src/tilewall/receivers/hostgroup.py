"""Receivers of a host in a host group: every receiver is told the members' addresses
and the active one (the ``group`` message, docs/protocol.md); a standby lets receivers
go to the active member (close code 4002) instead of driving them.

While the active member is late renewing its lease (it may have stalled: frozen, its
sockets open), a standby holds a receiver's hello instead: let go, the receiver would
go back to the stalled member, or wait its backoff, and come back seconds after the
standby took over. Held, it is welcomed the moment this member takes over (or let go
once the active member renewed its lease after all)."""

import asyncio
import time

from tilewall.receivers import protocol as p
from tilewall.receivers.connections import Connections
from tilewall.receivers.ports import HostPort
from tilewall.receivers.session import CLOSE_STANDBY, Session

#: how often a held hello looks whether this member took over
HOLD_CHECK_S = 0.05


def message(port: HostPort) -> p.HostGroupMessage | None:
    """The ``group`` message of the host's host group; None for a host on its own."""
    members = port.hostgroup()
    return None if members is None else p.HostGroupMessage(members=members[0], active=members[1])


def tell(hub: Connections, session: Session) -> None:
    """Tell a receiver the members of the host's host group (if it is in one)."""
    told = message(hub.port)
    if told is not None:
        hub.send(session, told)


async def let_go(hub: Connections, session: Session) -> bool:
    """On a standby: tell the receiver where the active member is and close its
    connection; whether it was let go."""
    if hub.port.serving():
        return False
    late = hub.port.active_late()
    if late is not None:
        session.greeting_since = hub.monotonic()  # waiting, not silent
        deadline = time.monotonic() + late
        while not hub.port.serving() and hub.port.active_late() and time.monotonic() < deadline:
            if session.closed:
                return True
            await asyncio.sleep(HOLD_CHECK_S)
        session.greeting_since = None
        if hub.port.serving():
            return False
    told = message(hub.port)
    if told is not None:
        hub.send(session, told)
    await hub.close(session, CLOSE_STANDBY)
    return True


async def changed(hub: Connections) -> None:
    """The host's host group changed: tell every receiver; a standby lets them all go."""
    told = message(hub.port)
    text = p.encode(told) if told is not None else None  # one text for every receiver
    for session in hub.sessions():
        if text is not None and session.seat_id is not None:
            hub.send_text(session, text, now=True)
        if not hub.port.serving():
            await hub.close(session, CLOSE_STANDBY)
