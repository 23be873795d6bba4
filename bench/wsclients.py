"""Many receivers over real WebSockets, in a process of their own, and what they see.

Each receiver speaks protocol v1 (docs/protocol.md): it says hello with its seat id
(the station key the host handed it, and that it understands ``content``, as the
receiver page does), answers pings, acks each revision and records when each
``welcome``/``state``/``content`` arrived and which source it shows. The same process
issues the zone switches (tilewall.client, from a worker thread so the event loop keeps
receiving) and samples the host's resident memory, so every time is taken on one
monotonic clock.

With ``follow_group`` the receivers follow the host's group as the receiver page does
(receiver.js, docs/protocol.md ``group``): they keep the members and the active one the
host tells them, and after a close they try the active member, then every member, then
the host they started on, with the page's delays. ``takeover`` (bench/postgres.py) then
kills the active host (``kill -9``) once they are all connected, writes to the standby
until a write is accepted, and times the receivers back on the new active host.

    python bench/wsclients.py CONFIG.json   # prints the results as JSON on stdout

The configuration (JSON): ``base_url``, ``session`` (a session id), ``seats`` (seat
ids), ``host_pid``, ``memory_at`` (receiver counts at which to sample the host's RSS; 0:
before any connects), ``zone`` and ``sources`` (the switch alternates between the two),
``switches``, ``switch_timeout_s``, ``connect_timeout_s``, ``stable_s``, ``zone_receivers`` (how many of
the seats, from the first, are in the switched zone; default all), ``follow_group``, and
``takeover``: ``{"kill_pgid", "standby" (its base URL), "zone", "source", "zone_seats",
"timeout_s"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosedOK, WebSocketException
from websockets.frames import Frame, Opcode

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.takeover import run_takeover, wait_for
from tilewall.client import ApiError, Client

HELLO_SCREEN = {"width": 1920, "height": 1080}
#: receivers connecting at the same time
CONNECT_CONCURRENCY = 50
#: new connections per second at most (a fleet of receivers powering up, not a flood)
CONNECT_RATE = 100.0
#: connected receivers count as settled when none reconnected for this long
STABLE_S = 3.0
#: pause between switches, so that each switch starts on a quiet host
SWITCH_GAP_S = 0.3
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


class Deferred:
    """The parsing of every receiver's bytes, held while bytes keep arriving.

    A thousand receivers share this one process: parsed as they come, the bytes of one
    socket would wait, unread and untimed, behind the parsing (and the answers) of the
    sockets read before it, where real receivers, each a device of its own, parse in
    parallel. So the connections only note when their bytes arrived, and the parsing
    runs once the sockets have been quiet for ``QUIET_S`` (or ``HOLD_S`` after the first
    bytes held, so that a steady trickle cannot hold it for ever), in arrival order."""

    QUIET_S = 0.002
    HOLD_S = 0.1

    def __init__(self) -> None:
        self.held: list[Callable[[], None]] = []
        self._first = 0.0
        self._last = 0.0
        self._timer: asyncio.TimerHandle | None = None

    def hold(self, work: Callable[[], None]) -> None:
        now = time.monotonic()
        if not self.held:
            self._first = now
        self._last = now
        self.held.append(work)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.QUIET_S, self._check)

    def _check(self) -> None:
        now = time.monotonic()
        wait = min(self._last + self.QUIET_S, self._first + self.HOLD_S) - now
        if wait > 0:
            self._timer = asyncio.get_running_loop().call_later(wait, self._check)
            return
        self._timer = None
        held, self.held = self.held, []
        for work in held:
            work()


DEFERRED = Deferred()


class TimedConnection(ClientConnection):
    """A receiver's connection that notes when the bytes of each message arrived and
    leaves their parsing to ``DEFERRED`` (the end of the stream and the loss of the
    connection wait their turn the same way); each message read comes with the time
    its last bytes arrived (``arrived``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: when the last bytes of each message not yet read arrived (monotonic s)
        self.arrivals: list[float] = []
        self._chunk_at = 0.0

    def data_received(self, data: bytes) -> None:
        at = time.monotonic()
        DEFERRED.hold(lambda: self._parse(data, at))

    def _parse(self, data: bytes, at: float) -> None:
        self._chunk_at = at
        super().data_received(data)

    def process_event(self, event: Any) -> None:
        if isinstance(event, Frame) and event.fin and event.opcode in MESSAGE_OPCODES:
            self.arrivals.append(self._chunk_at)
        super().process_event(event)

    def eof_received(self) -> None:
        DEFERRED.hold(super().eof_received)

    def connection_lost(self, exc: Exception | None) -> None:
        DEFERRED.hold(lambda: super(TimedConnection, self).connection_lost(exc))

    def arrived(self) -> float:
        """When the message just read arrived."""
        return self.arrivals.pop(0) if self.arrivals else time.monotonic()


MESSAGE_OPCODES = (Opcode.TEXT, Opcode.BINARY, Opcode.CONT)


async def open_receiver(url: str, timeout_s: float) -> TimedConnection:
    """A receiver's connection, timed as it reads."""
    ws = await connect(
        url,
        ping_interval=None,
        max_size=2**20,
        open_timeout=timeout_s,
        create_connection=TimedConnection,
    )
    assert isinstance(ws, TimedConnection)
    return ws


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its children, MB."""
    proc = psutil.Process(pid)
    total: int = proc.memory_info().rss
    for child in proc.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            total += child.memory_info().rss
    return total / 2**20


def source_of(state: dict[str, Any] | None) -> str | None:
    return source_in((state or {}).get("content"))


def source_in(content: dict[str, Any] | None) -> str | None:
    source = (content or {}).get("source") or {}
    return source.get("sourceId")


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


@dataclass
class Fleet:
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


async def watch_lag(fleet: Fleet, interval_s: float = 0.05) -> None:
    """How late this process' own event loop runs: a busy client delays what it records."""
    while True:
        before = time.monotonic()
        await asyncio.sleep(interval_s)
        fleet.max_lag_s = max(fleet.max_lag_s, time.monotonic() - before - interval_s)


async def wait_stable(fleet: Fleet, n: int, timeout_s: float, stable_s: float = STABLE_S) -> bool:
    """Wait until all ``n`` receivers stayed connected, none reconnecting, for ``stable_s``."""
    deadline = time.monotonic() + timeout_s
    since, reconnects = time.monotonic(), fleet.reconnects
    while time.monotonic() < deadline:
        if len(fleet.welcomed) < n or fleet.reconnects != reconnects:
            since, reconnects = time.monotonic(), fleet.reconnects
        elif time.monotonic() - since >= stable_s:
            return True
        await asyncio.sleep(0.1)
    return False


async def main_async(config: dict[str, Any]) -> dict[str, Any]:
    base = config["base_url"]
    fleet = Fleet(base.replace("http://", "ws://", 1) + "/receiver/ws")
    fleet.follow_group = bool(config.get("follow_group"))
    seats: list[str] = config["seats"]
    pid: int | None = config.get("host_pid")
    memory_at = sorted(set(config.get("memory_at") or []))
    connect_timeout = float(config.get("connect_timeout_s", 120))
    out: dict[str, Any] = {"receivers": len(seats), "memory_mb": {}, "switches": []}
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    tasks: list[asyncio.Task[None]] = []
    lag = asyncio.create_task(watch_lag(fleet))
    host = psutil.Process(pid) if pid is not None else None
    if host is not None:
        host.cpu_percent(None)
    try:
        # connect in steps, sampling memory at each requested count
        steps = [n for n in memory_at if 0 < n < len(seats)] + [len(seats)]
        if pid is not None and 0 in memory_at:
            out["memory_mb"]["0"] = rss_mb(pid)
        started = time.monotonic()
        for n in steps:
            for seat in seats[len(tasks) : n]:
                tasks.append(asyncio.create_task(fleet.receiver(seat, gate)))
                await asyncio.sleep(1 / CONNECT_RATE)
            ok = await wait_for(lambda n=n: len(fleet.welcomed) >= n, connect_timeout)
            if not ok:
                out["error"] = (
                    f"only {len(fleet.welcomed)} of {n} receivers connected after "
                    f"{connect_timeout:.0f} s ({fleet.reconnects} reconnects)"
                )
                return out
            out.setdefault("connected_s", {})[str(n)] = time.monotonic() - started
            stable_s = float(config.get("stable_s", STABLE_S))
            stable = await wait_stable(fleet, n, connect_timeout, stable_s)
            out.setdefault("stable_s", {})[str(n)] = time.monotonic() - started
            if not stable:
                out["error"] = (
                    f"{n} receivers did not stay connected for {stable_s:.0f} s within "
                    f"{connect_timeout:.0f} s ({fleet.reconnects} reconnects)"
                )
                return out
            if pid is not None and n in memory_at:
                out["memory_mb"][str(n)] = rss_mb(pid)
        switches = int(config.get("switches", 0))
        if switches:
            told = seats[: int(config.get("zone_receivers") or len(seats))]
            out["switches"] = await run_switches(fleet, config, told, switches)
        if config.get("takeover"):
            out["takeover"] = await run_takeover(fleet, config, seats)
        return out
    finally:
        out["reconnects"] = fleet.reconnects
        out["refused"] = fleet.refused
        out["failed_attempts"] = fleet.failed_attempts
        out["closes"] = {str(k): v for k, v in fleet.closes.items()}
        out["client_max_lag_ms"] = fleet.max_lag_s * 1e3
        if host is not None:
            with contextlib.suppress(psutil.Error):
                out["host_cpu_percent"] = host.cpu_percent(None)
        lag.cancel()
        fleet.stopping = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def run_switches(
    fleet: Fleet, config: dict[str, Any], seats: list[str], switches: int
) -> list[dict[str, Any]]:
    # this process holds a thousand connections: a full pass of its own garbage collector
    # stalls its event loop for tens of milliseconds, and the receivers' arrivals would be
    # noted that much late. So it does not collect while switches are timed.
    gc.collect()
    gc.disable()
    try:
        return await _switches(fleet, config, seats, switches)
    finally:
        gc.enable()


async def _switches(
    fleet: Fleet,
    config: dict[str, Any],
    seats: list[str],
    switches: int,
) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    base = config["base_url"]
    zone = config["zone"]
    sources: list[str] = config["sources"]
    timeout = float(config.get("switch_timeout_s", 60))
    with Client(base, session=config["session"], timeout=timeout) as host:
        for i in range(switches):
            target = sources[i % len(sources)]
            if all(fleet.showing.get(s) == target for s in seats):
                target = sources[(i + 1) % len(sources)]
            fleet.target = target
            fleet.expected = len(seats)
            fleet.reached = {s for s in seats if fleet.showing.get(s) == target}
            fleet.done = asyncio.Event()
            t0 = time.monotonic()
            status, failure = 200, ""
            try:
                await asyncio.to_thread(host.zones.switch, zone, source_id=target, by="id")
            except ApiError as error:
                status, failure = error.status, error.message
            t_ack = time.monotonic()
            row: dict[str, Any] = {"status": status, "ack_ms": (t_ack - t0) * 1e3}
            if failure:
                row["error"] = failure[:200]
                results.append(row)
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(fleet.done.wait(), max(timeout - (t_ack - t0), 0.1))
            times = [fleet.arrived[s] for s in seats if fleet.showing.get(s) == target]
            row["told"] = len(times)
            if len(times) == len(seats):
                row["last_ms"] = (max(times) - t0) * 1e3
                row["first_ms"] = (min(times) - t0) * 1e3
                row["last_after_ack_ms"] = (max(times) - t_ack) * 1e3
            else:
                row["error"] = f"{len(seats) - len(times)} receivers not told within {timeout} s"
            results.append(row)
            fleet.target = None
            if "error" in row:
                break
            await asyncio.sleep(SWITCH_GAP_S)
    return results


def main() -> None:
    config = json.loads(Path(sys.argv[1]).read_text())
    # a thousand receivers in one process: on uvloop (as the host runs) this process's own
    # work takes less of what it measures
    try:
        import uvloop
    except ImportError:
        result = asyncio.run(main_async(config))
    else:
        result = uvloop.run(main_async(config))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
