"""Receiver benchmarks: switch fan-out, wall sync in Chromium, memory with receivers.

Results are stored under the JSON key ``receivers.<name>`` with ``"status": "measured"``
(or ``"failed"`` with the reason, or ``"skipped"``).

- ``switch_fanout``: from ``PUT /api/zones/{id}/switch`` being sent to the last of the
  zone's receivers having a ``state`` that shows the new source. The receivers are real
  WebSocket clients in a separate process (``bench/wsclients.py``, protocol v1), which
  also issues the PUT, so both ends are timed on one monotonic clock. Two layouts:
  *one zone* (one wall of N monitors with one zone over all of it, so every receiver is
  told) and *walls of four* (N/4 2x2 walls with a zone each; one zone is switched, so
  four receivers are told while N are connected). p50 and p99 over the switches.
- ``wall_sync``: 4 and 9 tiles of one zone in headless Chromium playing the demo clip
  from the media library (Signage Player); spread of the tiles' positions against the
  host clock (``bench/wallsync.py``): p50, p95, max while playing, after a seek and
  after pause/resume; plotted over time.
- ``memory_with_receivers``: host RSS (process and children) on a topology of 1,000
  displays in walls of four: idle, with 100 and with 1,000 receivers connected (the
  same client process), sampled once all of them stayed connected for 3 s
  (``fanout_stable_s``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import chromium, wallsync
from bench.procs import run_receivers, session_id, tilewall_proc
from bench.seed import ADMIN, PASSWORD, Seeded
from bench.syncframes import percentile

NOT_MEASURED = "not yet measured"
SERVER = "uvicorn"  # what ``tilewall serve`` runs by default


def run_fleet(
    seed_dir: Path,
    work: Path,
    label: str,
    receivers: int,
    switches: int,
    memory_at: list[int],
    connect_timeout_s: float,
    switch_timeout_s: float = 30.0,
    zone_receivers: int | None = None,
    stable_s: float = 3.0,
) -> dict[str, Any]:
    """A host on a copy of ``seed_dir`` and ``receivers`` WebSocket receivers in a
    separate process: memory samples and ``switches`` zone switches."""
    seeded = Seeded.read(seed_dir)
    proc = tilewall_proc(seed_dir, work, SERVER, label)
    with proc:
        proc.start()
        assert proc.popen is not None
        config = {
            "base_url": proc.base_url,
            "session": session_id(proc.base_url, ADMIN, PASSWORD),
            "seats": [f"bench-{n:05d}" for n in range(receivers)],
            "host_pid": proc.popen.pid,
            "memory_at": memory_at,
            "zone": seeded.zones[0],
            "sources": seeded.sources[:2],
            "switches": switches,
            "switch_timeout_s": switch_timeout_s,
            "connect_timeout_s": connect_timeout_s,
            "zone_receivers": zone_receivers or receivers,
            "stable_s": stable_s,
        }
        budget = connect_timeout_s + switches * (switch_timeout_s + 1) + 60
        result = run_receivers(config, work / f"fleet-{label}.json", budget)
        result["host_log_tail"] = proc.log_tail(600) if "error" in result else None
        return result


def fanout_summary(fleet: dict[str, Any]) -> dict[str, Any]:
    rows = [r for r in fleet.get("switches", []) if "last_ms" in r]
    out: dict[str, Any] = {"switches": len(rows)}
    for key in ("last_ms", "first_ms", "ack_ms", "last_after_ack_ms"):
        vals = [r[key] for r in rows]
        out[key] = {"p50": percentile(vals, 50), "p99": percentile(vals, 99)}
    out["connect_s"] = max((fleet.get("connected_s") or {"": None}).values(), default=None)
    out["stable_s"] = max((fleet.get("stable_s") or {"": None}).values(), default=None)
    out["client_max_lag_ms"] = fleet.get("client_max_lag_ms")
    out["reconnects"] = fleet.get("reconnects")
    if "error" in fleet:
        out["error"] = fleet["error"]
    out["runs"] = fleet.get("switches", [])
    return out


def switch_fanout(
    settings: Any, seeds: dict[str, Path], work: Path, progress: Callable[[str], None]
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Fan-out in both layouts; also returns the memory samples of the largest
    walls-of-four run (which samples memory on its way up)."""
    out: dict[str, Any] = {
        "status": "measured",
        "what": "PUT /api/zones/{id}/switch sent -> last receiver of the zone has the new "
        "source, ms",
        "server": SERVER,
        "layouts": {"one_zone": {}, "walls_of_four": {}},
    }
    memory: dict[str, Any] | None = None
    for n in settings.fanout_one_zone:
        progress(f"switch fan-out, one zone of {n} receivers")
        fleet = run_fleet(
            seeds[f"fanout-zone-{n}"],
            work,
            f"fanout-zone-{n}",
            n,
            settings.fanout_switches,
            [],
            min(settings.fanout_connect_timeout_s, settings.fanout_one_zone_timeout_s),
            stable_s=settings.fanout_stable_s,
        )
        out["layouts"]["one_zone"][str(n)] = fanout_summary(fleet)
    largest = max(settings.memory_receivers or [0])
    for n in settings.fanout_walls:
        if n <= 4 and str(n) in out["layouts"]["one_zone"]:
            # four receivers: one 2x2 wall with one zone, the same topology
            out["layouts"]["walls_of_four"][str(n)] = out["layouts"]["one_zone"][str(n)]
            continue
        progress(f"switch fan-out, {n} receivers in walls of four")
        memory_at = [0, *settings.memory_receivers] if n == largest else []
        fleet = run_fleet(
            seeds[f"fanout-walls-{n}"],
            work,
            f"fanout-walls-{n}",
            n,
            settings.fanout_switches,
            memory_at,
            settings.fanout_connect_timeout_s,
            zone_receivers=4,
            stable_s=settings.fanout_stable_s,
        )
        out["layouts"]["walls_of_four"][str(n)] = fanout_summary(fleet)
        if memory_at:
            memory = fleet
    return out, memory


