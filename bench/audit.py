"""The audit trail's figures (docs/audit.md).

1. **Durable writes with the trail and without it.** The trail cannot be turned off (it
   is not a setting an operator would want), so the host of this tree is measured against
   (``--against cut``, the default) the same host started with the trail cut out for the
   benchmark alone (``CUT``: the change path makes and writes no entry, every other line
   is the same), or (``--against before``) the host of the commit before the trail was
   added (a git worktree of it, run from its own source: it also lacks everything added
   since). The same seed (10 displays, 100 sources), the same load
   (``PUT /api/displays/{id}/tag``, wrk, 16 connections), rounds alternating between the
   two, or (``--together``) both hosts loaded at once in every round, so that a machine
   whose speed drifts from one second to the next (one shared with other work) slows
   both alike; the ratio is taken round by round. Goal: the host with the trail does at
   least 90 % of the writes per second of the host without.
2. **A filtered page over a million entries.** A data directory whose trail holds
   ``--entries`` entries (written through the store's own chaining, 20 users, 5,000
   targets, 40 operations, one entry every 30 s: about a year), then one client asks
   ``GET /api/audit`` for a page (100 entries) by user, by target, by operation, by a
   day's window a few months back, by user within a week, and a page deep in the trail
   (``before`` half way); time to the whole answer, per request. Goal: every filtered page
   answered in < 100 ms (p95).

``python bench/audit.py`` (``--quick`` for short loads); results go to
bench/results/audit-DATE[-LABEL].json and .md.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.audit_writes import durable, durable_lines, host, log  # noqa: E402
from bench.procs import login  # noqa: E402
from bench.seed import ADMIN, PASSWORD  # noqa: E402

USERS = [f"operator{n:02d}" for n in range(19)] + ["schedule"]
OPERATIONS = [f"PUT /api/resource{n:02d}/{{id}}" for n in range(40)]
TARGETS = 5000
STEP_MS = 30_000


# --- 2. a filtered page over many entries


async def fill(data_dir: Path, entries: int, start_ms: int) -> None:
    """A data directory whose trail holds ``entries`` entries, written through the
    store's own chaining, 10,000 to a transaction."""
    from tilewall.host.audit import AuditRecord, Target, encode_changes
    from tilewall.store import audit as audit_sql
    from tilewall.store import open_store

    rng = random.Random(27)
    store = await open_store(data_dir)
    appender = audit_sql.Appender("sqlite")
    try:
        written = 0
        while written < entries:
            records = []
            for n in range(written, min(written + 10_000, entries)):
                target = rng.randrange(TARGETS)
                change = {
                    "kind": "source",
                    "id": f"t{target:05d}",
                    "name": f"Source {target}",
                    "changed": {"name": {"before": f"old {n}", "after": f"new {n}"}},
                }
                records.append(
                    AuditRecord(
                        start_ms + n * STEP_MS,
                        rng.choice(USERS),
                        f"10.0.{rng.randrange(4)}.{rng.randrange(250)}",
                        f"{rng.getrandbits(48):012x}",
                        rng.choice(OPERATIONS),
                        Target("source", f"t{target:05d}", f"Source {target}"),
                        encode_changes([change]),
                    )
                )
            async with store.engine.begin() as conn:
                await appender.append(conn, records)
            written += len(records)
            if written % 200_000 == 0:
                log(f"{written} entries written")
        await store.write_audit_keys()  # as the host does a second after appending
    finally:
        await store.close()


