"""tilewall benchmarks: interface throughput and latency against the stack's ceiling and
Prism, with uvicorn and granian, at 10/100/1000 displays; memory and start-up; durable
writes; growth; receivers (switch fan-out over WebSockets, wall sync in Chromium, memory
with receivers, bench/receivers.py); PostgreSQL (the interface on PostgreSQL beside
SQLite, and the takeover of a group of two hosts with 100 and 1,000 receivers,
bench/postgres.py). Writes bench/results/<date>.json and .md (+ plots), and the latest
run's block of BENCHMARKS.md (bench/page.py).

    python bench/run.py            # the full set (make bench), about 15 minutes
    python bench/run.py --quick    # one run of each, shorter loads (make bench-quick)
    python bench/run.py --quick --only-receivers --no-benchmarks-md --label try
                                   # the receiver benchmarks, the rest as small as it goes
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import importlib.metadata
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import psutil

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import groupload, postgres, receivers
from bench.loadgen import Operation, Request, run_wrk, wrk_path, wrk_version
from bench.procs import (
    BENCH,
    PRISM,
    Proc,
    ceiling_proc,
    login,
    prism_proc,
    prism_version,
    tilewall_proc,
)
from bench.seed import ADMIN, PASSWORD, Seeded, seed
from bench.stats import geomean, stats
from tilewall.client import Client

ROOT = BENCH.parent
RESULTS = BENCH / "results"
OPS = ("displays", "zones", "sources", "system", "zone_switch")
SERVERS = ("uvicorn", "granian")
#: the server ``tilewall serve`` uses when --server is not given
DEFAULT_SERVER = "uvicorn"
#: topologies up to this many displays and sources are seeded in this process
SEED_IN_PROCESS = 50


@dataclass
class Settings:
    topologies: list[int] = field(default_factory=lambda: [10, 100, 1000])
    servers: list[str] = field(default_factory=lambda: list(SERVERS))
    ops: list[str] = field(default_factory=lambda: list(OPS))
    #: repetitions of every measurement; figures are medians over these
    runs: int = 3
    duration_s: int = 4
    warmup_s: int = 1
    connections: int = 16
    #: operations also measured with one connection (one client, one request at a time)
    one_client_ops: list[str] = field(default_factory=lambda: ["zone_switch"])
    sources: int = 20
    ceiling: bool = True
    prism: bool = True
    startup_runs: int = 3
    durable_sources: list[int] = field(default_factory=lambda: [10, 100, 1000])
    durable_connections: list[int] = field(default_factory=lambda: [1, 16])
    durable_duration_s: int = 3
    durable_displays: int = 10
    #: servers of the start-up benchmark (None: the same as ``servers``)
    startup_servers: list[str] | None = None
    #: operations run against Prism (None: the same as ``ops``)
    prism_ops: list[str] | None = None
    #: receiver benchmarks (bench/receivers.py)
    receivers: bool = True
    #: switch fan-out: receivers in one zone, and receivers in walls of four
    fanout_one_zone: list[int] = field(default_factory=lambda: [4, 100, 1000])
    fanout_walls: list[int] = field(default_factory=lambda: [4, 100, 1000])
    fanout_switches: int = 20
    fanout_connect_timeout_s: float = 90.0
    #: connected receivers count as settled (switches start, memory is sampled) when
    #: none reconnected for this long
    fanout_stable_s: float = 3.0
    #: one zone of many receivers may never connect (docs/performance-notes.md): give up sooner
    fanout_one_zone_timeout_s: float = 30.0
    #: host RSS with this many receivers connected (and with none)
    memory_receivers: list[int] = field(default_factory=lambda: [100, 1000])
    #: wall sync in Chromium: tiles of one zone, seconds sampled while playing, after a
    #: seek and after resuming, and how long tiles may take to settle
    sync_tiles: list[int] = field(default_factory=lambda: [4, 9])
    sync_play_s: float = 30.0
    sync_after_s: float = 6.0
    sync_settle_timeout_s: float = 8.0
    #: PostgreSQL (bench/postgres.py): the interface on PostgreSQL beside SQLite, on the
    #: default server, at ``store_displays`` displays, operations ``store_ops``
    postgres: bool = True
    store_displays: int = 100
    store_ops: list[str] = field(
        default_factory=lambda: ["displays", "zones", "zone_switch", "display_tag"]
    )
    #: the takeover of a group of two hosts, with this many receivers, runs of each
    takeover_receivers: list[int] = field(default_factory=lambda: [100, 1000])
    takeover_runs: int = 3
    takeover_timeout_s: float = 60.0
    #: the same after a freeze (SIGSTOP) of the active host, with this many receivers
    freeze_receivers: list[int] = field(default_factory=lambda: [1000])
    #: a group of two under wrk at full rate on both hosts and this many churning
    #: receivers, for this long (bench/groupload.py; 0 receivers: not run)
    load_receivers: int = 1000
    load_s: int = 60
    quick: bool = False


FULL = Settings()
QUICK = Settings(
    runs=1,
    duration_s=2,
    warmup_s=1,
    startup_runs=1,
    durable_duration_s=2,
    fanout_switches=5,
    fanout_connect_timeout_s=60.0,
    sync_play_s=8.0,
    sync_after_s=3.0,
    takeover_runs=1,
    load_s=20,
    quick=True,
)
#: every benchmark once with tiny settings, to check that they all still run (the tests'
#: tests/system/test_bench_smoke.py); its figures mean nothing
SMOKE = Settings(
    topologies=[4],
    servers=["granian"],
    startup_servers=["uvicorn"],
    ops=["displays", "zone_switch"],  # the other GETs run the same Lua as displays
    prism_ops=["zone_switch"],
    runs=1,
    duration_s=1,
    warmup_s=0,
    connections=2,
    sources=2,
    startup_runs=1,
    durable_sources=[3],
    durable_connections=[2],
    durable_duration_s=1,
    durable_displays=4,
    fanout_one_zone=[3],
    fanout_walls=[3, 8],
    fanout_switches=2,
    fanout_connect_timeout_s=20,
    fanout_stable_s=0.3,
    memory_receivers=[8],
    sync_tiles=[1],  # none where Chromium is missing (parse_args)
    sync_play_s=1.0,
    sync_after_s=0.3,
    sync_settle_timeout_s=1.0,
    store_displays=4,
    store_ops=["zones", "display_tag"],
    takeover_receivers=[4],
    takeover_runs=1,
    takeover_timeout_s=30.0,
    freeze_receivers=[],  # the freeze waits for a whole lease: left out of the smoke
    load_receivers=0,  # as the group's load, whose figures need seconds of load
    quick=True,
)


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


# ---------------------------------------------------------------------------- setup


def seed_all(settings: Settings, work: Path) -> dict[str, Path]:
    """Seed every data directory the run needs: small ones here, large ones in parallel
    processes (seeding 1,000 displays is some thousands of durable transactions)."""
    jobs: dict[str, tuple[int, int, bool]] = {}
    for n in settings.topologies:
        jobs[f"topo-{n}"] = (n, settings.sources, False)
    for s in settings.durable_sources:
        jobs[f"durable-{s}"] = (settings.durable_displays, s, False)
    jobs.update(receivers.seed_jobs(settings))
    if settings.postgres:
        jobs[f"store-{settings.store_displays}"] = (
            settings.store_displays,
            settings.sources,
            False,
        )
    procs: dict[str, subprocess.Popen[bytes]] = {}
    dirs: dict[str, Path] = {}
    for key, (displays, sources, one_zone) in jobs.items():
        dirs[key] = work / "seed" / key
        if displays + sources <= SEED_IN_PROCESS:
            seed(dirs[key], displays, sources, one_zone)
            continue
        procs[key] = subprocess.Popen(
            [
                sys.executable,
                str(BENCH / "seed.py"),
                str(dirs[key]),
                "--displays",
                str(displays),
                "--sources",
                str(sources),
                *(["--one-zone"] if one_zone else []),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
    for key, proc in procs.items():
        out, _ = proc.communicate(timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(f"seeding {key} failed:\n{out.decode(errors='replace')}")
    return dirs


def one_client(name: str) -> str:
    """The results key of operation ``name`` measured with one connection."""
    return f"{name}@1"


def operations(seeded: Seeded) -> dict[str, Operation]:
    zone = seeded.zones[0] if seeded.zones else "no-zone"
    a, b = ([*seeded.sources, "none", "none"])[:2]
    json_headers = {"Content-Type": "application/json"}
    switch = f"/api/zones/{zone}/switch?destinationSourceId="
    return {
        "displays": Operation("displays", (Request("GET", "/api/displays"),)),
        "zones": Operation("zones", (Request("GET", "/api/zones"),)),
        "sources": Operation("sources", (Request("GET", "/api/sources"),)),
        "system": Operation("system", (Request("GET", "/api/system"),)),
        # the body {} is accepted by tilewall and needed by Prism, whose reading of the
        # OpenAPI document makes the switch body required
        "zone_switch": Operation(
            "zone_switch",
            (Request("PUT", switch + a, "{}"), Request("PUT", switch + b, "{}")),
            json_headers,
        ),
    }


def tag_operation(seeded: Seeded) -> Operation:
    """PUT display tag, cycling over the displays and over changing values."""
    reqs = tuple(
        Request("PUT", f"/api/displays/{d}/tag", json.dumps({"displayTag": f"bench tag {i}"}))
        for i, d in enumerate(seeded.displays[:8] * 2)
    )
    return Operation("display_tag", reqs, {"Content-Type": "application/json"})


@contextlib.contextmanager
def running(procs: list[Proc]) -> Iterator[list[Proc]]:
    """Start the processes side by side (their start-up is not what is measured here)."""
    try:
        with ThreadPoolExecutor(max_workers=max(len(procs), 1)) as pool:
            for future in [pool.submit(proc.start) for proc in procs]:
                future.result()
        yield procs
    finally:
        for proc in procs:
            proc.stop()


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "rps": stats(r["rps"] for r in runs),
        "p50_ms": stats(r["p50_ms"] for r in runs),
        "p99_ms": stats(r["p99_ms"] for r in runs),
        "failed": sum(r["failed"] for r in runs),
        "runs": runs,
    }


def percentile_curve(runs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """For each latency percentile, median and spread over the runs (for plots)."""
    keys = runs[0]["latency_ms"].keys() if runs else []
    return {k: stats(r["latency_ms"][k] for r in runs) for k in keys}


# ---------------------------------------------------------------------------- benchmarks


PING = Operation("ping", (Request("GET", "/api/ping"),))
#: what one kind of measurement gave, run after run
Runs = list[dict[str, Any]]
#: a tilewall server: which server program, at how many displays
Served = tuple[str, int]


@dataclass
class InterfaceRounds:
    """The servers of the interface benchmark (tilewall on each server and topology, the
    ceiling on each server, Prism) and what each round measured of them."""

    settings: Settings
    work: Path
    procs: dict[Served, Proc]
    ceilings: dict[str, Proc]
    cookies: dict[Served, str] = field(default_factory=dict)
    ops: dict[int, dict[str, Operation]] = field(default_factory=dict)
    prism: Proc | None = None
    prism_ops: dict[str, Operation] = field(default_factory=dict)
    #: by (server, displays, operation); by server; by operation
    tilewall_runs: dict[tuple[str, int, str], Runs] = field(default_factory=dict)
    ceiling_runs: dict[str, Runs] = field(default_factory=dict)
    prism_runs: dict[str, Runs] = field(default_factory=dict)

    @property
    def first(self) -> Served:
        """The server and topology Prism's document and cookie come from."""
        return (self.settings.servers[0], self.settings.topologies[0])

    @property
    def prism_names(self) -> list[str]:
        s = self.settings
        return s.ops if s.prism_ops is None else s.prism_ops

    def log_in(self, seeds: dict[str, Path]) -> None:
        self.cookies = {key: login(p.base_url, ADMIN, PASSWORD) for key, p in self.procs.items()}
        self.ops = {
            n: operations(Seeded.read(seeds[f"topo-{n}"])) for n in self.settings.topologies
        }

    def prism_proc(self) -> Proc:
        """Prism serving the first tilewall's own OpenAPI document."""
        document = self.work / "openapi.json"
        with Client(self.procs[self.first].base_url) as host:
            document.write_text(json.dumps(host.openapi()))
        self.prism_ops = self.ops[self.settings.topologies[0]]
        self.prism = prism_proc(document, self.work, self.cookies[self.first])
        return self.prism

    def load(
        self, proc: Proc, op: Operation, cookie: str, seconds: int, connections: int = 0
    ) -> dict[str, Any]:
        s = self.settings
        result = run_wrk(
            proc.base_url, op, cookie, seconds, connections or s.connections, self.work
        )
        result["settle_s"] = proc.settle()
        return result

    def warm_up(self) -> None:
        seconds = self.settings.warmup_s
        for (server, n), proc in self.procs.items():
            for name in self.settings.ops:
                self.load(proc, self.ops[n][name], self.cookies[(server, n)], seconds)
        for proc in self.ceilings.values():
            self.load(proc, PING, "", seconds)
        if self.prism is not None:
            for name in self.prism_names:
                self.load(self.prism, self.prism_ops[name], self.cookies[self.first], seconds)

    def measure_round(self, r: int) -> None:
        """Round ``r``: Prism, then on each server the ceiling and every topology."""
        seconds = self.settings.duration_s
        if self.prism is not None:
            for name in self.prism_names:
                run = self.load(self.prism, self.prism_ops[name], self.cookies[self.first], seconds)
                self.prism_runs.setdefault(name, []).append(run)
        for server in self.settings.servers:
            if server in self.ceilings:
                run = self.load(self.ceilings[server], PING, "", seconds)
                self.ceiling_runs.setdefault(server, []).append(run)
            for n in self.settings.topologies:
                self.measure_tilewall(r, server, n)

    def measure_tilewall(self, r: int, server: str, n: int) -> None:
        """Every operation on one server and topology, each beside the ceiling's and
        Prism's of the same round; then those measured with one client."""
        proc, ops, cookie = self.procs[(server, n)], self.ops[n], self.cookies[(server, n)]
        seconds = self.settings.duration_s
        for name in self.settings.ops:
            result = self.load(proc, ops[name], cookie, seconds)
            ceiling = self.ceiling_runs.get(server, [None] * (r + 1))[r]
            prism_run = self.prism_runs.get(name, [None] * (r + 1))[r]
            result["vs_ceiling"] = result["rps"] / ceiling["rps"] if ceiling else None
            result["vs_prism"] = result["rps"] / prism_run["rps"] if prism_run else None
            self.tilewall_runs.setdefault((server, n, name), []).append(result)
        for name in [o for o in self.settings.one_client_ops if o in self.settings.ops]:
            result = self.load(proc, ops[name], cookie, seconds, connections=1)
            result["vs_ceiling"] = result["vs_prism"] = None
            self.tilewall_runs.setdefault((server, n, one_client(name)), []).append(result)


