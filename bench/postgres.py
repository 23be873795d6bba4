"""Benchmarks on PostgreSQL (``tilewall serve --database``): a throw-away server of its
own (tests/support/pgserver.py, as the tests start theirs), hosts on databases seeded through
the host's services, and the takeover of a group of two hosts.

- ``takeover``: a group of two hosts on one database (``--database``, each ``--advertise``
  its own address), the first one active; N receivers over real WebSockets connected to
  it (``bench/wsclients.py``, in a process of its own) that follow the group as the
  receiver page does (the ``group`` message; after a close: the active member, then
  every member, then the host they were loaded from, with the page's delays). The
  client process kills the active host (``kill -9`` of its process group) and, on its
  own monotonic clock, times from the kill: the first write the other host accepts
  (``PUT /api/zones/{id}/switch`` sent to it again and again; before the takeover it
  answers 503), every receiver welcomed by the new active host (connected to it and told
  its state: the welcome carries it), and the switched zone's receivers showing what
  that write switched them to. Topology: N displays in walls of four, a zone each.
- The interface on PostgreSQL beside SQLite is measured by bench/stores.py
  (``bench_stores``) on a host from :func:`member_proc`.

Without PostgreSQL's binaries (``/usr/lib/postgresql/NN/bin``, scripts/system-deps
installs Debian's postgresql-15) these benchmarks are skipped, saying so.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from tests.support.pgserver import PostgresServer, find_bin_dir, start_server

from bench.procs import (
    BENCH,
    LOOPBACK,
    Proc,
    free_port,
    run_receivers,
    session_id,
    tilewall_command,
)
from bench.seed import ADMIN, PASSWORD, Seeded, seed

MISSING = (
    "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; "
    "scripts/system-deps installs Debian's postgresql-15)"
)
#: what ``tilewall serve`` runs by default
SERVER = "uvicorn"
#: the goal: a standby takes over and every receiver is back within this
GOAL_S = 5.0
#: the lease time the hosts run with (TILEWALL_GROUP_LEASE_MS's default)
LEASE_S = 5.0
#: the goal after a freeze: every receiver back within the lease time plus 2 s
FREEZE_GOAL_S = LEASE_S + 2.0
WHAT = {
    "kill": "kill -9 of the active host of a group of two on one PostgreSQL -> first write "
    "accepted by the new active host, and -> every receiver connected to it and told its "
    "state, s",
    "freeze": "SIGSTOP of the active host of a group of two on one PostgreSQL (its session "
    "and lock alive: the lease runs out) -> first write accepted by the other host, and -> "
    "every receiver connected to it and told its state, s; then SIGCONT: the woken host's "
    "answer to a write that waited for it, its step down, what the group kept",
}
#: topologies up to this many displays are seeded in this process
SEED_IN_PROCESS = 50


def missing() -> str | None:
    """Why the PostgreSQL benchmarks cannot run here, or None."""
    return MISSING if find_bin_dir() is None else None


@contextlib.contextmanager
def server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of its own for the run, removed after."""
    made = start_server()
    try:
        yield made
    finally:
        made.destroy()


def seed_database(
    pg: PostgresServer, seed_dir: Path, displays: int, sources: int, one_zone: bool = False
) -> tuple[str, Seeded]:
    """A new database seeded with the topology (the same as bench/seed.py makes on
    SQLite); its URL and what was made (also in ``seed_dir/bench-seed.json``)."""
    url = pg.create_database("bench")
    if displays + sources <= SEED_IN_PROCESS:
        return url, seed(seed_dir, displays, sources, one_zone, url)
    command = [
        sys.executable,
        str(BENCH / "seed.py"),
        str(seed_dir),
        "--displays",
        str(displays),
        "--sources",
        str(sources),
        "--database",
        url,
        *(["--one-zone"] if one_zone else []),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"seeding {url} failed:\n{done.stdout}{done.stderr}"[-3000:])
    return url, Seeded.read(seed_dir)


def member_proc(database: str, work: Path, label: str, server: str = SERVER) -> Proc:
    """``tilewall serve --database URL --advertise http://127.0.0.1:PORT`` on a fresh data
    directory (the state is in the database): a member of that database's group."""
    port = free_port()
    data_dir = work / f"data-{label}"
    command = [
        *tilewall_command(data_dir, port, server),
        "--database",
        database,
        "--advertise",
        f"http://{LOOPBACK}:{port}",
    ]
    return Proc(
        f"tilewall-{label}",
        command,
        port,
        "/api/openapi.json",
        work / f"log-tilewall-{label}.txt",
    )


def role(proc: Proc, session: str) -> str:
    """The member's role in its group (``GET /api/group``): active or standby."""
    answer = httpx.get(f"{proc.base_url}/api/group", cookies={"JSESSIONID": session}, timeout=5.0)
    answer.raise_for_status()
    return str(answer.json()["role"])


def wait_role(proc: Proc, session: str, wanted: str, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    last = ""
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError, KeyError, ValueError):
            last = role(proc, session)
            if last == wanted:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{proc.name} is {last or 'not answering'}, not {wanted}")


def start_group(first: Proc, second: Proc, user: str = ADMIN, password: str = PASSWORD) -> str:
    """Start ``first`` (it becomes active), then ``second`` (a standby); a session id."""
    first.start()
    session = session_id(first.base_url, user, password)
    wait_role(first, session, "active")
    second.start()
    wait_role(second, session, "standby")
    return session


