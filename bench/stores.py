"""The store benchmarks: durable writes, the interface on PostgreSQL beside SQLite, host groups."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import groupload, postgres
from bench.loadgen import run_wrk
from bench.operations import store_operations, tag_operation
from bench.procs import login, running, tilewall_proc
from bench.seed import ADMIN, PASSWORD, Seeded
from bench.settings import DEFAULT_SERVER, Settings
from bench.stats import percentile_curve, stats, summarise


def bench_durable(
    settings: Settings, seeds: dict[str, Path], work: Path, progress: Callable[[str], None]
) -> dict[str, Any]:
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
            progress(f"durable writes round {r + 1}/{settings.runs}")
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


def bench_stores(
    settings: Settings,
    seeds: dict[str, Path],
    work: Path,
    pg: Any,
    progress: Callable[[str], None],
) -> dict[str, Any]:
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
            progress(f"interface on PostgreSQL and SQLite, round {r + 1}/{settings.runs}")
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
            out["interface"] = bench_stores(settings, seeds, work, pg, progress)
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
