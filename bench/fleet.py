"""The simulated receivers of one process: protocol v1, reconnection, what each was told."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosedOK, WebSocketException

from bench.route import OPEN_TIMEOUT_S, SILENT_AFTER_S, SILENT_CHECK_S, Route
from bench.timedconnection import TimedConnection, open_receiver

HELLO_SCREEN = {"width": 1920, "height": 1080}


def source_of(state: dict[str, Any] | None) -> str | None:
    return source_in((state or {}).get("content"))


def source_in(content: dict[str, Any] | None) -> str | None:
    source = (content or {}).get("source") or {}
    return source.get("sourceId")


@dataclass
class Fleet:
    """The receivers of one process and what each saw, on one monotonic clock."""

    ws_url: str
    #: the source each seat shows and when (monotonic s) that last changed
    showing: dict[str, str | None] = field(default_factory=dict)
    arrived: dict[str, float] = field(default_factory=dict)
    welcomed: set[str] = field(default_factory=set)
    target: str | None = None
    reached: set[str] = field(default_factory=set)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    expected: int = 0
    reconnects: int = 0
    closes: dict[int, int] = field(default_factory=dict)
    stopping: bool = False
    #: the longest this process' event loop was late (its own load, not the host's)
    max_lag_s: float = 0.0
    #: follow the host's group as the receiver page does (else: always ``ws_url``)
    follow_group: bool = False
    #: the host that last welcomed each seat, and when (monotonic s)
    welcomed_by: dict[str, tuple[str, float]] = field(default_factory=dict)
    #: hellos the host refused (a station's key not shown): should stay 0
    refused: int = 0
    #: connection attempts that failed (refused, timed out) before a hello
    failed_attempts: int = 0
    #: each seat's connection attempts: (host, when it started, monotonic s)
    attempts: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    #: where each seat connects next, as its page would choose
    routes: dict[str, Route] = field(default_factory=dict)
    #: when connections were dropped because their host said nothing for too long
    silent_at: list[float] = field(default_factory=list)

    def record(self, seat: str, source: str | None, at: float) -> None:
        if self.showing.get(seat) != source:
            self.showing[seat] = source
            self.arrived[seat] = at
        if self.target is not None and source == self.target:
            self.reached.add(seat)
            if len(self.reached) >= self.expected:
                self.done.set()

    async def receiver(self, seat_id: str, connected: asyncio.Semaphore) -> None:
        """One receiver: connect, hello, answer; reconnect after a close (to the same
        host, bounded; or following the group as the page does)."""
        seat = Seat(
            seat_id, Route(self.ws_url.replace("ws://", "http://", 1).removesuffix("/receiver/ws"))
        )
        self.routes[seat_id] = seat.route
        code: int | None = None
        for attempt in range(100_000 if self.follow_group else 1000):
            if self.stopping:
                return
            if attempt:
                self.reconnects += 1
                if self.follow_group:
                    await asyncio.sleep(seat.route.delay_after(code))
                else:
                    await asyncio.sleep(min(0.5 * attempt, 5.0))
            code = None
            url = self._next_url(seat)
            try:
                ws = await self._open(seat, url, attempt, connected)
                async with ws:
                    await ws.send(json.dumps(seat.hello()))
                    await self._converse(seat, ws, connected)
                code = ws.close_code or 0
                self.closes[code] = self.closes.get(code, 0) + 1
            except (TimeoutError, OSError, WebSocketException):
                self.closes[-1] = self.closes.get(-1, 0) + 1
                self.failed_attempts += 1
            finally:
                seat.unpace(connected)
            self.welcomed.discard(seat_id)

    def _next_url(self, seat: Seat) -> str:
        """Where the seat connects now: the host it started on, or (following the
        group) the page's next choice, noted among the seat's attempts."""
        if not self.follow_group:
            seat.host = seat.route.origin
            return self.ws_url
        seat.host = seat.route.next_host()
        self.attempts.setdefault(seat.id, []).append((seat.host, time.monotonic()))
        return seat.host.replace("http://", "ws://", 1) + "/receiver/ws"

    async def _open(
        self, seat: Seat, url: str, attempt: int, connected: asyncio.Semaphore
    ) -> TimedConnection:
        # following a group, the first connections are paced by the host: at most
        # CONNECT_CONCURRENCY hellos wait for their welcome at a time (a host on
        # PostgreSQL writes each new receiver, and closes a hello it has not
        # answered within 4 s as silent); later ones are devices of their own
        if self.follow_group and attempt:
            return await open_receiver(url, OPEN_TIMEOUT_S)
        if self.follow_group:
            await connected.acquire()
            seat.paced = True
            return await open_receiver(url, 60)
        async with connected:
            return await open_receiver(url, 60)

    async def _converse(
        self, seat: Seat, ws: TimedConnection, connected: asyncio.Semaphore
    ) -> None:
        """The messages of one connection, until it closes, the run ends, or (once
        welcomed, following a group) its host is silent."""
        # the page watches for silence once welcomed (a host holding its hello is
        # waiting for its group, not silent)
        seat.silent_s = None
        # asyncio.wait_for on 3.11 may swallow a cancel that comes as the message
        # does: the end of the run is also looked at here
        while not self.stopping:
            text = await next_message(ws, seat.silent_s)
            if text is None:
                if seat.silent_s is not None:
                    # silent (frozen, its sockets open): drop it at once, as the
                    # page does, without waiting for a closing handshake
                    seat.route.went_silent()
                    self.silent_at.append(time.monotonic())
                    if ws.transport is not None:
                        ws.transport.abort()
                return
            at = ws.arrived()
            await self._answer(seat, ws, json.loads(text), at, connected)

    async def _answer(
        self,
        seat: Seat,
        ws: TimedConnection,
        message: dict[str, Any],
        at: float,
        connected: asyncio.Semaphore,
    ) -> None:
        """One message of the host, arrived at ``at``: noted, and answered as the page
        answers it."""
        kind = message.get("type")
        if kind == "ping":
            await ws.send(json.dumps({"v": 1, "type": "pong", "id": message["id"]}))
        elif kind == "key":
            seat.key = message.get("key")
        elif kind == "group":
            seat.route.group(message)
        elif kind in ("welcome", "state", "content"):
            seat.rev = message["rev"]
            if kind == "welcome":
                self._welcomed(seat, message, at, connected)
            if kind == "content":
                self.record(seat.id, source_in(message.get("content")), at)
            else:
                self.record(seat.id, source_of(message.get("state")), at)
            if kind == "welcome":
                self.welcomed.add(seat.id)
            await ws.send(json.dumps({"v": 1, "type": "ack", "rev": seat.rev}))

    def _welcomed(
        self, seat: Seat, message: dict[str, Any], at: float, connected: asyncio.Semaphore
    ) -> None:
        seat.route.welcomed()
        if self.follow_group:
            ping_s = message.get("pingIntervalMs", 1000) / 1000
            seat.silent_s = max(SILENT_AFTER_S, 4 * ping_s)
        self.welcomed_by[seat.id] = (seat.host, at)
        if message.get("refused"):
            self.refused += 1
        seat.unpace(connected)


@dataclass
class Seat:
    """What one receiver keeps from one connection to the next."""

    id: str
    route: Route
    #: the last revision the host sent
    rev: int = 0
    #: the station key the host handed this receiver, if any
    key: str | None = None
    #: the host of the connection being made or held
    host: str = ""
    #: holds a place among the hellos waiting for their welcome
    paced: bool = False
    #: a host that says nothing for this long is silent (None: not watched)
    silent_s: float | None = None

    def hello(self) -> dict[str, Any]:
        return {
            "v": 1,
            "type": "hello",
            "seatId": self.id,
            "screen": HELLO_SCREEN,
            "resolutions": [HELLO_SCREEN],
            "model": "tilewall bench receiver",
            "firmware": "bench-wsclients/1",
            "rev": self.rev,
            # told ``content`` (one text for the whole zone) instead of ``state``
            "features": ["content"],
            **({"key": self.key} if self.key else {}),
        }

    def unpace(self, connected: asyncio.Semaphore) -> None:
        """Give back the seat's place among the hellos waiting, if it holds one."""
        if self.paced:
            self.paced = False
            connected.release()


async def next_message(ws: TimedConnection, silent_s: float | None) -> str | bytes | None:
    """The next message, or None when the connection closed, or (``silent_s`` given)
    when nothing came for ``silent_s`` and the page's next check (once a second, at a
    moment of its own) still found nothing."""
    try:
        if silent_s is None:
            return await ws.recv()
        try:
            return await asyncio.wait_for(ws.recv(), silent_s)
        except TimeoutError:
            try:
                return await asyncio.wait_for(ws.recv(), random.random() * SILENT_CHECK_S)
            except TimeoutError:
                return None
    except ConnectionClosedOK:
        return None
