"""Soak: a host kept busy by receivers that come and go while operators lock, unlock and
switch, for a long time; does it stay well?

N receivers speak protocol v1 over real WebSockets (hello, pong, ack) and each drops its
connection after a random stay and comes back (churn). Operators, over the interface,
lock receivers that are available, switch locked displays between sources and unlock
some again, as fast as the host answers (a few at once). The host's resident memory is
sampled all along. Reported: memory growth from the first tenth of the run (after every
receiver connected) to the last tenth (medians; goal below 5 %), 5xx answers (goal 0),
slow answers (over 1 s) and their share, request counts and latency percentiles by
operation, receiver reconnects.

    python bench/soak.py                       # 1,000 receivers for 30 minutes (make bench-soak)
    python bench/soak.py --receivers 20 --seconds 20 --out /tmp/soak.json

Everything runs on this machine's loopback; loops are bounded by the duration.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import httpx

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.churn import Churn
from bench.procs import LOOPBACK, Proc, free_port, tilewall_command
from bench.wsclients import rss_mb

ADMIN = "admin"
PASSWORD = "soak-password-not-secret"
SLOW_S = 1.0


def percentiles(values: list[float]) -> dict[str, float | int | None]:
    """p50, p95, p99 and the largest of ``values`` (nearest rank), and how many."""
    ordered = sorted(values)

    def rank(q: float) -> float | None:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else None

    return {
        "p50": rank(0.5),
        "p95": rank(0.95),
        "p99": rank(0.99),
        "max": ordered[-1] if ordered else None,
        "n": len(ordered),
    }


class Soak:
    """Churning receivers and operators on one host, and what the host answered them."""

    def __init__(self, base: str, receivers: int, seconds: float, operators: int) -> None:
        self.base = base
        self.churn = Churn(base, [f"soak-{n:05d}" for n in range(receivers)])
        self.seconds = seconds
        self.operators = operators
        self.deadline = 0.0
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, Counter[int]] = defaultdict(Counter)
        self.errors: list[str] = []
        self.sources: list[str] = []

    async def call(
        self, client: httpx.AsyncClient, name: str, method: str, url: str, **kw: Any
    ) -> httpx.Response | None:
        started = time.perf_counter()
        try:
            response = await client.request(method, url, **kw)
        except httpx.HTTPError as error:
            self.statuses[name][0] += 1
            self.errors.append(f"{name}: {type(error).__name__}: {error}")
            return None
        self.latency[name].append(time.perf_counter() - started)
        self.statuses[name][response.status_code] += 1
        if response.status_code >= 500 and len(self.errors) < 50:
            self.errors.append(f"{name} {url}: {response.status_code} {response.text[:200]}")
        return response

    async def operator(self, client: httpx.AsyncClient, seed: int) -> None:
        rng = random.Random(seed)
        while time.monotonic() < self.deadline:
            listing = await self.call(client, "list network", "GET", "/api/network")
            if listing is None or listing.status_code != 200:
                await asyncio.sleep(0.5)
                continue
            stations = listing.json()["network"]
            available = [s for s in stations if s["status"] != "CONNECTED" and s["isOnline"]]
            locked = [s for s in stations if s["status"] == "CONNECTED"]
            roll = rng.random()
            if available and (roll < 0.35 or not locked):
                seat = rng.choice(available)["seatId"]
                await self.call(client, "lock", "PUT", f"/api/network/{seat}/lock")
            elif locked and roll < 0.45:
                seat = rng.choice(locked)["seatId"]
                await self.call(client, "unlock", "PUT", f"/api/network/{seat}/unlock")
            elif locked:
                display = rng.choice(locked).get("displayId")
                if display is not None:
                    await self.call(
                        client,
                        "switch",
                        "PUT",
                        f"/api/displays/{display}/switch",
                        params={"destinationSourceId": rng.choice(self.sources)},
                    )
                await self.call(client, "list displays", "GET", "/api/displays")
            else:
                await asyncio.sleep(0.2)

    async def seed(self, client: httpx.AsyncClient) -> None:
        for n in range(3):
            body = {
                "sourceName": f"Soak page {n}",
                "sourceType": "Web Browser",
                "params": [
                    {"type": "URL", "paramName": "URL", "paramValue": f"https://example.org/{n}"}
                ],
            }
            response = await client.post("/api/sources", json=body)
            response.raise_for_status()
            self.sources.append(response.json()["sourceId"])

    async def run(self, host_pid: int, sample_s: float) -> dict[str, Any]:
        # idle connections are let go before the server's keep-alive (5 s) ends them, so
        # a request never races the server closing its connection
        limits = httpx.Limits(keepalive_expiry=2.0)
        async with httpx.AsyncClient(base_url=self.base, timeout=30, limits=limits) as client:
            login = await client.post("/api/session", json={"user": ADMIN, "password": PASSWORD})
            login.raise_for_status()
            client.cookies.set("JSESSIONID", login.json()["session"]["value"])
            await self.seed(client)
            memory: list[tuple[float, float]] = []
            started = time.monotonic()
            self.deadline = started + self.seconds
            stay = (max(self.seconds / 20, 2.0), max(self.seconds / 4, 4.0))
            receivers = await self.churn.start(stay, self.deadline)
            operators = [
                asyncio.create_task(self.operator(client, n)) for n in range(self.operators)
            ]
            while time.monotonic() < self.deadline:
                memory.append((time.monotonic() - started, rss_mb(host_pid)))
                await asyncio.sleep(sample_s)
            for task in [*operators, *receivers]:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(task, timeout=max(self.seconds / 4, 30))
            memory.append((time.monotonic() - started, rss_mb(host_pid)))
        return self.report(memory)

    def report(self, memory: list[tuple[float, float]]) -> dict[str, Any]:
        churn = self.churn
        tenth = self.seconds / 10
        first = [mb for t, mb in memory if tenth <= t <= 2 * tenth] or [memory[0][1]]
        last = [mb for t, mb in memory if t >= self.seconds - tenth] or [memory[-1][1]]
        start_mb, end_mb = statistics.median(first), statistics.median(last)
        all_latency = [s for values in self.latency.values() for s in values]
        five = sum(n for c in self.statuses.values() for code, n in c.items() if code >= 500)
        slow = sum(1 for s in all_latency if s > SLOW_S)
        return {
            "receivers": len(churn.seats),
            "seconds": self.seconds,
            "requests": len(all_latency),
            "server_errors_5xx": five,
            "transport_errors": sum(c[0] for c in self.statuses.values()),
            "slow_answers": slow,
            "slow_share": slow / len(all_latency) if all_latency else 0.0,
            "slow_threshold_s": SLOW_S,
            "memory_mb": {"start": start_mb, "end": end_mb, "samples": memory},
            "memory_growth_percent": (end_mb - start_mb) / start_mb * 100,
            "receiver_connects": churn.connects,
            "receiver_connect_failures": churn.ws_failures,
            "receiver_refused": churn.refused,
            "receiver_closed_by_host": {str(k): v for k, v in churn.closed_by_host.items()},
            "operations": {
                name: {
                    "statuses": {str(k): v for k, v in self.statuses[name].items()},
                    "latency_ms": percentiles([s * 1000 for s in values]),
                }
                for name, values in self.latency.items()
            },
            "errors": self.errors[:20],
            "goals": {"memory_growth_percent_below": 5.0, "server_errors_5xx": 0},
        }


def soak(
    receivers: int, seconds: float, operators: int = 4, server: str = "uvicorn", group: bool = False
) -> dict[str, Any]:
    """Run the soak against a fresh host on this machine; its report. With ``group``:
    against the active host of a group of two on a PostgreSQL of its own, and the
    group's takeovers during the soak (none wanted: nothing stalls)."""
    with tempfile.TemporaryDirectory(prefix="tilewall-soak-") as work:
        os.environ["TILEWALL_ADMIN_USER"] = ADMIN
        os.environ["TILEWALL_ADMIN_PASSWORD"] = PASSWORD
        if group:
            return _group_soak(receivers, seconds, operators, Path(work))
        port = free_port()
        proc = Proc(
            "tilewall-soak",
            tilewall_command(Path(work) / "data", port, server),
            port,
            "/api/openapi.json",
            Path(work) / "serve.log",
        )
        with proc:
            result = _soak_on(proc, receivers, seconds, operators)
        result["server"] = server
        return result