def bench_interface(settings: Settings, seeds: dict[str, Path], work: Path) -> dict[str, Any]:
    """Throughput and latency of the read and switch operations, with the ceiling and
    Prism measured in the same rounds so that ratios compare like with like."""
    procs: dict[Served, Proc] = {}
    ceilings: dict[str, Proc] = {}
    for server in settings.servers:
        for n in settings.topologies:
            procs[(server, n)] = tilewall_proc(seeds[f"topo-{n}"], work, server, f"{server}-{n}")
        if settings.ceiling:
            ceilings[server] = ceiling_proc(work, server, server)
    rounds = InterfaceRounds(settings, work, procs, ceilings)
    with running([*procs.values(), *ceilings.values()]):
        rounds.log_in(seeds)
        rss_idle = {key: p.rss_bytes() for key, p in procs.items()}
        with running([rounds.prism_proc()] if settings.prism else []):
            if settings.warmup_s > 0:
                log("warm-up")
                rounds.warm_up()
            for r in range(settings.runs):
                log(f"interface round {r + 1}/{settings.runs}")
                rounds.measure_round(r)
            rss_loaded = {key: p.rss_bytes() for key, p in procs.items()}
            prism_rss = rounds.prism.rss_bytes() if rounds.prism else None
    out = interface_results(rounds, rss_idle, rss_loaded)
    if prism_rss is not None:
        out["prism_rss_mb"] = prism_rss / 2**20
    return out


