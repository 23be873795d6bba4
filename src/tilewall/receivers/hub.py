"""The hub: one session per receiver connection, keyed by seat id once it said hello.

It pushes each receiver its render description when that changes (``fanout``: each
distinct description computed and encoded once, one text written to every receiver that
shows it), answers clock sync, pings for liveness (``liveness``), and drops malformed or
hostile frames with a log line (``frames``, and a flood by ``Session.admit``). It talks
to the host only through ``HostPort`` and to a connection only through ``Link``
(``receivers.ports``), so the WebSocket route and the in-process virtual receiver share
one code path.

A station has up to two connections, its page and its kiosk agent (``seats``,
``agents``), both told the render description. Who may have a locked station is the
host's to say (``StationPort.admit``, station keys): a connection refused is an
impostor, shown the pairing screen and given nothing (``greeting``).
"""

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable

from tilewall.host import audit
from tilewall.host.memory import Event
from tilewall.host.render.description import RenderState
from tilewall.receivers import frames, greeting, hostgroup, liveness
from tilewall.receivers import protocol as p
from tilewall.receivers.agents import AgentDesk
from tilewall.receivers.changes import Changes
from tilewall.receivers.fanout import Fanout
from tilewall.receivers.ports import HostPort, Link, OpenStations, StationPort
from tilewall.receivers.revisions import Revisions
from tilewall.receivers.seats import Seats
from tilewall.receivers.session import (
    CLOSE_NORMAL,
    CLOSE_POLICY,
    CLOSE_REPLACED,
    CLOSE_STANDBY,
    Limits,
    Session,
)

log = logging.getLogger(__name__)