def _soak_on(proc: Proc, receivers: int, seconds: float, operators: int) -> dict[str, Any]:
    """The soak against ``proc`` (started here unless it is already)."""
    if proc.popen is None:
        proc.start()
    assert proc.popen is not None
    runner = Soak(proc.base_url, receivers, seconds, operators)
    sample_s = min(max(seconds / 200, 0.5), 10.0)
    result = asyncio.run(runner.run(proc.popen.pid, sample_s))
    if result["server_errors_5xx"]:
        result["host_log_tail"] = proc.log_tail(4000)
    result["host"] = LOOPBACK
    result["finished"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    return result


def _group_soak(receivers: int, seconds: float, operators: int, work: Path) -> dict[str, Any]:
    from bench import groupload, postgres
    from bench.procs import session_id

    with postgres.server() as pg:
        url = pg.create_database("soak")
        first = postgres.member_proc(url, work, "soak-first")
        second = postgres.member_proc(url, work, "soak-second")
        with first, second:
            session = postgres.start_group(first, second, ADMIN, PASSWORD)
            before = {p.name: groupload.scrape(p, session) for p in (first, second)}
            result = _soak_on(first, receivers, seconds, operators)
            session = session_id(first.base_url, ADMIN, PASSWORD)  # the first one expired
            after = {p.name: groupload.scrape(p, session) for p in (first, second)}
            members = {
                p.name: groupload.lease_figures(before[p.name], after[p.name])
                for p in (first, second)
            }
            result["group"] = {
                "members": members,
                "roles_after": {p.name: postgres.role(p, session) for p in (first, second)},
                "takeovers": sum(
                    m["takeovers_free"] + m["takeovers_stalled"] for m in members.values()
                ),
                "generation_bumps": max(m["generation_bumps"] for m in members.values()),
            }
    result["server"] = postgres.SERVER
    return result


def verdict(result: dict[str, Any]) -> str:
    growth = result["memory_growth_percent"]
    ok = growth < 5.0 and result["server_errors_5xx"] == 0
    group = result.get("group")
    if group is not None:
        ok = ok and not group["takeovers"] and not group["generation_bumps"]
    takeovers = "" if group is None else f", {group['takeovers']:g} takeovers of the group"
    return (
        f"{'PASS' if ok else 'FAIL'}: {result['receivers']} receivers, {result['seconds']:.0f} s, "
        f"{result['requests']} requests, {result['server_errors_5xx']} 5xx, "
        f"{result['slow_answers']} over {SLOW_S:.0f} s ({result['slow_share']:.2%}), memory "
        f"{result['memory_mb']['start']:.1f} -> {result['memory_mb']['end']:.1f} MB "
        f"({growth:+.1f} %), {result['receiver_connects']} receiver connects{takeovers}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--receivers", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30 * 60)
    parser.add_argument("--operators", type=int, default=4)
    parser.add_argument("--server", choices=["uvicorn", "granian"], default="uvicorn")
    parser.add_argument(
        "--group",
        action="store_true",
        help="on the active host of a group of two on PostgreSQL; count the group's takeovers",
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    result = soak(args.receivers, args.seconds, args.operators, args.server, args.group)
    out = args.out or Path(__file__).parent / "results" / f"soak-{dt.date.today()}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(verdict(result))
    print(f"report: {out}")
    sys.exit(0 if verdict(result).startswith("PASS") else 1)


if __name__ == "__main__":
    main()
