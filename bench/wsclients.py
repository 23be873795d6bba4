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
import sys
import time
from pathlib import Path
from typing import Any

import psutil

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fleet import Fleet
from bench.takeover import run_takeover, wait_for
from tilewall.client import ApiError, Client

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
    total: int = proc.memory_info().rss
    for child in proc.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            total += child.memory_info().rss
    return total / 2**20


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