class Hub:
    def __init__(
        self,
        port: HostPort,
        limits: Limits | None = None,
        monotonic: Callable[[], float] = time.monotonic,
        stations: StationPort | None = None,
    ) -> None:
        self.port = port
        self.limits = limits or Limits()
        self.monotonic = monotonic
        self.stations: StationPort = stations or OpenStations()
        self._sessions: set[Session] = set()
        self.agents = AgentDesk(self.stations, self.send_text, self.limits.agent_command_s)
        self._seats = Seats(self.agents.by_seat)
        self._replaced = greeting.Replacements(monotonic)
        self._revisions = Revisions()
        self._fanout = Fanout(port, self._revisions, self._seats.of_seat, self._write_now)
        #: told (seconds, receivers sent to) after each push of a change, for metrics
        self.push_observers = self._fanout.observers
        self._changes = Changes()
        self._tasks: list[asyncio.Task[None]] = []
        self._unsubscribe: Callable[[], None] | None = None

    # --- lifecycle ----------------------------------------------------------------------

    async def start(self) -> None:
        self._revisions.start(self.port.now_ms())
        self._unsubscribe = self.port.subscribe(self._on_event)
        self._tasks = [
            asyncio.create_task(self._changes.push_each(self._push), name="receiver-hub-push"),
            asyncio.create_task(liveness.watch(self), name="receiver-hub-liveness"),
        ]

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        for session in list(self._sessions):
            await self.close(session, CLOSE_NORMAL)

    # --- queries ------------------------------------------------------------------------

    def online(self, seat_id: str) -> bool:
        """Whether the seat's page or its agent is connected."""
        return self._seats.online(seat_id)

    def online_seats(self) -> set[str]:
        return self._seats.online_seats()

    def ip_of(self, seat_id: str) -> str | None:
        sessions = self._seats.of_seat(seat_id)
        return sessions[0].ip if sessions else None

    def status(self, seat_id: str) -> p.Status | None:
        """The last status the receiver reported."""
        session = self._seats.pages.get(seat_id)
        return session.status if session else None

    def acked_rev(self, seat_id: str) -> int:
        session = self._seats.pages.get(seat_id)
        return session.acked_rev if session else 0

    def rev(self, seat_id: str) -> int:
        """The revision of the last description sent to ``seat_id`` (0: none yet)."""
        return self._revisions.rev(seat_id)

    def describe(self, seat_id: str) -> RenderState:
        return self._fanout.describe(seat_id)

    # --- commands from the host -----------------------------------------------------------

    def refresh(self, display_ids: Iterable[int] | None = None) -> None:
        """Recompute and push (if changed) for these displays, or for every receiver."""
        self._changes.mark(display_ids)

    async def disconnect(self, seat_id: str) -> bool:
        """Close the connection of ``seat_id``; the receiver will reconnect by itself."""
        session = self._seats.pages.get(seat_id)
        if session is None:
            return False
        await self.close(session, CLOSE_NORMAL)
        return True

    async def hostgroup_changed(self) -> None:
        """The members of the host's host group or the active one changed."""
        await hostgroup.changed(self)

    def sessions(self) -> list[Session]:
        return list(self._sessions)

    def send(self, session: Session, message: p.HostMessage) -> None:
        self._send(session, message)

    async def reset(self, seat_ids: Iterable[str] | None = None) -> None:
        self._broadcast(p.Reset(), seat_ids)

    async def reload(self, seat_ids: Iterable[str] | None = None) -> None:
        self._broadcast(p.Reload(), seat_ids)

    def _broadcast(self, message: p.HostMessage, seat_ids: Iterable[str] | None) -> None:
        """To the pages and agents of these seats (an agent restarts its browser on a
        reset or a reload)."""
        seats = self.online_seats() if seat_ids is None else set(seat_ids)
        for seat in seats:
            for session in self._seats.of_seat(seat):
                self._send(session, message)

    def hand_key(self, seat_id: str) -> None:
        """Hand the seat's connections the key the host made (or tell them to forget it)."""
        sessions = self._seats.of_seat(seat_id)
        if not sessions:
            return  # kept for the next connection of the seat
        confirmed = any(s.confirms_keys for s in sessions)
        waiting, key = self.stations.take_key(seat_id, confirmed)
        if waiting:
            roles = [s.role for s in sessions]
            for session in sessions:
                self._send(session, p.Key(key=key, roles=roles))

    async def adopt(self, seat_id: str) -> None:
        """Take the seat's newest refused connections (a page, an agent) as the
        station's, without a reconnect: the host unlocked the station or re-paired it
        to them. The key waiting for the seat, if any, goes to them first."""
        chosen = greeting.newest_refused(self._sessions, seat_id)
        if not chosen:
            return
        waiting, key = self.stations.take_key(seat_id, any(s.confirms_keys for s in chosen))
        roles = [s.role for s in chosen]
        for session in chosen:
            hello = greeting.forgive(session, self.stations)
            if hello is None:
                continue
            if waiting:
                self._send(session, p.Key(key=key, roles=roles))
            await self._greet(session, hello, adopted=True)

    # --- connections ----------------------------------------------------------------------

    def open(self, link: Link, ip: str, trusted: bool = False) -> Session:
        """A new connection. ``trusted``: in-process (a virtual receiver), admitted to its
        station without a key."""
        session = Session.open(link, ip, self.monotonic(), self.limits)
        session.trusted = trusted
        session.start_writer(self._send_failed)
        self._sessions.add(session)
        return session

    async def close(self, session: Session, code: int | None = None) -> None:
        """Close a session (idempotent). The seat goes offline unless a newer session has it.

        Without ``code``, a close already decided on (a flood, a receiver that does not
        read) keeps the code it was decided with; the connection's own route calls this
        when it stops reading, which may be before that close has run."""
        if session.closed:
            return
        if code is None:
            code = session.close_code if session.closing else CLOSE_NORMAL
        session.closed = True
        self._sessions.discard(session)
        greeting.forgive(session, self.stations)
        seat = session.seat_id
        if session.role == "agent":
            self.agents.closed(session)
        mine = self._seats.of_role(session.role)
        if seat is not None and mine.get(seat) is session:
            del mine[seat]
            if session.role == "agent":
                _safely(self.stations.agent_gone, seat)
            if not self.online(seat):
                _safely(self.port.set_online, seat, False)
        if code == CLOSE_STANDBY:
            await session.drain(1.0)  # the group message first
        await session.stop_writer()
        with contextlib.suppress(Exception):
            await session.link.close(code)

    async def receive(self, session: Session, data: str | bytes) -> None:
        """Handle one frame from the receiver. Never raises for anything the peer sends."""
        if session.closed or session.closing:
            return
        now = self.monotonic()
        session.last_rx = now
        if not self._admit(session, now):
            return
        message = frames.decode(session, data, self.limits)
        if message is None:
            return
        try:
            # what a receiver's message changes, the audit trail puts down to its agent
            actor = audit.Actor(audit.AGENT, session.ip, session.seat_id or "")
            with audit.acting(actor, f"receiver: {type(message).__name__.lower()}"):
                await self._handle(session, message)
        except Exception:
            log.exception("receiver %s: failed to handle %s", session.who, message.__class__)

    # --- message handling ---------------------------------------------------------------

    async def _handle(self, session: Session, message: frames.Message) -> None:
        if isinstance(message, p.Hello):
            await self._hello(session, message)
        elif session.seat_id is None:
            session.drop(f"{type(message).__name__.lower()} before hello")
        elif isinstance(message, p.TimeRequest):
            t1 = self.port.exact_ms()
            self._send(session, p.TimeReply(message.t0, t1, self.port.exact_ms()))
        elif isinstance(message, p.Pong) or session.impostor:
            pass
        elif isinstance(message, p.Status):
            session.status = message
            session.status_at = self.monotonic()
        elif isinstance(message, p.Ack):
            session.acked_rev = message.rev
        elif isinstance(message, p.KeyStored):
            self.stations.key_stored(session.seat_id, message.key)
        else:
            await self.agents.handle(session, message)

    async def _hello(self, session: Session, hello: p.Hello) -> None:
        seat = hello.seat_id
        if session.seat_id is not None and (session.seat_id != seat or session.role != hello.role):
            session.drop(f"hello as {seat!r} on a connection of {session.who}")
            return
        if await hostgroup.let_go(self, session):
            return
        if hello.role == "page" and hello.screen is None:
            session.drop("hello of a page without its screen")
            return
        session.role = hello.role
        session.shares = p.CONTENT in hello.features
        session.confirms_keys = p.KEY_STORED in hello.features
        session.greeting_since = self.monotonic()
        try:
            await self._greet(session, hello)
        finally:
            session.greeting_since = None
            session.last_rx = max(session.last_rx, self.monotonic())

    async def _greet(self, session: Session, hello: p.Hello, adopted: bool = False) -> None:
        """Admit the connection to its station (``adopted``: the host gave it the
        station), record what it said, welcome it. The host may take a while (its
        changes are one at a time): meanwhile the connection does not count as silent."""
        seat = hello.seat_id
        admitted = session.trusted or adopted
        if not admitted and not await self.stations.admit(seat, hello.key):
            state = greeting.refuse(session, hello, self.port.host_info(), self.stations)
            self._welcome(session, seat, state, greeting.REFUSED)
            return
        mine = self._seats.of_role(hello.role)
        previous = mine.get(seat)
        if previous is not None and previous is not session:
            self._replaced.note(session, seat)
            del mine[seat]
            await self.close(previous, CLOSE_REPLACED)
        await greeting.record(self.port, self.stations, session.ip, hello)
        if session.closed:
            return
        was_online = self.online(seat)
        session.seat_id = seat
        mine[seat] = session
        if not was_online:
            _safely(self.port.set_online, seat, True)
        # the key first: the page keeps it (and its media cookie) before the state it is
        # welcomed with names media
        self.hand_key(seat)
        self._welcome(session, seat, self.describe(seat))
        hostgroup.tell(self, session)

    def _welcome(
        self, session: Session, seat: str, state: RenderState, refused: str | None = None
    ) -> None:
        rev, _ = self._revisions.record(seat, state) if refused is None else (0, False)
        self._send(
            session,
            p.Welcome(
                seat_id=seat,
                rev=rev,
                host_ms=self.port.now_ms(),
                ping_interval_ms=round(self.limits.ping_interval_s * 1000),
                state=state,
                refused=refused,
            ),
        )

    # --- push on change -------------------------------------------------------------------

    def _on_event(self, event: Event) -> None:
        # every change names the displays it affects; liveness and other topology-only
        # events name none and must not re-render the whole fleet
        self._changes.mark(event.displays)

    def _push(self, every: bool, displays: set[int]) -> None:
        self._fanout.push(self._fanout.affected(self.online_seats(), every, displays))

    # --- sending ------------------------------------------------------------------------

    def _send(self, session: Session, message: p.HostMessage) -> None:
        self.send_text(session, p.encode(message))

    def send_text(self, session: Session, text: str, now: bool = False) -> bool:
        """Send ``text`` to ``session`` (``now``: written at once if nothing waits; the
        fan-out's); False: closed, or closing as it does not read."""
        if session.closed or session.closing:
            return False
        if not session.queue(text, now):
            log.warning("receiver %s: not reading its messages; closing", session.who)
            self._close_later(session, CLOSE_POLICY)
            return False
        return True

    def _write_now(self, session: Session, text: str) -> bool:
        return self.send_text(session, text, now=True)

    def _send_failed(self, session: Session, error: Exception) -> None:
        log.info("receiver %s: send failed (%s); closing", session.who, error)
        self._close_later(session, CLOSE_NORMAL)

    def _close_later(self, session: Session, code: int) -> None:
        if session.closing or session.closed:
            return
        session.closing = True
        session.close_code = code
        task = asyncio.get_running_loop().create_task(self.close(session, code))
        self._tasks.append(task)
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[None]) -> None:
        with contextlib.suppress(ValueError):
            self._tasks.remove(task)

    # --- hostile input ----------------------------------------------------------------------

    def _admit(self, session: Session, now: float) -> bool:
        """Whether a frame is within the connection's rate; a long flood closes it."""
        admitted, close = session.admit(now, self.limits)
        if close:
            self._close_later(session, CLOSE_POLICY)
        return admitted


def _safely(call: Callable[..., None], *args: object) -> None:
    """Tell the host something; a failure there is logged, never the hub's."""
    try:
        call(*args)
    except Exception:
        log.exception("host %s%r failed", getattr(call, "__name__", "call"), args)