def iso(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def reads(work: Path, entries: int, repeats: int) -> dict[str, Any]:
    data_dir = work / "data-million"
    start_ms = int(time.time() * 1000) - entries * STEP_MS
    log(f"writing {entries} entries")
    began = time.perf_counter()
    asyncio.run(fill(data_dir, entries, start_ms))
    fill_s = time.perf_counter() - began
    day = start_ms + entries * STEP_MS // 3
    queries: dict[str, dict[str, str | int]] = {
        "user": {"user": USERS[3]},
        "target": {"target": "t01234"},
        "operation": {"operation": OPERATIONS[7]},
        "a day's window": {"since": iso(day), "until": iso(day + 86_400_000)},
        "user within a week": {
            "user": USERS[5],
            "since": iso(day),
            "until": iso(day + 7 * 86_400_000),
        },
        "deep page (before half way)": {"before": entries // 2},
        "unfiltered": {},
    }
    proc = host(ROOT, data_dir, "million", work)
    out: dict[str, Any] = {"entries": entries, "fill_s": fill_s, "queries": {}}
    try:
        proc.start()
        cookie = login(proc.base_url, ADMIN, PASSWORD).split("=", 1)[1]
        with httpx.Client(base_url=proc.base_url, cookies={"JSESSIONID": cookie}) as client:
            for name, params in queries.items():
                times = []
                for _ in range(repeats):
                    began = time.perf_counter()
                    response = client.get("/api/audit", params={**params, "limit": 100})
                    times.append((time.perf_counter() - began) * 1000)
                    assert response.status_code == 200, response.text
                body = response.json()
                assert body["verified"] is True
                times.sort()
                out["queries"][name] = {
                    "params": params,
                    "returned": len(body["entries"]),
                    "p50_ms": statistics.median(times),
                    "p95_ms": times[min(len(times) - 1, int(len(times) * 0.95))],
                    "max_ms": times[-1],
                }
                log(f"{name}: p50 {out['queries'][name]['p50_ms']:.1f} ms")
    finally:
        proc.stop()
    return out


def report(results: dict[str, Any]) -> str:
    lines = [
        f"# Audit trail figures, {results['date']}",
        "",
        f"Machine load (1-minute average) at the start: {results['load_start']:.1f}, "
        f"at the end: {results['load_end']:.1f}.",
        "",
    ]
    if "durable" in results:
        lines += durable_lines(results["durable"])
    if "reads" in results:
        lines += _read_lines(results["reads"])
    return "\n".join(lines) + "\n"


def _read_lines(r: dict[str, Any]) -> list[str]:
    lines = [
        f"## `GET /api/audit`, a page of 100, over {r['entries']:,} entries",
        "",
        f"(written in {r['fill_s']:.0f} s)",
        "",
        "| filter | returned | p50 | p95 | max |",
        "|---|---|---|---|---|",
    ]
    for name, q in r["queries"].items():
        lines.append(
            f"| {name} | {q['returned']} | {q['p50_ms']:.1f} ms | {q['p95_ms']:.1f} ms "
            f"| {q['max_ms']:.1f} ms |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else "")
    parser.add_argument("--quick", action="store_true", help="short loads, 100,000 entries")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=int, default=4)
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--parts", default="durable,reads", help="durable, reads or both")
    parser.add_argument("--label", default="", help="added to the results' file names")
    parser.add_argument(
        "--against",
        choices=("cut", "before"),
        default="cut",
        help="the host without the trail: this one with it cut out, or the commit before it",
    )
    parser.add_argument(
        "--together",
        action="store_true",
        help="load both hosts at once in each round (for a machine whose speed drifts)",
    )
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.seconds, args.entries, args.repeats = 2, 2, 100_000, 10
    results: dict[str, Any] = {
        "date": dt.date.today().isoformat(),
        "load_start": os.getloadavg()[0],
    }
    with tempfile.TemporaryDirectory(prefix="tilewall-audit-bench-") as folder:
        work = Path(folder)
        parts = args.parts.split(",")
        if "durable" in parts:
            results["durable"] = durable(
                work, args.rounds, args.seconds, args.against, args.together
            )
        if "reads" in parts:
            results["reads"] = reads(work, args.entries, args.repeats)
    results["load_end"] = os.getloadavg()[0]
    out = HERE / "results"
    label = f"audit-{results['date']}" + ("-quick" if args.quick else "")
    label += f"-{args.label}" if args.label else ""
    (out / f"{label}.json").write_text(json.dumps(results, indent=2))
    (out / f"{label}.md").write_text(report(results))
    print(report(results))


if __name__ == "__main__":
    main()
