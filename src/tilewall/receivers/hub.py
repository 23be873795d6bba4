"""The hub: one session per receiver connection, keyed by seat id once it said hello.

It pushes each receiver its render description when that changes, answers clock sync,
pings for liveness, and drops malformed or hostile frames with a log line. It talks to
the host only through ``HostPort`` and to a connection only through ``Link``
(``receivers.ports``), so the WebSocket route and the in-process virtual receiver share
one code path.
"""

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable

import msgspec

from tilewall.host.model import Resolution
from tilewall.host.playback.render import RenderState, describe
from tilewall.host.state import Event
from tilewall.receivers import protocol as p
from tilewall.receivers.changes import Changes
from tilewall.receivers.ports import HostPort, Link
from tilewall.receivers.revisions import Revisions
from tilewall.receivers.session import (
    CLOSE_NORMAL,
    CLOSE_OFFLINE,
    CLOSE_POLICY,
    CLOSE_REPLACED,
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
    ) -> None:
        self.port = port
        self.limits = limits or Limits()
        self._monotonic = monotonic
        self._sessions: set[Session] = set()
        self._by_seat: dict[str, Session] = {}
        self._revisions = Revisions()
        self._changes = Changes()
        self._tasks: list[asyncio.Task[None]] = []
        self._unsubscribe: Callable[[], None] | None = None
        #: told (seconds, receivers sent to) after each push of a change, for metrics
        self.push_observers: list[Callable[[float, int], None]] = []

    # --- lifecycle ----------------------------------------------------------------------

    async def start(self) -> None:
        self._revisions.start(self.port.now_ms())
        self._unsubscribe = self.port.subscribe(self._on_event)
        self._tasks = [
            asyncio.create_task(self._push_loop(), name="receiver-hub-push"),
            asyncio.create_task(self._liveness_loop(), name="receiver-hub-liveness"),
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
        return seat_id in self._by_seat

    def online_seats(self) -> set[str]:
        return set(self._by_seat)

    def ip_of(self, seat_id: str) -> str | None:
        session = self._by_seat.get(seat_id)
        return session.ip if session else None

    def status(self, seat_id: str) -> p.Status | None:
        """The last status the receiver reported."""
        session = self._by_seat.get(seat_id)
        return session.status if session else None

    def acked_rev(self, seat_id: str) -> int:
        session = self._by_seat.get(seat_id)
        return session.acked_rev if session else 0

    def rev(self, seat_id: str) -> int:
        """The revision of the last description sent to ``seat_id`` (0: none yet)."""
        return self._revisions.rev(seat_id)

    def describe(self, seat_id: str) -> RenderState:
        port = self.port
        return describe(
            port.state,
            seat_id,
            media=port.media,
            overlays=port.overlays(),
            host=port.host_info(),
            now_ms=port.now_ms(),
        )

    # --- commands from the host -----------------------------------------------------------

    def refresh(self, display_ids: Iterable[int] | None = None) -> None:
        """Recompute and push (if changed) for these displays, or for every receiver."""
        self._changes.mark(display_ids)

    async def disconnect(self, seat_id: str) -> bool:
        """Close the connection of ``seat_id``; the receiver will reconnect by itself."""
        session = self._by_seat.get(seat_id)
        if session is None:
            return False
        await self.close(session, CLOSE_NORMAL)
        return True

    async def reset(self, seat_ids: Iterable[str] | None = None) -> None:
        self._broadcast(p.Reset(), seat_ids)

    async def reload(self, seat_ids: Iterable[str] | None = None) -> None:
        self._broadcast(p.Reload(), seat_ids)

    def _broadcast(self, message: p.HostMessage, seat_ids: Iterable[str] | None) -> None:
        seats = list(self._by_seat) if seat_ids is None else list(seat_ids)
        for seat in seats:
            session = self._by_seat.get(seat)
            if session is not None:
                self._send(session, message)

    # --- connections ----------------------------------------------------------------------

    def open(self, link: Link, ip: str) -> Session:
        session = Session.open(link, ip, self._monotonic(), self.limits)
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
        seat = session.seat_id
        if seat is not None and self._by_seat.get(seat) is session:
            del self._by_seat[seat]
            self._safe(self.port.set_online, seat, False)
        await session.stop_writer()
        with contextlib.suppress(Exception):
            await session.link.close(code)

    async def receive(self, session: Session, data: str | bytes) -> None:
        """Handle one frame from the receiver. Never raises for anything the peer sends."""
        if session.closed or session.closing:
            return
        now = self._monotonic()
        session.last_rx = now
        if not self._admit(session, now):
            return
        if isinstance(data, bytes):
            self._drop(session, "binary frame")
            return
        if len(data) > self.limits.max_frame_bytes:
            self._drop(session, f"oversized frame ({len(data)} characters)")
            return
        try:
            message = p.receiver_decoder.decode(data)
        except msgspec.DecodeError as error:
            self._drop(session, f"malformed message: {str(error)[:120]}")
            return
        try:
            await self._handle(session, message)
        except Exception:
            log.exception("receiver %s: failed to handle %s", session.who, message.__class__)

    # --- message handling ---------------------------------------------------------------

    async def _handle(self, session: Session, message: p.ReceiverMessage) -> None:
        if isinstance(message, p.Hello):
            await self._hello(session, message)
        elif session.seat_id is None:
            self._drop(session, f"{type(message).__name__.lower()} before hello")
        elif isinstance(message, p.TimeRequest):
            t1 = self.port.now_ms()
            self._send(session, p.TimeReply(message.t0, t1, self.port.now_ms()))
        elif isinstance(message, p.Pong):
            pass
        elif isinstance(message, p.Status):
            session.status = message
            session.status_at = self._monotonic()
        elif isinstance(message, p.Ack):
            session.acked_rev = message.rev

    async def _hello(self, session: Session, hello: p.Hello) -> None:
        seat = hello.seat_id
        if session.seat_id is not None and session.seat_id != seat:
            self._drop(session, f"hello as {seat!r} on a connection of {session.seat_id!r}")
            return
        previous = self._by_seat.get(seat)
        if previous is not None and previous is not session:
            log.info(
                "receiver %s reconnected from %s; closing its older connection", seat, session.ip
            )
            del self._by_seat[seat]
            await self.close(previous, CLOSE_REPLACED)
        await self.port.station_hello(
            seat,
            session.ip,
            hello.model,
            hello.firmware,
            Resolution(hello.screen.width, hello.screen.height),
            [Resolution(r.width, r.height) for r in hello.resolutions],
            hello.name,
        )
        if session.closed:
            return
        first = session.seat_id is None
        session.seat_id = seat
        self._by_seat[seat] = session
        if first:
            self._safe(self.port.set_online, seat, True)
        state = self.describe(seat)
        rev, _ = self._revisions.record(seat, state)
        self._send(
            session,
            p.Welcome(
                seat_id=seat,
                rev=rev,
                host_ms=self.port.now_ms(),
                ping_interval_ms=round(self.limits.ping_interval_s * 1000),
                state=state,
            ),
        )

    # --- push on change -------------------------------------------------------------------

    def _on_event(self, event: Event) -> None:
        # every change names the displays it affects; liveness and other topology-only
        # events name none and must not re-render the whole fleet
        self._changes.mark(event.displays)

    async def _push_loop(self) -> None:
        while True:
            every, displays = await self._changes.next()
            try:
                self._push(every, displays)
            except Exception:
                log.exception("receiver hub: push failed")

    def _push(self, every: bool, displays: set[int]) -> None:
        started = time.perf_counter()
        sent = 0
        stations = self.port.state.stations
        for seat, session in list(self._by_seat.items()):
            station = stations.get(seat)
            affected = (
                every
                or station is None
                or not station.locked
                or station.display_id is None
                or station.display_id in displays
            )
            if not affected:
                continue
            state = self.describe(seat)
            rev, new = self._revisions.record(seat, state)
            if new:
                self._send(session, p.StateUpdate(rev=rev, state=state))
                sent += 1
        for observer in self.push_observers:
            observer(time.perf_counter() - started, sent)

    # --- sending ------------------------------------------------------------------------

    def _send(self, session: Session, message: p.HostMessage) -> None:
        if session.closed or session.closing:
            return
        if not session.queue(p.encode(message)):
            log.warning("receiver %s: not reading its messages; closing", session.who)
            self._close_later(session, CLOSE_POLICY)

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

    # --- liveness -----------------------------------------------------------------------

    async def _liveness_loop(self) -> None:
        while True:
            await asyncio.sleep(self.limits.ping_interval_s)
            now = self._monotonic()
            for session in list(self._sessions):
                if now - session.last_rx > self.limits.offline_after_s:
                    log.info("receiver %s stopped answering; offline", session.who)
                    await self.close(session, CLOSE_OFFLINE)
                elif session.seat_id is not None:
                    session.ping_id += 1
                    self._send(session, p.Ping(id=session.ping_id))

    # --- hostile input ----------------------------------------------------------------------

    def _admit(self, session: Session, now: float) -> bool:
        """Whether a frame is within the connection's rate; a long flood closes it."""
        if session.take_token(now, self.limits):
            session.flooding = False
            return True
        session.flood_drops += 1
        if not session.flooding:
            session.flooding = True
            log.warning("receiver %s: flooding; dropping messages", session.who)
        if session.flood_drops >= self.limits.flood_close_after:
            log.warning("receiver %s: flood went on; closing", session.who)
            self._close_later(session, CLOSE_POLICY)
        return False

    def _drop(self, session: Session, reason: str) -> None:
        session.drops += 1
        if session.drops <= 20 or session.drops % 1000 == 0:
            log.warning("receiver %s: dropped %s", session.who, reason)

    @staticmethod
    def _safe(call: Callable[[str, bool], None], seat: str, online: bool) -> None:
        try:
            call(seat, online)
        except Exception:
            log.exception("host set_online(%r, %r) failed", seat, online)
