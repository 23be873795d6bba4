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

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import receivers
from bench.interface import bench_interface
from bench.loadgen import wrk_path
from bench.machine import git_commit, machine, versions
from bench.procs import BENCH, PRISM
from bench.seed import seed
from bench.settings import RESULTS, Settings, parse_args
from bench.startup import bench_startup
from bench.stores import bench_durable, bench_postgres

#: topologies up to this many displays and sources are seeded in this process
SEED_IN_PROCESS = 50


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


# ---------------------------------------------------------------------------- growth


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
        interface = bench_interface(settings, seeds, work, progress)
        progress("start-up and memory")
        startup = bench_startup(settings, seeds, work, progress)
        progress("durable writes")
        durable = bench_durable(settings, seeds, work, progress)
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


def main(argv: list[str] | None = None) -> None:
    settings, args = parse_args(argv, __doc__)
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
