"""What the hub does with a ``hello``: tell the host what the connection said (a page's
screen, an agent's means), refuse an impostor (the pairing screen and nothing else), and
log a seat whose connection is replaced once while it flaps, not at every flap."""

import logging
from collections.abc import Callable, Iterable

from tilewall.host.model import Resolution
from tilewall.host.render.description import HostInfo, Pairing, RenderState
from tilewall.host.topology.agents import AgentHello
from tilewall.receivers import protocol as p
from tilewall.receivers.ports import HostPort, StationPort
from tilewall.receivers.session import Session

log = logging.getLogger(__name__)

#: a seat whose connection is not replaced for this long is logged afresh
QUIET_S = 60.0


async def record(port: HostPort, stations: StationPort, ip: str, hello: p.Hello) -> None:
    """Tell the host what the connection said: the page's screen, the agent's means."""
    if hello.role == "agent":
        await stations.agent_hello(
            AgentHello(
                hello.seat_id,
                ip,
                hello.model,
                hello.firmware,
                hello.name,
                hello.power,
                hello.serial_port,
                hello.browser,
            )
        )
        return
    assert hello.screen is not None
    await port.station_hello(
        hello.seat_id,
        ip,
        hello.model,
        hello.firmware,
        Resolution(hello.screen.width, hello.screen.height),
        [Resolution(r.width, r.height) for r in hello.resolutions],
        hello.name,
    )


REFUSED = "this station is locked to another device"


def refuse(session: Session, hello: p.Hello, host: HostInfo, stations: StationPort) -> RenderState:
    """A connection without the key of a station bound to another device: it stays
    connected, is logged and shown to the host (once), sees the pairing screen, and
    takes nothing over until the host gives it the station (``adopt``)."""
    seat = hello.seat_id
    first = not session.impostor
    session.seat_id, session.impostor, session.refused_hello = seat, True, hello
    if first:
        log.warning(
            "receiver %s: refused, station %s is locked to another device "
            "(no valid station key); it takes nothing over",
            session.who,
            seat,
        )
        stations.refused(seat, session.ip, hello.role, id(session))
    pairing = Pairing(host.name, host.address, seat, seat, session.ip)
    return RenderState(role="pairing", host_name=host.name, pairing=pairing)


def newest_refused(sessions: Iterable[Session], seat: str) -> list[Session]:
    """The newest refused connection of each kind (page, agent) asking for ``seat``."""
    newest: dict[str, Session] = {}
    for session in sessions:
        if session.impostor and session.seat_id == seat and not session.closed:
            held = newest.get(session.role)
            if held is None or session.opened > held.opened:
                newest[session.role] = session
    return [newest[role] for role in sorted(newest)]


def forgive(session: Session, stations: StationPort) -> p.Hello | None:
    """The connection is refused no more; returns the hello it was refused with."""
    hello, session.refused_hello = session.refused_hello, None
    if session.impostor and session.seat_id is not None:
        stations.refusal_ended(session.seat_id, id(session))
    session.impostor = False
    return hello


class Replacements:
    def __init__(self, monotonic: Callable[[], float]) -> None:
        self._monotonic = monotonic
        self._last: dict[str, float] = {}

    def note(self, session: Session, seat: str) -> None:
        now = self._monotonic()
        last = self._last.get(seat)
        self._last[seat] = now
        if last is None or now - last > QUIET_S:
            role = "/agent" if session.role == "agent" else ""
            log.info(
                "receiver %s%s@%s connected again; its older connection is replaced "
                "(logged once while it goes on)",
                seat,
                role,
                session.ip,
            )
