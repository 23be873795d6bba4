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
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.loadgen import run_wrk  # noqa: E402
from bench.operations import tag_operation  # noqa: E402
from bench.procs import Proc, free_port, login, tilewall_command  # noqa: E402
from bench.seed import ADMIN, PASSWORD, Seeded  # noqa: E402

TRAIL = "src/tilewall/host/audit.py"
USERS = [f"operator{n:02d}" for n in range(19)] + ["schedule"]
OPERATIONS = [f"PUT /api/resource{n:02d}/{{id}}" for n in range(40)]
TARGETS = 5000
STEP_MS = 30_000
#: ``tilewall`` with no audit entry made for a change (so none written): the host without
#: its trail, every other line the same; for this benchmark only
CUT = (
    "import tilewall.host.commit as commit; commit.record_of_change = lambda *a: None; "
    "from tilewall.cli import main; main()"
)


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


# --- 1. durable writes, with the trail and the commit before it


def base_commit() -> str:
    """The commit before the one that added the audit trail."""
    added = subprocess.run(
        ["git", "log", "--diff-filter=A", "--format=%H", "--", TRAIL],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if not added:
        raise RuntimeError(f"no commit added {TRAIL}")
    return f"{added[-1]}^"


@contextmanager
def tree_at(commit: str, where: Path) -> Iterator[Path]:
    """A worktree of ``commit`` (removed after)."""
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(where), commit],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    try:
        yield where
    finally:
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(where)], cwd=ROOT, capture_output=True
        )


def seed(tree: Path, data_dir: Path) -> Seeded:
    env = {**os.environ, "PYTHONPATH": f"{tree / 'src'}:{tree}"}
    command = [sys.executable, str(tree / "bench" / "seed.py"), str(data_dir)]
    subprocess.run(
        [*command, "--displays", "10", "--sources", "100"],
        env=env,
        capture_output=True,
        check=True,
        timeout=600,
    )
    return Seeded.read(data_dir)


def host(tree: Path, data_dir: Path, name: str, work: Path, cut: bool = False) -> Proc:
    """The host of ``tree`` on ``data_dir`` (its admin made on first start if need be);
    ``cut``: with its trail cut out (``CUT``)."""
    port = free_port()
    command = tilewall_command(data_dir, port, "uvicorn")
    if cut:
        command = [sys.executable, "-c", CUT, *command[command.index("serve") :]]
    env = {
        "PYTHONPATH": str(tree / "src"),
        "TILEWALL_ADMIN_USER": ADMIN,
        "TILEWALL_ADMIN_PASSWORD": PASSWORD,
    }
    return Proc(
        name,
        command,
        port,
        "/receiver/",
        work / f"{name}.log",
        env=env,
    )


@contextmanager
def other_tree(against: str, work: Path) -> Iterator[tuple[Path, str]]:
    """The tree of the host without the trail, and what it is (for the report)."""
    if against == "cut":
        yield ROOT, "cut"
        return
    commit = base_commit()
    with tree_at(commit, work / "before-tree") as before_tree:
        resolved = subprocess.run(
            ["git", "rev-parse", "--short", commit], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        yield before_tree, resolved


def _round(
    procs: dict[str, tuple[Proc, Seeded]],
    cookies: dict[str, str],
    seconds: int,
    work: Path,
    order: list[str],
    together: bool,
) -> dict[str, float]:
    """Writes per second of each host in one round: one after the other in ``order``, or
    both at once (``together``)."""

    def load(name: str) -> float:
        proc, seeded = procs[name]
        where = work / name  # each its own wrk script: the cookies differ
        where.mkdir(exist_ok=True)
        measured = run_wrk(proc.base_url, tag_operation(seeded), cookies[name], seconds, 16, where)
        return float(measured["rps"])

    if together:
        with ThreadPoolExecutor(len(order)) as pool:
            rps = dict(zip(order, pool.map(load, order), strict=True))
        for proc, _ in procs.values():
            proc.settle()
        return rps
    out = {}
    for name in order:
        out[name] = load(name)
        procs[name][0].settle()
    return out


def durable(
    work: Path, rounds: int, seconds: int, against: str, together: bool = False
) -> dict[str, Any]:
    """Writes per second of both hosts, round by round, and their ratios."""
    rows: dict[str, list[float]] = {"trail": [], "before": []}
    with other_tree(against, work) as (before_tree, what):
        trees = {"trail": ROOT, "before": before_tree}
        procs = {}
        for name, tree in trees.items():
            log(f"seeding the host {name}")
            data_dir = work / f"data-{name}"
            seeded = seed(tree, data_dir)
            cut = name == "before" and against == "cut"
            procs[name] = (host(tree, data_dir, name, work, cut), seeded)
        try:
            for proc, _ in procs.values():
                proc.start()
            cookies = {n: login(p.base_url, ADMIN, PASSWORD) for n, (p, _) in procs.items()}
            _round(procs, cookies, 1, work, ["trail", "before"], together=False)  # warm-up
            for r in range(rounds):
                order = ["trail", "before"] if r % 2 == 0 else ["before", "trail"]
                for name, rps in _round(procs, cookies, seconds, work, order, together).items():
                    rows[name].append(rps)
                log(f"round {r + 1}/{rounds}: {rows['trail'][-1]:.0f} / {rows['before'][-1]:.0f}")
            if against == "cut":  # the cut took, and only where it should
                for name, (proc, _) in procs.items():
                    written = tag_entries(proc.base_url, cookies[name])
                    if written != (name == "trail"):
                        raise RuntimeError(f"the host {name} wrote tag entries: {written}")
        finally:
            for proc, _ in procs.values():
                proc.stop()
    ratios = [a / b for a, b in zip(rows["trail"], rows["before"], strict=True)]
    return {
        # "cut": this tree with the trail cut out; else the commit before the trail
        "before_commit": what,
        "together": together,
        "rps_trail": rows["trail"],
        "rps_before": rows["before"],
        "ratios": ratios,
        "ratio_median": statistics.median(ratios),
    }


def tag_entries(base_url: str, cookie: str) -> bool:
    """Whether the host's newest audit entries record the benchmark's tag writes."""
    name, _, value = cookie.partition("=")
    answer = httpx.get(f"{base_url}/api/audit", cookies={name: value}, timeout=30)
    answer.raise_for_status()
    return any("/tag" in e["operation"] for e in answer.json()["entries"])


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
        lines += _durable_lines(results["durable"])
    if "reads" in results:
        lines += _read_lines(results["reads"])
    return "\n".join(lines) + "\n"


def _durable_lines(d: dict[str, Any]) -> list[str]:
    without = (
        "this tree with the trail cut out"
        if d["before_commit"] == "cut"
        else f"at {d['before_commit']} (before it)"
    )
    how = (
        "both hosts loaded at once in each round"
        if d.get("together")
        else "the hosts loaded in turn, alternating"
    )
    lines = [
        f"## Durable writes (`PUT /api/displays/{{id}}/tag`, 16 connections), "
        f"with the trail and {without}",
        "",
        f"{how.capitalize()}.",
        "",
        "| round | with the trail | without | ratio |",
        "|---|---|---|---|",
    ]
    for n, (a, b, r) in enumerate(zip(d["rps_trail"], d["rps_before"], d["ratios"], strict=True)):
        lines.append(f"| {n + 1} | {a:,.0f}/s | {b:,.0f}/s | {r:.3f} |")
    return [*lines, "", f"Median ratio: **{d['ratio_median']:.3f}** (goal ≥ 0.90).", ""]


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