def interface_results(
    rounds: InterfaceRounds, rss_idle: dict[Served, int], rss_loaded: dict[Served, int]
) -> dict[str, Any]:
    """The rounds' figures: medians and spreads, ratios, latency curves, memory."""
    out: dict[str, Any] = {"servers": {}, "ceiling": {}, "prism": {}}
    for (server, n, name), runs in rounds.tilewall_runs.items():
        entry = summarise(runs)
        entry["vs_ceiling"] = stats(r["vs_ceiling"] for r in runs if r["vs_ceiling"])
        entry["vs_prism"] = stats(r["vs_prism"] for r in runs if r["vs_prism"])
        entry["latency_curve_ms"] = percentile_curve(runs)
        topo = out["servers"].setdefault(server, {}).setdefault(str(n), {"ops": {}})
        topo["ops"][name] = entry
        topo["rss_idle_mb"] = rss_idle[(server, n)] / 2**20
        topo["rss_after_load_mb"] = rss_loaded[(server, n)] / 2**20
    for kind, by in (("ceiling", rounds.ceiling_runs), ("prism", rounds.prism_runs)):
        for key, runs in by.items():
            out[kind][key] = summarise(runs)
            out[kind][key]["latency_curve_ms"] = percentile_curve(runs)
    out["granian_vs_uvicorn"] = server_comparison(rounds.tilewall_runs, rounds.settings)
    return out


