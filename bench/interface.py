"""The interface benchmark: each server and topology in rounds beside the ceiling and Prism."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.loadgen import Operation, run_wrk
from bench.operations import PING, one_client, operations
from bench.procs import Proc, ceiling_proc, login, prism_proc, running, tilewall_proc
from bench.seed import ADMIN, PASSWORD, Seeded
from bench.settings import Settings
from bench.stats import geomean, percentile_curve, stats, summarise
from tilewall.client import Client

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


def bench_interface(
    settings: Settings, seeds: dict[str, Path], work: Path, progress: Callable[[str], None]
) -> dict[str, Any]:
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
                progress("warm-up")
                rounds.warm_up()
            for r in range(settings.runs):
                progress(f"interface round {r + 1}/{settings.runs}")
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
