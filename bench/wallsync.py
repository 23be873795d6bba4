"""Wall sync in headless Chromium: the tiles of one zone play one video, and how far
apart they play is measured two ways, in every phase (the switch to the clip, steady
play, a seek, a pause, the resume, the clip's loop point):

- *frames* (the figure to quote): every frame each tile presents on screen, from
  ``requestVideoFrameCallback`` (presentation time in host time, media time), against
  the position the host's timeline gives at that instant; per 200 ms bin, the spread
  of the tiles' mean errors (``bench/syncframes.py``), from the command's scheduled
  start instant on (so the start itself is in it);
- *sampled* (the older figure, kept beside it): rounds of ``window.tilewall.sample()``,
  each tile's ``positionMs`` against ``expectedMs`` at one ``hostMs``, once the tiles
  settled; the spread of a round is the largest minus the smallest error.

With each command the host schedules the tiles' start a lead ahead (``startMs``); each
phase also reports how long before that instant the tiles were pre-rolled, and how many
missed it. The host runs in its own process (``tilewall serve``); the pages run in
Debian's Chromium through Playwright (never a downloaded browser).

    PYTHONPATH=src python -m bench.wallsync --tiles 4,9 --play 8 --after 3
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bench.chromium import CHROMIUM, CHROMIUM_ARGS, receiver_pages
from bench.procs import BENCH, tilewall_proc
from bench.seed import ADMIN, PASSWORD, Seeded
from bench.syncframes import (
    FRAMES_JS,
    RECORDER,
    frame_errors,
    frame_spread,
    percentile,
    start_summary,
)
from tilewall.client import Client

CLIP = BENCH.parent / "src" / "tilewall" / "demo_media" / "clip.mp4"
#: a tile counts as following the timeline within this many ms
SETTLED_MS = 30.0
SAMPLE_GAP_S = 0.1
#: the switch phase: frames from the scheduled start on, this long at least
SWITCH_WINDOW_MS = 2000.0
#: the loop phase: frames from this long before the loop point to twice as long after
#: it (at most; shorter when the phases are), after a seek to 1.5 s before that
LOOP_WINDOW_MS = 1000.0

SAMPLE_JS = """() => {
  const t = window.tilewall;
  const s = t.sample();
  const v = document.querySelector('video');
  return {positionMs: s.positionMs, expectedMs: s.expectedMs, hostMs: s.hostMs,
          item: s.item, playing: s.playing, rev: t.rev,
          videoPaused: v ? v.paused : null, rate: v ? v.playbackRate : null};
}"""


STARTS_JS = """(since) => window.tilewall.sync
  ? (({starts, learned}) => ({starts, learned}))(window.tilewall.sync(since)) : null"""


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

    def start_ms(self) -> float:
        """The host instant the tiles start the current timeline at (``startMs``)."""
        timeline = self.pages[0].evaluate("() => window.tilewall.state.content.timeline")
        return float(timeline.get("startMs", timeline["anchorMs"]))

    def frames(self, start_ms: float, end_ms: float, at_ms: float | None = None) -> dict[str, Any]:
        """The frames spread over [start_ms, end_ms) (the recorder's) and the tiles' own
        account of their starts on ``at_ms`` (receivers that keep one)."""
        tiles = [
            frame_errors(p.evaluate(FRAMES_JS, start_ms - 1000), self.duration_ms)
            for p in self.pages
        ]
        out: dict[str, Any] = {"frames": frame_spread(tiles, start_ms, end_ms)}
        if at_ms is not None:
            own = [p.evaluate(STARTS_JS, at_ms - 1000) for p in self.pages]
            if all(o is not None for o in own):
                out["start"] = start_summary([o["starts"] for o in own], at_ms)
                out["learned"] = [o.get("learned") for o in own]
        return out

    def phase(
        self, name: str, at_ms: float | None, seconds: float, settle_s: float
    ) -> dict[str, Any]:
        """Settle and sample (the older figure), then the frames from ``at_ms`` (the
        command's scheduled start) or from the sampling's start to its end."""
        began = host_ms()
        settled = self.settle(name, settle_s)
        sampled = self.measure(name, seconds)
        frames = self.frames(began if at_ms is None else at_ms, host_ms(), at_ms)
        return {"settle_s": settled, **sampled, **frames}


def host_ms() -> float:
    """Host time: the host runs on this machine, on the system clock."""
    return time.time() * 1000


def sleep_until(at_ms: float) -> None:
    time.sleep(max(at_ms - host_ms(), 0) / 1000)


def open_wall(
    browser: Any, host: Client, base_url: str, seeded: Seeded, tiles: int
) -> tuple[Wall, str]:
    """``tiles`` receiver pages as the tiles of the seeded zone (``receiver_pages``,
    each recording its frames), and a source that plays the demo clip (not yet switched
    to): the wall and the source's id."""
    pages = receiver_pages(browser, base_url, tiles, RECORDER)
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
    return wall, str(source)


@contextlib.contextmanager
def clip_wall(
    seed_dir: Path, work: Path, server: str, label: str, tiles: int
) -> Iterator[tuple[Wall, str]]:
    """tilewall on a copy of ``seed_dir`` and headless Chromium, as ``open_wall``: the
    wall and the clip's source id; everything closed after."""
    from playwright.sync_api import sync_playwright

    seeded = Seeded.read(seed_dir)
    proc = tilewall_proc(seed_dir, work, server, label)
    with proc, sync_playwright() as playwright:
        proc.start()
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        host = Client(proc.base_url, ADMIN, PASSWORD)
        try:
            host.login()
            yield open_wall(browser, host, proc.base_url, seeded, tiles)
        finally:
            host.close()
            browser.close()


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
    with clip_wall(seed_dir, work, server, f"sync-{tiles}", tiles) as (wall, source):
        host, pages = wall.host, wall.pages
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
        log(f"wall sync, {tiles} tiles: switch and play")
        start = wall.start_ms()
        sleep_until(start + SWITCH_WINDOW_MS)
        phases["switch"] = wall.phase("switch", start, after_s, settle_timeout_s)
        phases["play"] = wall.phase("play", None, play_s, settle_timeout_s)

        wall.event("seek")
        host.zones.seek(wall.zone, 6000, by="id")
        wall.wait_all("t.state.content.timeline.anchorPositionMs === 6000")
        phases["seek"] = wall.phase("seek", wall.start_ms(), after_s, settle_timeout_s)

        wall.event("pause")
        host.zones.pause(wall.zone, by="id")
        wall.wait_all("t.state.content.timeline.state === 'paused'")
        phases["pause"] = wall.phase("pause", None, min(after_s, 2.0), settle_timeout_s)

        wall.event("resume")
        host.zones.resume(wall.zone, by="id")
        wall.wait_all("t.state.content.timeline.state === 'playing'")
        phases["resume"] = wall.phase("resume", wall.start_ms(), after_s, settle_timeout_s)

        log(f"wall sync, {tiles} tiles: the loop point")
        phases["loop"] = loop_phase(wall, after_s)
        clock = [
            p.evaluate("() => ({offsetMs: window.tilewall.offsetMs, rttMs: window.tilewall.rttMs})")
            for p in pages
        ]
        for page in pages:
            page.context.close()
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


def loop_phase(wall: Wall, after_s: float) -> dict[str, Any]:
    """The clip's loop point: seek to just before its end and sample the tiles from a
    moment before the loop to twice that after it."""
    wall.event("loop")
    before = min(LOOP_WINDOW_MS, after_s * 1000)
    after = 2 * before
    to = int(wall.duration_ms - before - 1500)
    wall.host.zones.seek(wall.zone, to, by="id")
    wall.wait_all(f"t.state.content.timeline.anchorPositionMs === {to}")
    timeline = wall.pages[0].evaluate("() => window.tilewall.state.content.timeline")
    loop_at = timeline["anchorMs"] + wall.duration_ms - timeline["anchorPositionMs"]
    sleep_until(loop_at - before)
    sampled = wall.measure("loop", (before + after) / 1000)
    sleep_until(loop_at + after)
    return {
        "settle_s": 0.0,
        **sampled,
        **wall.frames(loop_at - before, loop_at + after, loop_at),
    }


def main(argv: list[str] | None = None) -> None:
    """Wall sync alone: seeds its own data directories, prints and writes the figures."""
    import argparse
    import tempfile

    from bench.seed import seed

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiles", default="4,9", help="tile counts, comma separated")
    parser.add_argument("--play", type=float, default=8.0, help="seconds of steady play")
    parser.add_argument("--after", type=float, default=3.0, help="seconds after each command")
    parser.add_argument("--settle", type=float, default=8.0, help="settle timeout, seconds")
    parser.add_argument("--out", type=Path, help="results JSON")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="wallsync-") as tmp:
        work = Path(tmp)
        for tiles in (int(t) for t in args.tiles.split(",")):
            data = work / f"seed-{tiles}"
            seed(data, tiles, 0, one_zone=True)
            r = run_wall(data, work, tiles, args.play, args.after, args.settle)
            results[str(tiles)] = r
            for name, phase in r["phases"].items():
                f = phase.get("frames") or {}
                start = phase.get("start") or {}
                print(
                    f"{tiles} tiles {name:7} frames p50/p95/max "
                    f"{_ms(f.get('p50'))}/{_ms(f.get('p95'))}/{_ms(f.get('max'))} "
                    f"({f.get('bins')} bins)  sampled p95 {_ms(phase.get('p95'))}"
                    f"  ready before {_ms(start.get('ready_before_ms_min'))}"
                    f"  missed {start.get('missed')}  settle {phase['settle_s']:.1f} s"
                )
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n")


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


if __name__ == "__main__":
    main()