def server_comparison(
    t_runs: dict[tuple[str, int, str], list[dict[str, Any]]], settings: Settings
) -> dict[str, Any] | None:
    """granian/uvicorn requests per second, per operation and topology, round by round."""
    if not {"uvicorn", "granian"} <= set(settings.servers):
        return None
    per: dict[str, Any] = {}
    for n in settings.topologies:
        for name in settings.ops:
            g = t_runs[("granian", n, name)]
            u = t_runs[("uvicorn", n, name)]
            per[f"{n}/{name}"] = stats(a["rps"] / b["rps"] for a, b in zip(g, u, strict=True))
    overall = geomean(v["median"] for v in per.values())
    return {
        "rps_ratio": per,
        "geomean": overall,
        "faster": "granian" if (overall or 1) > 1 else "uvicorn",
    }


def bench_startup(settings: Settings, seeds: dict[str, Path], work: Path) -> dict[str, Any]:
    """Spawn to first answered GET /api/openapi.json, and idle RSS once it has answered.

    The host keeps its encoded OpenAPI document between starts (in the user's cache, as
    the interface benchmark's servers left it); the row "N cold" starts with an empty
    cache, as the first start after an install or upgrade does."""
    rows: dict[tuple[str, str], list[dict[str, float]]] = {}
    for r in range(settings.startup_runs):
        log(f"start-up round {r + 1}/{settings.startup_runs}")
        for server in settings.startup_servers or settings.servers:
            for n in settings.topologies:
                proc = tilewall_proc(seeds[f"topo-{n}"], work, server, f"start-{server}-{n}")
                with proc:
                    proc.start()
                    time.sleep(0.5)
                    rows.setdefault((server, str(n)), []).append(
                        {"startup_s": proc.startup_s, "rss_idle_mb": proc.rss_bytes() / 2**20}
                    )
            n = min(settings.topologies)
            proc = tilewall_proc(seeds[f"topo-{n}"], work, server, f"start-{server}-{n}-cold")
            empty = str(Path(tempfile.mkdtemp(prefix="cache-", dir=work)))
            proc.env.update(XDG_CACHE_HOME=empty, CACHE_DIRECTORY=empty)
            with proc:
                proc.start()
                time.sleep(0.5)
                rows.setdefault((server, f"{n} cold"), []).append(
                    {"startup_s": proc.startup_s, "rss_idle_mb": proc.rss_bytes() / 2**20}
                )
            if settings.ceiling:
                proc = ceiling_proc(work, server, f"start-{server}")
                with proc:
                    proc.start()
                    time.sleep(0.5)
                    rows.setdefault((server, "ceiling"), []).append(
                        {"startup_s": proc.startup_s, "rss_idle_mb": proc.rss_bytes() / 2**20}
                    )
    out: dict[str, Any] = {}
    for (server, key), runs in rows.items():
        out.setdefault(server, {})[key] = {
            "startup_s": stats(x["startup_s"] for x in runs),
            "rss_idle_mb": stats(x["rss_idle_mb"] for x in runs),
            "runs": runs,
        }
    return out


