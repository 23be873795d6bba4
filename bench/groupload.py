"""A host group under the heaviest load the benchmarks make, and its takeovers.

- ``load``: a group of two hosts on one PostgreSQL database (bench/postgres.py), wrk at
  full rate on **both** hosts (one thread, 16 connections each; reads of the displays
  and zones and zone switches in turn, the standby forwarding its switches to the active
  host), and N receivers coming and going on the active host (bench/churn.py: the
  soak's receivers, in a process of their own), for S seconds. Before and after, each host's
  ``/metrics``: the group's generation, each member's takeovers (of a free lock, after
  ending a stalled member's sessions), its lease lapses, and the age its lease had
  reached at each renewal (database clock). No stall was made, so any takeover is a
  false one: the goal is none, and the oldest lease at renewal well under the lease time.
- ``freeze`` and ``kill``: the takeover after a ``SIGSTOP`` / ``kill -9`` of the active
  host at N receivers (bench/postgres.py, bench/takeover.py).

Run on their own (``make bench`` runs them all, bench/run.py):

    python bench/groupload.py                          # freeze, then load: 1,000 receivers, 60 s
    python bench/groupload.py --parts load --seconds 20 --receivers 200
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.pgserver import PostgresServer

from bench import postgres
from bench.loadgen import Operation, Request, run_wrk
from bench.procs import BENCH, Proc
from bench.seed import Seeded

JSON_HEADERS = {"Content-Type": "application/json"}

#: a sample's value by its name and its labels (sorted)
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@dataclass
class Settings:
    """What bench/settings.py's settings give this module (or the command line)."""

    load_receivers: int = 1000
    load_s: int = 60
    connections: int = 16
    takeover_receivers: list[int] = field(default_factory=list)
    freeze_receivers: list[int] = field(default_factory=lambda: [1000])
    takeover_runs: int = 1
    takeover_timeout_s: float = 60.0
    fanout_connect_timeout_s: float = 90.0
    fanout_stable_s: float = 3.0


def mixed_operation(seeded: Seeded) -> Operation:
    """Reads and switches in turn: the displays, a switch, the zones, another switch."""
    zones = seeded.zones[:8] or ["no-zone"]
    a, b = ([*seeded.sources, "none", "none"])[:2]
    requests: list[Request] = []
    for n, zone in enumerate(zones):
        switch = f"/api/zones/{zone}/switch?destinationSourceId={a if n % 2 else b}"
        requests += [
            Request("GET", "/api/displays"),
            Request("PUT", switch, "{}"),
            Request("GET", "/api/zones"),
            Request("PUT", switch.removesuffix(a if n % 2 else b) + (b if n % 2 else a), "{}"),
        ]
    return Operation("group_mixed", tuple(requests), JSON_HEADERS)


def scrape(proc: Proc, session: str) -> Samples:
    answer = httpx.get(f"{proc.base_url}/metrics", cookies={"JSESSIONID": session}, timeout=10)
    answer.raise_for_status()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(answer.text)
        for s in family.samples
    }


