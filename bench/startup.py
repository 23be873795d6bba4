"""The start-up benchmark: spawn to first answer, and idle memory, of each server."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.procs import ceiling_proc, tilewall_proc
from bench.settings import Settings
from bench.stats import stats


def bench_startup(
    settings: Settings, seeds: dict[str, Path], work: Path, progress: Callable[[str], None]
) -> dict[str, Any]:
    """Spawn to first answered GET /api/openapi.json, and idle RSS once it has answered.

    The host keeps its encoded OpenAPI document between starts (in the user's cache, as
    the interface benchmark's servers left it); the row "N cold" starts with an empty
    cache, as the first start after an install or upgrade does."""
    rows: dict[tuple[str, str], list[dict[str, float]]] = {}
    for r in range(settings.startup_runs):
        progress(f"start-up round {r + 1}/{settings.startup_runs}")
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