def bench_durable(settings: Settings, seeds: dict[str, Path], work: Path) -> dict[str, Any]:
    """Acknowledged (durable) display-tag changes per second and their latency, with
    10/100/1000 sources stored, on the default server."""
    procs = {
        s: tilewall_proc(seeds[f"durable-{s}"], work, DEFAULT_SERVER, f"durable-{s}")
        for s in settings.durable_sources
    }
    rows: dict[tuple[int, int], list[dict[str, Any]]] = {}
    with running(list(procs.values())):
        cookies = {s: login(p.base_url, ADMIN, PASSWORD) for s, p in procs.items()}
        ops = {s: tag_operation(Seeded.read(seeds[f"durable-{s}"])) for s in procs}
        for s, proc in procs.items():
            if settings.warmup_s > 0:
                run_wrk(proc.base_url, ops[s], cookies[s], settings.warmup_s, 1, work)
        for r in range(settings.runs):
            log(f"durable writes round {r + 1}/{settings.runs}")
            for s, proc in procs.items():
                for c in settings.durable_connections:
                    rows.setdefault((s, c), []).append(
                        run_wrk(
                            proc.base_url, ops[s], cookies[s], settings.durable_duration_s, c, work
                        )
                    )
                    proc.settle()
    out: dict[str, Any] = {"server": DEFAULT_SERVER, "operation": "PUT /api/displays/{id}/tag"}
    for (s, c), runs in rows.items():
        entry = summarise(runs)
        entry["latency_curve_ms"] = percentile_curve(runs)
        out.setdefault("by_sources", {}).setdefault(str(s), {})[f"c{c}"] = entry
    return out


def store_operations(seeded: Seeded) -> dict[str, Operation]:
    return {**operations(seeded), "display_tag": tag_operation(seeded)}