def lease_figures(before: Samples, after: Samples) -> dict[str, Any]:
    """One member's takeovers, lapses and lease renewals between two scrapes."""

    def delta(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    buckets = sorted(
        (float(labels[0][1]), after[(name, labels)] - before.get((name, labels), 0.0))
        for name, labels in after
        if name == "tilewall_group_lease_age_seconds_bucket"
    )
    renewals = delta("tilewall_group_lease_age_seconds_count")
    # the buckets that hold the 99th percentile and the largest: their upper bounds
    p99 = next((bound for bound, n in buckets if renewals and n >= 0.99 * renewals), None)
    most = next((bound for bound, n in buckets if renewals and n >= renewals), None)
    # the oldest since the host started (its start and the receivers' first hellos too)
    oldest = after.get(("tilewall_group_lease_age_max_seconds", ()))
    return {
        "generation": after.get(("tilewall_group_generation", ())),
        "generation_bumps": delta("tilewall_group_generation"),
        "takeovers_stalled": delta("tilewall_group_takeovers_total", how="stalled"),
        "takeovers_free": delta("tilewall_group_takeovers_total", how="free"),
        "lapses": delta("tilewall_group_lease_lapses_total"),
        "renewals": renewals,
        "lease_s": after.get(("tilewall_group_lease_seconds", ())),
        "lease_age_mean_s": delta("tilewall_group_lease_age_seconds_sum") / renewals
        if renewals
        else None,
        "lease_age_p99_at_most_s": p99,
        "lease_age_max_at_most_s": most,
        "lease_age_max_since_start_s": oldest,
    }


def churn(base_url: str, seats: list[str], seconds: float, work: Path) -> dict[str, Any]:
    """Receivers coming and going on ``base_url`` for ``seconds`` (bench/churn.py)."""
    config = work / "churn.json"
    config.write_text(json.dumps({"base_url": base_url, "seats": seats, "seconds": seconds}))
    done = subprocess.run(
        [sys.executable, str(BENCH / "churn.py"), str(config)],
        capture_output=True,
        text=True,
        timeout=seconds * 2 + 120,
    )
    if done.returncode != 0 or not done.stdout.strip():
        return {"error": f"churn failed: {done.stderr[-1500:]}"}
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def load(
    settings: Any, pg: PostgresServer, work: Path, progress: Callable[[str], None]
) -> dict[str, Any]:
    """wrk at full rate on both hosts of a group and churning receivers; the takeovers."""
    n, seconds = settings.load_receivers, settings.load_s
    progress(f"group load, seeding {n} displays on PostgreSQL")
    url, seeded = postgres.seed_database(pg, work / "seed" / "group-load", max(n, 4), 2)
    first = postgres.member_proc(url, work, "load-first")
    second = postgres.member_proc(url, work, "load-second")
    out: dict[str, Any] = {
        "status": "measured",
        "what": "a group of two on one PostgreSQL: wrk at full rate on both hosts "
        f"({settings.connections} connections each, reads and zone switches in turn) and "
        f"{n} receivers coming and going on the active host for {seconds} s; takeovers, "
        "generation bumps, lease lapses, the lease's age at each renewal",
        "receivers": n,
        "seconds": seconds,
        "goal": {"takeovers": 0, "generation_bumps": 0},
    }
    try:
        with first, second:
            session = postgres.start_group(first, second)
            before = {p.name: scrape(p, session) for p in (first, second)}
            progress(f"group load, {seconds} s at full rate on both hosts, {n} receivers")
            cookie = f"JSESSIONID={session}"
            op = mixed_operation(seeded)
            load_before = os.getloadavg()[0]
            with ThreadPoolExecutor(3) as pool:
                receivers = pool.submit(
                    churn,
                    first.base_url,
                    [f"bench-{i:05d}" for i in range(n)],
                    seconds + 10,
                    work,
                )
                time.sleep(10)  # the receivers connect before the load starts
                wrk = {
                    p.name: pool.submit(
                        run_wrk, p.base_url, op, cookie, seconds, settings.connections, work
                    )
                    for p in (first, second)
                }
                out["wrk"] = {name: job.result() for name, job in wrk.items()}
                out["churn"] = receivers.result()
            out["load_average_1m"] = {"start": load_before, "end": os.getloadavg()[0]}
            after = {p.name: scrape(p, session) for p in (first, second)}
            out["roles_after"] = {p.name: postgres.role(p, session) for p in (first, second)}
            out["members"] = {
                name: lease_figures(before[name], after[name]) for name in (first.name, second.name)
            }
            if any("error" in line for line in (out["churn"], *out["wrk"].values()) if line):
                out["log_tail"] = first.log_tail(800)
    except Exception as error:  # reported, not fatal to the other benchmarks
        out["status"] = "failed"
        out["error"] = f"{type(error).__name__}: {error}"[:800]
    finally:
        with contextlib.suppress(Exception):
            pg.drop_database(url)
    members = out.get("members") or {}
    out["takeovers"] = sum(m["takeovers_stalled"] + m["takeovers_free"] for m in members.values())
    out["generation_bumps"] = max((m["generation_bumps"] for m in members.values()), default=0)
    out["meets_goal"] = bool(members) and not out["takeovers"] and not out["generation_bumps"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="freeze,load", help="freeze,kill,load")
    parser.add_argument("--receivers", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=60, help="of the load part")
    parser.add_argument("--runs", type=int, default=1, help="of the takeovers")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    parts = args.parts.split(",")
    settings = Settings(
        load_receivers=args.receivers,
        load_s=args.seconds,
        takeover_receivers=[args.receivers] if "kill" in parts else [],
        freeze_receivers=[args.receivers] if "freeze" in parts else [],
        takeover_runs=args.runs,
    )

    def progress(message: str) -> None:
        print(f"[group {time.strftime('%H:%M:%S')}] {message}", flush=True)

    if postgres.missing():
        sys.exit(postgres.missing())
    results: dict[str, Any] = {"load_average_1m_start": os.getloadavg()[0]}
    (BENCH / ".work").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=BENCH / ".work") as tmp, postgres.server() as pg:
        work = Path(tmp)
        for how in ("kill", "freeze"):
            if how in parts:
                results[how] = postgres.takeover(settings, pg, work, progress, how=how)
        if "load" in parts:
            results["load"] = load(settings, pg, work, progress)
    results["load_average_1m_end"] = os.getloadavg()[0]
    results["finished"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    out = args.out or BENCH / "results" / f"group-{dt.date.today()}.json"
    out.write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(_brief(results), indent=1))
    print(f"report: {out}")


def _brief(results: dict[str, Any]) -> dict[str, Any]:
    """The figures of a run, without the runs' details."""
    brief: dict[str, Any] = {}
    for how in ("kill", "freeze"):
        for n, e in (results.get(how) or {}).get("by_receivers", {}).items():
            brief[f"{how} {n}"] = {
                "all_back_s": e["all_back_s"],
                "first_write_s": e["first_write_s"],
                "woken": [r.get("woken") for r in e["runs"]],
                "errors": e.get("errors"),
            }
    if "load" in results:
        brief["load"] = {k: v for k, v in results["load"].items() if k != "log_tail"}
    return brief


if __name__ == "__main__":
    main()