def memory_with_receivers(
    settings: Any,
    seeds: dict[str, Path],
    work: Path,
    fleet: dict[str, Any] | None,
    progress: Callable[[str], None],
) -> dict[str, Any]:
    """Host RSS with 0/100/1,000 receivers connected (from the fan-out run that sampled it
    on its way up, or a run of its own)."""
    largest = max(settings.memory_receivers or [0])
    if not largest:
        return {"status": "skipped"}
    if fleet is None:
        progress(f"memory with {settings.memory_receivers} receivers")
        fleet = run_fleet(
            seeds[f"fanout-walls-{largest}"],
            work,
            "memory",
            largest,
            0,
            [0, *settings.memory_receivers],
            settings.fanout_connect_timeout_s,
            stable_s=settings.fanout_stable_s,
        )
    mb = fleet.get("memory_mb") or {}
    out: dict[str, Any] = {
        "status": "measured" if len(mb) == len(settings.memory_receivers) + 1 else "failed",
        "what": "host RSS (process and children) with N receivers connected, MB",
        "displays": largest,
        "rss_mb": mb,
        "per_receiver_kb": {
            n: (mb[n] - mb["0"]) * 1024 / int(n) for n in mb if n != "0" and "0" in mb
        },
        "connect_s": fleet.get("connected_s"),
        "stable_s": fleet.get("stable_s"),
        "reconnects": fleet.get("reconnects"),
    }
    if "error" in fleet:
        out["error"] = fleet["error"]
    return out


def wall_sync(
    settings: Any, seeds: dict[str, Path], work: Path, progress: Callable[[str], None]
) -> dict[str, Any]:
    if not settings.sync_tiles:
        return {"status": "skipped"}
    if not chromium.chromium_available():
        return {"status": "skipped", "reason": f"no Chromium at {chromium.CHROMIUM.name}"}
    out: dict[str, Any] = {
        "status": "measured",
        "what": "spread of the tiles' video positions against the host timeline, ms",
        "source": "Signage Player, demo clip.mp4 from the media library",
        "viewport": chromium.VIEWPORT,
        "by_tiles": {},
    }
    for tiles in settings.sync_tiles:
        progress(f"wall sync, {tiles} tiles in Chromium")
        try:
            out["by_tiles"][str(tiles)] = wallsync.run_wall(
                seeds[f"sync-{tiles}"],
                work,
                tiles,
                settings.sync_play_s,
                settings.sync_after_s,
                settings.sync_settle_timeout_s,
                SERVER,
                progress,
            )
        except Exception as error:  # reported, not fatal to the other benchmarks
            out["by_tiles"][str(tiles)] = {"error": f"{type(error).__name__}: {error}"[:800]}
    return out


def seed_jobs(settings: Any) -> dict[str, tuple[int, int, bool]]:
    """Data directories the receiver benchmarks need: key -> (displays, sources, one_zone)."""
    if not settings.receivers:
        return {}
    jobs: dict[str, tuple[int, int, bool]] = {}
    for n in settings.fanout_one_zone:
        jobs[f"fanout-zone-{n}"] = (n, 2, True)
    for n in {*settings.fanout_walls, max(settings.memory_receivers or [0])}:
        if n > 4:
            jobs[f"fanout-walls-{n}"] = (n, 2, False)
    for t in settings.sync_tiles:
        jobs[f"sync-{t}"] = (t, 0, True)
    return jobs


def all_receiver_benchmarks(
    settings: Any | None = None,
    seeds: dict[str, Path] | None = None,
    work: Path | None = None,
    progress: Callable[[str], None] = print,
) -> dict[str, dict[str, Any]]:
    if settings is None or not settings.receivers or seeds is None or work is None:
        skipped = {"status": "skipped"}
        return {"switch_fanout": skipped, "wall_sync": skipped, "memory_with_receivers": skipped}
    fanout, fleet = switch_fanout(settings, seeds, work, progress)
    memory = memory_with_receivers(settings, seeds, work, fleet, progress)
    sync = wall_sync(settings, seeds, work, progress)
    return {"switch_fanout": fanout, "wall_sync": sync, "memory_with_receivers": memory}