def bench_stores(settings: Settings, seeds: dict[str, Path], work: Path, pg: Any) -> dict[str, Any]:
    """The interface on PostgreSQL (a lone member of its database's group: every write
    fenced, logged and announced to standbys) beside SQLite, the same topology seeded
    the same way, the same operations, in the same rounds, on the default server."""
    n = settings.store_displays
    seed_dir = seeds[f"store-{n}"]
    url, _ = postgres.seed_database(pg, work / "seed" / f"store-pg-{n}", n, settings.sources)
    procs = {
        "sqlite": tilewall_proc(seed_dir, work, DEFAULT_SERVER, f"store-sqlite-{n}"),
        "postgres": postgres.member_proc(url, work, f"store-postgres-{n}", DEFAULT_SERVER),
    }
    ops = store_operations(Seeded.read(seed_dir))
    names = [name for name in settings.store_ops if name in ops]
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    with running(list(procs.values())):
        cookies = {store: login(p.base_url, ADMIN, PASSWORD) for store, p in procs.items()}

        def load(store: str, name: str, seconds: int) -> dict[str, Any]:
            proc = procs[store]
            result = run_wrk(
                proc.base_url, ops[name], cookies[store], seconds, settings.connections, work
            )
            result["settle_s"] = proc.settle()
            return result

        if settings.warmup_s > 0:
            for store in procs:
                for name in names:
                    load(store, name, settings.warmup_s)
        for r in range(settings.runs):
            log(f"interface on PostgreSQL and SQLite, round {r + 1}/{settings.runs}")
            for name in names:
                for store in procs:
                    rows.setdefault((store, name), []).append(
                        load(store, name, settings.duration_s)
                    )
        rss = {store: p.rss_bytes() / 2**20 for store, p in procs.items()}
    out: dict[str, Any] = {
        "status": "measured",
        "server": DEFAULT_SERVER,
        "displays": n,
        "sources": settings.sources,
        "ops": {},
        "rss_after_load_mb": rss,
    }
    for name in names:
        sqlite_runs, pg_runs = rows[("sqlite", name)], rows[("postgres", name)]
        out["ops"][name] = {
            "sqlite": summarise(sqlite_runs),
            "postgres": summarise(pg_runs),
            "postgres_vs_sqlite": stats(
                p["rps"] / q["rps"] for p, q in zip(pg_runs, sqlite_runs, strict=True) if q["rps"]
            ),
        }
    with contextlib.suppress(Exception):
        pg.drop_database(url)
    return out


def bench_postgres(
    settings: Settings, seeds: dict[str, Path], work: Path, progress: Callable[[str], None]
) -> dict[str, Any]:
    """Everything on PostgreSQL, on one server of its own (skipped without PostgreSQL)."""
    skipped = {"status": "skipped"}
    if not settings.postgres:
        return {"interface": skipped, "takeover": skipped, "freeze": skipped, "group_load": skipped}
    reason = postgres.missing()
    if reason is not None:
        progress(f"PostgreSQL benchmarks skipped: {reason}")
        return {
            "interface": {**skipped, "reason": reason},
            "takeover": {**skipped, "reason": reason},
            "freeze": {**skipped, "reason": reason},
            "group_load": {**skipped, "reason": reason},
        }
    out: dict[str, Any] = {}
    with postgres.server() as pg:
        progress("interface on PostgreSQL beside SQLite")
        try:
            out["interface"] = bench_stores(settings, seeds, work, pg)
        except Exception as error:  # reported, not fatal to the other benchmarks
            out["interface"] = {"status": "failed", "error": f"{type(error).__name__}: {error}"}
        if settings.takeover_receivers and settings.receivers:
            out["takeover"] = postgres.takeover(settings, pg, work, progress)
        else:
            out["takeover"] = skipped
        if settings.freeze_receivers and settings.receivers:
            out["freeze"] = postgres.takeover(settings, pg, work, progress, how="freeze")
        else:
            out["freeze"] = skipped
        if settings.load_receivers and settings.receivers:
            out["group_load"] = groupload.load(settings, pg, work, progress)
        else:
            out["group_load"] = skipped
    return out


def fanout_growth(receiver_results: dict[str, Any] | None) -> dict[str, Any]:
    """Switch fan-out at the most receivers divided by the same at the fewest, per layout."""
    out: dict[str, Any] = {}
    fanout = (receiver_results or {}).get("switch_fanout") or {}
    for layout, sizes in (fanout.get("layouts") or {}).items():
        measured = {
            int(n): e for n, e in sizes.items() if (e.get("last_ms") or {}).get("p50") is not None
        }
        if len(measured) < 2:
            continue
        small, large = min(measured), max(measured)
        a, b = measured[small]["last_ms"], measured[large]["last_ms"]
        out[layout] = {
            "from": small,
            "to": large,
            "p50": b["p50"] / a["p50"] if a["p50"] else None,
            "p99": b["p99"] / a["p99"] if a["p99"] else None,
            "largest_attempted": max(int(n) for n in sizes),
        }
    return out


