"""Many receivers over real WebSockets, in a process of their own, and what they see.

Each receiver speaks protocol v1 (docs/protocol.md): it says hello with its seat id
(and that it understands ``content``, as the receiver page does), answers pings, acks
each revision and records when each ``welcome``/``state``/``content`` arrived and which
source it shows. The same process issues the zone switches (tilewall.client,
from a worker thread so the event loop keeps receiving) and samples the host's resident
memory, so every time is taken on one monotonic clock.

    python bench/wsclients.py CONFIG.json   # prints the results as JSON on stdout

The configuration (JSON): ``base_url``, ``session`` (a session id), ``seats`` (seat
ids), ``host_pid``, ``memory_at`` (receiver counts at which to sample the host's RSS; 0:
before any connects), ``zone`` and ``sources`` (the switch alternates between the two),
``switches``, ``switch_timeout_s``, ``connect_timeout_s``, ``stable_s``, ``zone_receivers`` (how many of
the seats, from the first, are in the switched zone; default all).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

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


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its children, MB."""
    proc = psutil.Process(pid)
    total = proc.memory_info().rss
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

    def record(self, seat: str, source: str | None, at: float) -> None:
        if self.showing.get(seat) != source:
            self.showing[seat] = source
            self.arrived[seat] = at
        if self.target is not None and source == self.target:
            self.reached.add(seat)
            if len(self.reached) >= self.expected:
                self.done.set()

    async def receiver(self, seat: str, connected: asyncio.Semaphore) -> None:
        """One receiver: connect, hello, answer; reconnect (bounded) after a close."""
        rev = 0
        for attempt in range(1000):
            if self.stopping:
                return
            if attempt:
                self.reconnects += 1
                await asyncio.sleep(min(0.5 * attempt, 5.0))
            try:
                async with connected:
                    ws = await connect(
                        self.ws_url, ping_interval=None, max_size=2**20, open_timeout=60
                    )
                hello = {
                    "v": 1,
                    "type": "hello",
                    "seatId": seat,
                    "screen": HELLO_SCREEN,
                    "resolutions": [HELLO_SCREEN],
                    "model": "tilewall bench receiver",
                    "firmware": "bench-wsclients/1",
                    "rev": rev,
                    # told ``content`` (one text for the whole zone) instead of ``state``
                    "features": ["content"],
                }
                async with ws:
                    await ws.send(json.dumps(hello))
                    async for text in ws:
                        at = time.monotonic()
                        message = json.loads(text)
                        kind = message.get("type")
                        if kind == "ping":
                            await ws.send(json.dumps({"v": 1, "type": "pong", "id": message["id"]}))
                        elif kind in ("welcome", "state", "content"):
                            rev = message["rev"]
                            if kind == "content":
                                self.record(seat, source_in(message.get("content")), at)
                            else:
                                self.record(seat, source_of(message.get("state")), at)
                            if kind == "welcome":
                                self.welcomed.add(seat)
                            await ws.send(json.dumps({"v": 1, "type": "ack", "rev": rev}))
                code = ws.close_code or 0
                self.closes[code] = self.closes.get(code, 0) + 1
            except (TimeoutError, OSError, WebSocketException):
                self.closes[-1] = self.closes.get(-1, 0) + 1
            self.welcomed.discard(seat)


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


async def wait_for(predicate: Any, timeout_s: float, interval_s: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(interval_s)
    return True


async def main_async(config: dict[str, Any]) -> dict[str, Any]:
    base = config["base_url"]
    fleet = Fleet(base.replace("http://", "ws://", 1) + "/receiver/ws")
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
        return out
    finally:
        out["reconnects"] = fleet.reconnects
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
    base = config["base_url"]
    zone = config["zone"]
    sources: list[str] = config["sources"]
    timeout = float(config.get("switch_timeout_s", 60))
    results: list[dict[str, Any]] = []
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