def takeover_once(
    pg: PostgresServer,
    template: str,
    seeded: Seeded,
    work: Path,
    receivers: int,
    label: str,
    settings: Any,
    how: str = "kill",
) -> dict[str, Any]:
    """One takeover with ``receivers`` receivers, on a copy of the seeded database, the
    active host killed (``how``: kill) or frozen (freeze)."""
    database = pg.create_database("takeover", template=template)
    first = member_proc(database, work, f"{label}-first")
    second = member_proc(database, work, f"{label}-second")
    began = time.monotonic()
    try:
        with first, second:
            session = start_group(first, second)
            started_s = time.monotonic() - began
            assert first.popen is not None
            shown = seeded.sources[-1]  # the seed switched every zone to its last source
            config = {
                "base_url": first.base_url,
                "session": session,
                "seats": [f"bench-{n:05d}" for n in range(receivers)],
                "host_pid": first.popen.pid,
                "memory_at": [],
                "connect_timeout_s": settings.fanout_connect_timeout_s,
                "stable_s": settings.fanout_stable_s,
                "follow_group": True,
                "takeover": {
                    "how": how,
                    "kill_pgid": first.popen.pid,  # its own session: the group is its pid
                    "back_source": shown,
                    "standby": second.base_url,
                    "zone": seeded.zones[0],
                    "source": next(s for s in seeded.sources if s != shown),
                    "zone_seats": 4,
                    "timeout_s": settings.takeover_timeout_s,
                },
            }
            budget = settings.fanout_connect_timeout_s * 2 + settings.takeover_timeout_s + 60
            fleet = run_receivers(config, work / f"takeover-{label}.json", budget)
            result: dict[str, Any] = dict(fleet.get("takeover") or {})
            if "error" in fleet:
                result["error"] = fleet["error"]
            result["hosts_started_s"] = started_s
            result["connected_s"] = max((fleet.get("connected_s") or {"": None}).values())
            result["client_s"] = time.monotonic() - began - started_s
            result["refused"] = fleet.get("refused")
            result["client_max_lag_ms"] = fleet.get("client_max_lag_ms")
            with contextlib.suppress(httpx.HTTPError, KeyError, ValueError):
                result["new_active_role"] = role(second, session)
            with contextlib.suppress(httpx.HTTPError, KeyError, ValueError):
                result["woken_role"] = role(first, session)
            if "error" in result:
                result["log_tail"] = second.log_tail(800)
            return result
    finally:
        with contextlib.suppress(Exception):
            pg.drop_database(database)


def _median(values: list[float]) -> float | None:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else None


def summary(runs: list[dict[str, Any]], goal_s: float = GOAL_S) -> dict[str, Any]:
    """Medians (and extremes) over the runs of one receiver count."""
    out: dict[str, Any] = {"runs": runs}
    for key in ("first_write_s", "all_back_s", "median_back_s", "zone_current_s"):
        values = [r[key] for r in runs if isinstance(r.get(key), (int, float))]
        out[key] = {
            "median": _median(values),
            "min": min(values, default=None),
            "max": max(values, default=None),
            "n": len(values),
        }
    backs = [
        max(r["all_back_s"], r.get("zone_current_s") or 0.0)
        for r in runs
        if isinstance(r.get("all_back_s"), (int, float))
    ]
    worst = max(backs, default=None)
    out["worst_takeover_s"] = worst
    out["meets_goal"] = worst is not None and worst < goal_s and len(backs) == len(runs)
    errors = [r["error"] for r in runs if "error" in r]
    if errors:
        out["errors"] = errors
    return out


def takeover(
    settings: Any,
    pg: PostgresServer,
    work: Path,
    progress: Callable[[str], None],
    how: str = "kill",
) -> dict[str, Any]:
    """The takeover of a group of two hosts, with each receiver count of the settings:
    after ``kill -9`` of the active host (``how``: kill), or a freeze (freeze)."""
    counts = settings.takeover_receivers if how == "kill" else settings.freeze_receivers
    goal = GOAL_S if how == "kill" else FREEZE_GOAL_S
    out: dict[str, Any] = {
        "status": "measured",
        "what": WHAT[how],
        "server": SERVER,
        "goal_s": goal,
        "lease_s": LEASE_S,
        "runs_each": settings.takeover_runs,
        "by_receivers": {},
    }
    for n in counts:
        progress(f"takeover ({how}), seeding {n} displays on PostgreSQL")
        seed_dir = work / "seed" / f"takeover-{how}-{n}"
        url, seeded = seed_database(pg, seed_dir, max(n, 4), 2)
        template = url.rsplit("/", 1)[-1]
        runs = []
        for r in range(settings.takeover_runs):
            progress(f"takeover ({how}), {n} receivers, run {r + 1}/{settings.takeover_runs}")
            label = f"takeover-{how}-{n}-{r}"
            try:
                runs.append(takeover_once(pg, template, seeded, work, n, label, settings, how))
            except Exception as error:  # reported, not fatal to the other benchmarks
                runs.append({"error": f"{type(error).__name__}: {error}"[:800]})
        out["by_receivers"][str(n)] = summary(runs, goal)
        with contextlib.suppress(Exception):
            pg.drop_database(url)
    if all("errors" in e and not e["first_write_s"]["n"] for e in out["by_receivers"].values()):
        out["status"] = "failed"
    return out