def growth(
    interface: dict[str, Any],
    startup: dict[str, Any],
    settings: Settings,
    receiver_results: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """How each figure changes from the smallest to the largest topology (largest/smallest)."""
    small, large = str(min(settings.topologies)), str(max(settings.topologies))
    out: dict[str, Any] = {"from": int(small), "to": int(large), "servers": {}}
    out["fanout"] = fanout_growth(receiver_results)
    if small == large:
        return out
    for server, topos in interface["servers"].items():
        rows: dict[str, Any] = {}
        for name in settings.ops:
            a, b = topos[small]["ops"][name], topos[large]["ops"][name]
            rows[name] = {
                key: b[key]["median"] / a[key]["median"] if a[key]["median"] else None
                for key in ("rps", "p50_ms", "p99_ms")
            }
        rows["rss_idle_mb"] = topos[large]["rss_idle_mb"] / topos[small]["rss_idle_mb"]
        st = startup.get(server, {})
        if small in st and large in st:
            rows["startup_s"] = st[large]["startup_s"]["median"] / st[small]["startup_s"]["median"]
            rows["startup_rss_idle_mb"] = (
                st[large]["rss_idle_mb"]["median"] / st[small]["rss_idle_mb"]["median"]
            )
        out["servers"][server] = rows
    return out


# ---------------------------------------------------------------------------- context


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _node_version() -> str:
    node = shutil.which("node")
    if node is None:
        return "not installed"
    return subprocess.run(
        [node, "--version"], capture_output=True, text=True, timeout=30
    ).stdout.strip()


def _chromium_version() -> str:
    from bench.wallsync import CHROMIUM

    if not CHROMIUM.exists():
        return "not installed"
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        done = subprocess.run(
            [str(CHROMIUM), "--version"], capture_output=True, text=True, timeout=30
        )
        return done.stdout.strip() or "unknown"
    return "unknown"


def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def _filesystem(path: Path) -> str:
    best = ("", "unknown")
    for part in psutil.disk_partitions(all=True):
        mount = part.mountpoint
        if str(path).startswith(mount) and len(mount) > len(best[0]):
            best = (mount, part.fstype)
    return best[1]


def machine(work: Path) -> dict[str, Any]:
    return {
        "logical_cpus": os.cpu_count(),
        "physical_cpus": psutil.cpu_count(logical=False),
        "cpu_model": _cpu_model(),
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "os": f"{platform.system()} {platform.release()}",
        "data_dir_filesystem": _filesystem(work),
    }


def versions() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "tilewall": _version("tilewall"),
        "litestar": _version("litestar"),
        "msgspec": _version("msgspec"),
        "uvicorn": _version("uvicorn"),
        "granian": _version("granian"),
        "wrk": wrk_version(),
        "prism": prism_version(),
        "node": _node_version(),
        "websockets": _version("websockets"),
        "playwright": _version("playwright"),
        "chromium": _chromium_version(),
    }


def git_commit() -> str:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        )
        if done.returncode == 0:
            return done.stdout.strip()
    return "unknown"


# ---------------------------------------------------------------------------- driver


def run(
    settings: Settings,
    out_dir: Path = RESULTS,
    label: str | None = None,
    command: str = "python bench/run.py",
    update_benchmarks_md: bool = True,
    work_parent: Path | None = None,
    progress: Callable[[str], None] = log,
) -> dict[str, Any]:
    """Run every benchmark with ``settings``; write results under ``out_dir``."""
    from bench import report

    if wrk_path() is None:
        raise RuntimeError("wrk is not installed; `make bench` installs it")
    if settings.prism and not PRISM.exists():
        raise RuntimeError("Prism is not installed; `make bench` installs it under bench/")
    started = time.time()
    now = dt.datetime.now(dt.UTC)
    label = label or now.strftime("%Y-%m-%d") + ("-quick" if settings.quick else "")
    work_parent = work_parent or BENCH / ".work"
    work_parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="run-", dir=work_parent))
    load_start = os.getloadavg()
    try:
        progress(f"seeding {settings.topologies} displays and {settings.durable_sources} sources")
        t0 = time.time()
        seeds = seed_all(settings, work)
        seed_s = time.time() - t0
        progress("interface benchmark")
        interface = bench_interface(settings, seeds, work)
        progress("start-up and memory")
        startup = bench_startup(settings, seeds, work)
        progress("durable writes")
        durable = bench_durable(settings, seeds, work)
        progress("receivers")
        receiver_results = receivers.all_receiver_benchmarks(settings, seeds, work, progress)
        progress("PostgreSQL")
        postgres_results = bench_postgres(settings, seeds, work, progress)
        results: dict[str, Any] = {
            "schema": 1,
            "label": label,
            "date": now.isoformat(timespec="seconds"),
            "commit": git_commit(),
            "command": command,
            "quick": settings.quick,
            "settings": asdict(settings),
            "machine": machine(work),
            "versions": versions(),
            "seed_seconds": seed_s,
            "interface": interface,
            "startup": startup,
            "durable_writes": durable,
            "growth": growth(interface, startup, settings, receiver_results),
            "receivers": receiver_results,
            "postgres": postgres_results,
        }
        results["elapsed_s"] = time.time() - started
        results["machine"]["load_average_1m"] = {
            "start": load_start[0],
            "end": os.getloadavg()[0],
        }
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / f"{label}.json").write_text(
            json.dumps(results, indent=1, sort_keys=False) + "\n"
        )
        report.write(results, out_dir, update_benchmarks_md=update_benchmarks_md)
        progress(f"done in {results['elapsed_s']:.0f}s: {out_dir.name}/{label}.md")
        return results
    finally:
        shutil.rmtree(work, ignore_errors=True)


