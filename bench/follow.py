"""How far a hot standby lags behind the active host of its group (the README's "follow
every change within a second"): a group of two hosts on one PostgreSQL (a throw-away
server of its own, as bench/postgres.py starts), the first one active; the client
creates a source on the active host (``POST /api/sources``) and, from the moment the
answer is in, asks the standby for it (``GET /api/sources/{id}``, every 5 ms) until it
answers 200: that time, per write, over ``--writes`` writes, one after the other, then as
many again while the active host is kept busy with other writes (wrk, 8 connections,
``PUT /api/displays/{id}/tag``). Goal: p95 under one second, either way.

    PYTHONPATH=src:. python -m bench.follow --writes 40

Results go to bench/results/follow-DATE.json and .md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bench.loadgen import run_wrk
from bench.operations import tag_operation
from bench.postgres import member_proc, missing, seed_database, server, start_group
from bench.syncframes import percentile
from tilewall.client.base import COOKIE

HERE = Path(__file__).resolve().parent
GOAL_MS = 1000.0


def lag_ms(active: httpx.Client, standby: httpx.Client, n: int) -> float:
    """One write to the active host; the ms until the standby serves it."""
    body = {
        "sourceName": f"followed {n} {time.monotonic_ns()}",
        "sourceType": "Web Browser",
        "params": [{"type": "", "paramName": "URL", "paramValue": "https://example.com/"}],
    }
    answer = active.post("/api/sources", json=body)
    answer.raise_for_status()
    written = time.perf_counter()
    path = f"/api/sources/{answer.json()['sourceId']}"
    while standby.get(path).status_code != 200:
        if time.perf_counter() - written > 30:
            raise RuntimeError(f"the standby did not follow write {n} within 30 s")
        time.sleep(0.005)
    return (time.perf_counter() - written) * 1000


def figures(lags: list[float]) -> dict[str, Any]:
    p95 = percentile(lags, 95)
    return {
        "n": len(lags),
        "p50_ms": percentile(lags, 50),
        "p95_ms": p95,
        "max_ms": max(lags),
        "met": p95 is not None and p95 < GOAL_MS,
    }


def measure(writes: int, work: Path) -> dict[str, Any]:
    with server() as pg:
        url, seeded = seed_database(pg, work / "seed", 10, 10)
        first, second = member_proc(url, work, "first"), member_proc(url, work, "second")
        with first, second:
            session = start_group(first, second)
            cookies = {"JSESSIONID": session}
            with (
                httpx.Client(base_url=first.base_url, cookies=cookies, timeout=30) as active,
                httpx.Client(base_url=second.base_url, cookies=cookies, timeout=30) as standby,
            ):
                lag_ms(active, standby, -1)  # warm-up
                idle = [lag_ms(active, standby, n) for n in range(writes)]
                seconds = max(5, writes // 4)
                busy_load = threading.Thread(
                    target=run_wrk,
                    args=(first.base_url, tag_operation(seeded), f"{COOKIE}={session}"),
                    kwargs={"duration_s": seconds, "connections": 8, "work_dir": work},
                )
                busy_load.start()
                time.sleep(0.5)
                busy: list[float] = []
                while busy_load.is_alive() and len(busy) < writes:
                    busy.append(lag_ms(active, standby, writes + len(busy)))
                busy_load.join()
    return {"idle": figures(idle), "busy": figures(busy)}


def report(results: dict[str, Any]) -> str:
    lines = [
        f"# A standby's lag behind the active host, {results['date']}",
        "",
        f"Machine load (1-minute average) at the start: {results['load_start']:.1f}, "
        f"at the end: {results['load_end']:.1f}. Goal: p95 < {GOAL_MS:.0f} ms.",
        "",
        "| the active host | writes | p50 | p95 | max | met |",
        "|---|---|---|---|---|---|",
    ]
    for name, what in (("idle", "otherwise idle"), ("busy", "under writes (wrk, 8)")):
        f = results[name]
        lines.append(
            f"| {what} | {f['n']} | {f['p50_ms']:.1f} ms | {f['p95_ms']:.1f} ms "
            f"| {f['max_ms']:.1f} ms | {'yes' if f['met'] else 'no'} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else "")
    parser.add_argument("--writes", type=int, default=40)
    parser.add_argument("--label", default="", help="added to the results' file names")
    args = parser.parse_args()
    why = missing()
    if why is not None:
        raise SystemExit(why)
    results: dict[str, Any] = {
        "date": dt.date.today().isoformat(),
        "load_start": os.getloadavg()[0],
    }
    with tempfile.TemporaryDirectory(prefix="tilewall-follow-bench-") as folder:
        results.update(measure(args.writes, Path(folder)))
    results["load_end"] = os.getloadavg()[0]
    label = f"follow-{results['date']}" + (f"-{args.label}" if args.label else "")
    (HERE / "results" / f"{label}.json").write_text(json.dumps(results, indent=2))
    (HERE / "results" / f"{label}.md").write_text(report(results))
    print(report(results))


if __name__ == "__main__":
    main()
