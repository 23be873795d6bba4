"""Durable writes with the audit trail and without it (``bench/audit.py``'s first part;
how it is measured: that module's docstring and docs/benchmarks/audit.md)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from bench.loadgen import run_wrk
from bench.operations import tag_operation
from bench.procs import Proc, free_port, login, tilewall_command
from bench.seed import ADMIN, PASSWORD, Seeded

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TRAIL = "src/tilewall/host/audit.py"
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


def durable_lines(d: dict[str, Any]) -> list[str]:
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