def parse_args(argv: list[str] | None) -> tuple[Settings, argparse.Namespace]:
    args = _parser().parse_args(argv)
    return settings_from(args), args


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="one run each, shorter loads")
    parser.add_argument(
        "--smoke", action="store_true", help="every benchmark once, tiny: do they still run?"
    )
    parser.add_argument("--runs", type=int, help="repetitions of each measurement")
    parser.add_argument("--duration", type=int, help="seconds of load per measurement")
    parser.add_argument("--connections", type=int, help="wrk connections")
    parser.add_argument("--topologies", help="display counts, comma separated (10,100,1000)")
    parser.add_argument("--servers", help="uvicorn,granian")
    parser.add_argument("--ops", help=",".join(OPS))
    parser.add_argument("--no-prism", action="store_true", help="skip the Prism comparison")
    parser.add_argument("--no-receivers", action="store_true", help="skip the receiver benchmarks")
    parser.add_argument(
        "--no-postgres",
        action="store_true",
        help="skip the PostgreSQL benchmarks (interface beside SQLite, takeover)",
    )
    parser.add_argument(
        "--takeover-receivers", help="receiver counts of the takeover, comma separated (100,1000)"
    )
    parser.add_argument(
        "--only-receivers",
        action="store_true",
        help="only the receiver benchmarks (the interface benchmarks with tiny settings)",
    )
    parser.add_argument("--out", type=Path, default=RESULTS, help="results directory")
    parser.add_argument("--label", help="results file name (default: the date)")
    parser.add_argument(
        "--no-benchmarks-md", action="store_true", help="leave BENCHMARKS.md as it is"
    )
    parser.add_argument("--command", default=None, help="command recorded in the results")
    parser.add_argument("--work", type=Path, help="where the run's data directories go")
    return parser


def settings_from(args: argparse.Namespace) -> Settings:
    """The run's settings: the full, quick or smoke ones, changed as ``args`` say."""
    settings = replace(SMOKE if args.smoke else QUICK if args.quick else FULL)
    if args.smoke:
        from bench.wallsync import CHROMIUM

        if not CHROMIUM.exists():
            settings.sync_tiles = []
    if args.runs:
        settings.runs = args.runs
        settings.startup_runs = args.runs
    if args.duration:
        settings.duration_s = args.duration
        settings.durable_duration_s = args.duration
    if args.connections:
        settings.connections = args.connections
    if args.topologies:
        settings.topologies = [int(x) for x in args.topologies.split(",")]
    if args.servers:
        settings.servers = args.servers.split(",")
    if args.ops:
        settings.ops = args.ops.split(",")
    if args.no_prism:
        settings.prism = False
    if args.no_receivers:
        settings.receivers = False
    if args.no_postgres:
        settings.postgres = False
    if args.takeover_receivers:
        settings.takeover_receivers = [int(x) for x in args.takeover_receivers.split(",")]
    if args.only_receivers:
        settings = replace(
            settings,
            topologies=[4],
            servers=[DEFAULT_SERVER],
            startup_servers=[DEFAULT_SERVER],
            ops=["zones"],
            runs=1,
            duration_s=1,
            warmup_s=0,
            startup_runs=1,
            durable_sources=[2],
            durable_connections=[1],
            durable_duration_s=1,
            ceiling=False,
            prism=False,
            store_displays=4,
            store_ops=["zones"],
        )
    return settings


def main(argv: list[str] | None = None) -> None:
    settings, args = parse_args(argv)
    command = (
        args.command
        or os.environ.get("BENCH_COMMAND")
        or "python bench/run.py " + " ".join(sys.argv[1:] if argv is None else argv)
    )
    run(
        settings,
        out_dir=args.out,
        label=args.label,
        command=command.strip(),
        update_benchmarks_md=not args.no_benchmarks_md,
        work_parent=args.work,
    )


if __name__ == "__main__":
    main()
