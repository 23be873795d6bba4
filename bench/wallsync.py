"""Wall sync in headless Chromium: the tiles of one zone play one video, and each tile's
position is compared with the position the host's timeline gives at that tile's own
estimate of host time (``window.tilewall.sample()``: ``positionMs`` against
``expectedMs``, both read at one ``hostMs``). The spread of a round is the largest minus
the smallest of those errors across the tiles; it is what a viewer sees as tiles out of
step. Sampled while playing, after a seek, while paused and after resuming.

The host runs in its own process (``tilewall serve``); the pages run in Debian's
Chromium through Playwright (never a downloaded browser).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.procs import BENCH, tilewall_proc
from bench.seed import ADMIN, PASSWORD, Seeded
from tilewall.client import Client

CLIP = BENCH.parent / "src" / "tilewall" / "demo_media" / "clip.mp4"
CHROMIUM = Path(os.environ.get("TILEWALL_CHROMIUM") or shutil.which("chromium") or "chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
]
#: small pages keep nine decoding tiles affordable on two CPUs
VIEWPORT = {"width": 320, "height": 180}
#: a tile counts as following the timeline within this many ms
SETTLED_MS = 30.0
SAMPLE_GAP_S = 0.1

SAMPLE_JS = """() => {
  const t = window.tilewall;
  const s = t.sample();
  const v = document.querySelector('video');
  return {positionMs: s.positionMs, expectedMs: s.expectedMs, hostMs: s.hostMs,
          item: s.item, playing: s.playing, rev: t.rev,
          videoPaused: v ? v.paused : null, rate: v ? v.playbackRate : null};
}"""


def chromium_available() -> bool:
    return CHROMIUM.exists()


def percentile(values: list[float], q: float) -> float | None:
    """Linear interpolation between closest ranks (q in 0..100)."""
    vals = sorted(values)
    if not vals:
        return None
    k = (len(vals) - 1) * q / 100
    lo = int(k)
    hi = min(lo + 1, len(vals) - 1)
    return vals[lo] + (vals[hi] - vals[lo]) * (k - lo)


def spread_stats(spreads: list[float]) -> dict[str, Any]:
    return {
        "p50": percentile(spreads, 50),
        "p95": percentile(spreads, 95),
        "max": max(spreads) if spreads else None,
        "rounds": len(spreads),
    }


class Wall:
    def __init__(self, host: Client, pages: list[Any], zone: str) -> None:
        self.host = host
        self.pages = pages
        self.zone = zone
        self.duration_ms = 0.0
        self.t0 = time.monotonic()
        #: every sampling round: (seconds since start, phase, errors per tile or None)
        self.series: list[dict[str, Any]] = []
        self.events: list[tuple[float, str]] = []

    def wait_all(self, predicate: str, timeout_s: float = 20.0) -> None:
        for page in self.pages:
            page.wait_for_function(
                f"() => {{ const t = window.tilewall; return {predicate}; }}",
                timeout=timeout_s * 1000,
            )

    def sample(self, phase: str) -> dict[str, Any]:
        errors: list[float | None] = []
        stalled = 0
        for page in self.pages:
            s = page.evaluate(SAMPLE_JS)
            if s["positionMs"] is None or s["expectedMs"] is None:
                errors.append(None)
                continue
            error = s["positionMs"] - s["expectedMs"]
            half = self.duration_ms / 2
            if error > half:  # one tile just past the loop point, the other before it
                error -= self.duration_ms
            elif error < -half:
                error += self.duration_ms
            errors.append(error)
            if s["playing"] and s["videoPaused"]:
                stalled += 1
        complete = [e for e in errors if e is not None]
        spread = max(complete) - min(complete) if len(complete) == len(self.pages) else None
        row = {
            "t": time.monotonic() - self.t0,
            "phase": phase,
            "errors": errors,
            "spread": spread,
            "stalled": stalled,
        }
        self.series.append(row)
        return row

    def settle(self, phase: str, timeout_s: float) -> float:
        """Sample until three rounds in a row have every tile within SETTLED_MS of the
        timeline (and none stalled); seconds it took (``timeout_s`` if never)."""
        started = time.monotonic()
        good = 0
        while time.monotonic() - started < timeout_s:
            r = self.sample(phase + " (settling)")
            ok = (
                r["spread"] is not None
                and not r["stalled"]
                and all(abs(e) < SETTLED_MS for e in r["errors"] if e is not None)
            )
            good = good + 1 if ok else 0
            if good >= 3:
                return time.monotonic() - started
            time.sleep(SAMPLE_GAP_S)
        return timeout_s

    def measure(self, phase: str, seconds: float) -> dict[str, Any]:
        spreads: list[float] = []
        worst: list[float] = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            r = self.sample(phase)
            if r["spread"] is not None:
                spreads.append(r["spread"])
                worst.append(max(abs(e) for e in r["errors"] if e is not None))
            time.sleep(SAMPLE_GAP_S)
        out = spread_stats(spreads)
        out["seconds"] = seconds
        out["max_error_vs_host_ms"] = max(worst) if worst else None
        return out

    def event(self, name: str) -> None:
        self.events.append((time.monotonic() - self.t0, name))


def run_wall(
    seed_dir: Path,
    work: Path,
    tiles: int,
    play_s: float,
    after_s: float,
    settle_timeout_s: float,
    server: str = "uvicorn",
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """One zone of ``tiles`` receiver pages playing the demo clip; sync figures."""
    from playwright.sync_api import sync_playwright

    seeded = Seeded.read(seed_dir)
    proc = tilewall_proc(seed_dir, work, server, f"sync-{tiles}")
    with proc, sync_playwright() as playwright:
        proc.start()
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        host = Client(proc.base_url, ADMIN, PASSWORD)
        try:
            host.login()
            # Playwright's string predicates are eval, which the page's policy forbids
            context = browser.new_context(viewport=VIEWPORT, bypass_csp=True)
            pages = []
            for n in range(tiles):
                page = context.new_page()
                page.goto(f"{proc.base_url}/receiver/?seat=bench-{n:05d}")
                pages.append(page)
            wall = Wall(host, pages, seeded.zones[0])
            wall.wait_all("t.connected && t.state && t.state.role === 'tile'")
            host.media.upload("clip.mp4", CLIP.read_bytes())
            files = json.dumps([{"type": "file", "name": "clip.mp4", "value": "clip.mp4"}])
            source = host.sources.create(
                "Bench clip",
                "Signage Player",
                [
                    {"type": "FILE_DIR_SELECT", "paramName": "Media", "paramValue": files},
                    {"type": "NUMBER", "paramName": "Slide Interval", "paramValue": "30"},
                ],
            )["sourceId"]
            wall.t0 = time.monotonic()
            wall.event("switch")
            host.zones.switch(wall.zone, source_id=source, by="id")
            wall.wait_all("t.sample().item === 'clip.mp4'")
            wall.wait_all(
                "document.querySelector('video') && document.querySelector('video').readyState >= 2"
            )
            wall.duration_ms = float(
                pages[0].evaluate("() => window.tilewall.state.content.source.totalMs")
            )
            phases: dict[str, Any] = {}
            log(f"wall sync, {tiles} tiles: playing")
            settle_s = wall.settle("play", settle_timeout_s)
            phases["play"] = {"settle_s": settle_s, **wall.measure("play", play_s)}

            wall.event("seek")
            host.zones.seek(wall.zone, 6000, by="id")
            wall.wait_all("t.state.content.timeline.anchorPositionMs === 6000")
            settle_s = wall.settle("seek", settle_timeout_s)
            phases["seek"] = {"settle_s": settle_s, **wall.measure("seek", after_s)}

            wall.event("pause")
            host.zones.pause(wall.zone, by="id")
            wall.wait_all("t.state.content.timeline.state === 'paused'")
            settle_s = wall.settle("pause", settle_timeout_s)
            phases["pause"] = {"settle_s": settle_s, **wall.measure("pause", min(after_s, 2.0))}

            wall.event("resume")
            host.zones.resume(wall.zone, by="id")
            wall.wait_all("t.state.content.timeline.state === 'playing'")
            settle_s = wall.settle("resume", settle_timeout_s)
            phases["resume"] = {"settle_s": settle_s, **wall.measure("resume", after_s)}
            clock = [
                p.evaluate(
                    "() => ({offsetMs: window.tilewall.offsetMs, rttMs: window.tilewall.rttMs})"
                )
                for p in pages
            ]
            context.close()
        finally:
            host.close()
            browser.close()
    return {
        "tiles": tiles,
        "duration_ms": wall.duration_ms,
        "phases": phases,
        "clock": clock,
        "events": wall.events,
        "series": [
            {
                "t": round(r["t"], 3),
                "phase": r["phase"],
                "spread": None if r["spread"] is None else round(r["spread"], 2),
                "errors": [None if e is None else round(e, 2) for e in r["errors"]],
            }
            for r in wall.series
        ],
    }
