"""How Chromium presents a playing video's frames against the element's media clock: the
two measurements behind the wall-sync findings in docs/performance-notes.md, on one page, in
headless Chromium, with nothing of tilewall in it (the demo clip from a plain HTTP
server).

- *Nudges*: once the clip plays, its clock is moved ahead in steps, each by
  ``playbackRate`` 1 + step / 200 ms held for 200 ms (how a receiver removes small
  errors). After each step: how far the clock moved (``currentTime`` against the
  page's clock, from the first step on) and how far the frames on screen moved (each
  frame's media time against its expected display time, from
  ``requestVideoFrameCallback``, averaged over whole cycles of five frames).
- *Start phase*: the clip is held paused at its start and ``play()`` is called at a
  chosen phase of the screen's refresh interval (``requestAnimationFrame``'s grid),
  waited out on the page's thread; then the frames' mean error against the element's
  own clock, per phase.

    python bench/renderer.py --steps 1,5 --phases 2 --out renderer.json
"""

from __future__ import annotations

import argparse
import functools
import json
import shutil
import statistics
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.chromium import CHROMIUM, CHROMIUM_ARGS, VIEWPORT
from bench.wallsync import CLIP

FOLLOW_JS = (
    Path(__file__).resolve().parent.parent / "src" / "tilewall" / "web" / "receiver" / "follow.js"
)

PAGE = """<!doctype html><html><body style="margin:0;background:#000">
<video id="v" src="clip.mp4" muted playsinline preload="auto"
       style="width:320px;height:180px"></video>
<script>
const v = document.getElementById('v');
let frames = [];
const seen = (now, m) => {
  frames.push([m.expectedDisplayTime, m.mediaTime * 1000]);
  v.requestVideoFrameCallback(seen);
};
v.requestVideoFrameCallback(seen);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const frame = () => new Promise((r) => requestAnimationFrame(r));
const clockAt = async () => {  // performance time of media time 0, median of nine reads
  const starts = [];
  for (let i = 0; i < 9; i++) { starts.push(performance.now() - v.currentTime * 1000); await sleep(3); }
  return starts.sort((a, b) => a - b)[4];
};
const presented = (from, to, zero) => {  // mean of media time minus (display time - zero)
  const f = frames.filter((x) => x[0] >= from && x[0] < to);
  const n = Math.floor(f.length / 5) * 5;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += f[i][1] - (f[i][0] - zero);
  return n ? sum / n : null;
};
const rewind = async () => {
  v.pause(); v.playbackRate = 1; v.currentTime = 0;
  await new Promise((r) => v.addEventListener('seeked', r, { once: true }));
  await sleep(250);
};
window.nudges = async (step, count) => {
  await rewind();
  await v.play(); await sleep(400);
  const zero = await clockAt();
  const out = [];
  for (let k = 0; k <= count; k++) {
    if (k) { v.playbackRate = 1 + step / 200; await sleep(200); v.playbackRate = 1; }
    await sleep(150);
    const from = performance.now();
    await sleep(600);
    // a starved machine may present fewer than five frames in 600 ms: widen the window
    let framesMs = presented(from, performance.now(), zero);
    for (let more = 0; framesMs === null && more < 4; more++) {
      await sleep(600);
      framesMs = presented(from, performance.now(), zero);
    }
    out.push({ clockMs: zero - (await clockAt()), framesMs });
  }
  return out;
};
// Clock steps under a rate: the clip plays at `rateAt(t)` (a fixed rate, or the receiver's
// bias from follow.js), its clock is moved ahead by `step` ms every second (100 ms at
// + step / 100), and after each step the frames' mean error against the element's own
// clock (read every 4 ms, interpolated) over the next 600 ms (a stray frame, off by more
// than 100 ms, is left out: a callback for a frame of a stall).
window.follows = async (mode, step, count) => {
  const bias = mode === 'bias' ? (await import('./follow.js')).bias : null;
  const base = mode === 'bias' ? 1 : Number(mode);
  const rateAt = (t, extra) => (bias ? 1 + bias(performance.timeOrigin + t) : base) + extra;
  await rewind();
  v.playbackRate = rateAt(performance.now(), 0);
  await v.play();
  const clock = [];
  const run = async (ms, extra) => {
    const end = performance.now() + ms;
    while (performance.now() < end) {
      const now = performance.now();
      const r = rateAt(now, extra);
      if (v.playbackRate !== r) v.playbackRate = r;
      clock.push([now, v.currentTime * 1000]);
      await sleep(4);
    }
  };
  const at = (t) => {  // the element's clock at performance time t
    let lo = 0, hi = clock.length - 1;
    if (hi < 1 || t < clock[0][0] || t > clock[hi][0]) return null;
    while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (clock[mid][0] <= t) lo = mid; else hi = mid; }
    const [x0, y0] = clock[lo], [x1, y1] = clock[hi];
    return x1 > x0 ? y0 + ((y1 - y0) * (t - x0)) / (x1 - x0) : y0;
  };
  await run(1500, 0);
  const out = [];
  for (let k = 0; k <= count; k++) {
    if (k) await run(100, step / 100);
    await run(300, 0);
    const from = performance.now();
    await run(600, 0);
    const errors = frames.filter((f) => f[0] >= from && f[0] < from + 600)
      .map((f) => f[1] - at(f[0])).filter((e) => Number.isFinite(e) && Math.abs(e) < 100);
    const n = Math.floor(errors.length / 5) * 5;
    out.push(n ? errors.slice(0, n).reduce((a, b) => a + b, 0) / n : null);
  }
  return out;
};
window.startAt = async (phaseMs) => {
  await rewind();
  const grid = await frame();
  const go = grid + 4 * 16.6667 + phaseMs;
  await sleep(go - performance.now() - 8);
  while (performance.now() < go) {}
  v.play(); frames = [];
  await sleep(1300);
  const zero = await clockAt();
  const interval = 1000 / 60;
  return { phaseMs, startedPhaseMs: (((zero - grid) % interval) + interval) % interval,
           lateMs: zero - go, framesMs: presented(zero + 300, zero + 1300, zero) };
};
</script></body></html>
"""


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(folder: Path) -> ThreadingHTTPServer:
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


RATES = ["1", "1.002", "1.003", "1.004", "bias"]
#: clock steps of this size (ms), and how many, in each rate's run
RATE_STEP_MS = 2.0
RATE_STEPS = 8


def measure(
    steps: list[float], count: int, phases: list[int], rates: list[str] | None = None
) -> dict[str, Any]:
    """Nudges of each size in ``steps`` (``count`` of each), a start at each of
    ``phases`` (ms into the refresh interval), then clock steps under each of ``rates``."""
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {"nudges": {}, "starts": [], "rates": {}}
    with tempfile.TemporaryDirectory(prefix="renderer-") as tmp:
        folder = Path(tmp)
        shutil.copy(CLIP, folder / "clip.mp4")
        shutil.copy(FOLLOW_JS, folder / "follow.js")
        (folder / "index.html").write_text(PAGE)
        server = serve(folder)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
                )
                page = browser.new_context(viewport=VIEWPORT).new_page()
                page.goto(f"http://127.0.0.1:{server.server_port}/index.html")
                page.wait_for_function("document.getElementById('v').readyState >= 3")
                for step in steps:
                    rows = page.evaluate("([s, n]) => nudges(s, n)", [step, count])
                    base = rows[0]
                    out["nudges"][str(step)] = [
                        {
                            "clock_moved_ms": r["clockMs"] - base["clockMs"],
                            "frames_moved_ms": moved(r["framesMs"], base["framesMs"]),
                        }
                        for r in rows
                    ]
                for phase in phases:
                    out["starts"].append(page.evaluate("(p) => startAt(p)", phase))
                for rate in rates or []:
                    errors = page.evaluate(
                        "([m, s, n]) => follows(m, s, n)", [rate, RATE_STEP_MS, RATE_STEPS]
                    )
                    out["rates"][rate] = followed(errors)
                browser.close()
        finally:
            server.shutdown()
    return out


def moved(value: float | None, base: float | None) -> float | None:
    """How far ``value`` moved from ``base``; None when a window presented no frame (a
    starved machine presents none in 600 ms, and a figure made up for it would lie)."""
    return None if value is None or base is None else value - base


def shown(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def followed(errors: list[float | None]) -> dict[str, Any]:
    """The frames' error against the clock after each clock step, and how far it went:
    frames that follow the clock keep it (a few ms of a frame's quantisation); frames
    held by a cadence lose each step until Chromium lets go (20 ms)."""
    seen = [e for e in errors if e is not None]
    return {
        "frames_vs_clock_ms": [None if e is None else round(e, 2) for e in errors],
        "range_ms": round(max(seen) - min(seen), 2) if seen else None,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="1,5", help="nudge sizes in ms, comma separated")
    parser.add_argument("--count", type=int, default=8, help="nudges of each size")
    parser.add_argument("--phases", type=int, default=2, help="rounds of start phases")
    parser.add_argument(
        "--phase-ms", help="start phases in ms, comma separated (default: 0, 2, ... 16 ms)"
    )
    parser.add_argument(
        "--rates",
        default=",".join(RATES),
        help="rates for the clock steps ('bias': the receiver's)",
    )
    parser.add_argument("--out", type=Path, help="results JSON")
    args = parser.parse_args(argv)
    each = [int(p) for p in args.phase_ms.split(",")] if args.phase_ms else range(0, 17, 2)
    phases = [phase for _ in range(args.phases) for phase in each]
    rates = [r for r in args.rates.split(",") if r]
    result = measure([float(s) for s in args.steps.split(",")], args.count, phases, rates)
    for step, rows in result["nudges"].items():
        pairs = ", ".join(
            f"{r['clock_moved_ms']:.1f}/{shown(r['frames_moved_ms'])}" for r in rows[1:]
        )
        print(f"nudges of {step} ms, clock/frames moved (ms): {pairs}")
    by_phase: dict[int, list[float | None]] = {}
    for start in result["starts"]:
        by_phase.setdefault(int(start["phaseMs"]), []).append(start["framesMs"])
    for phase, errors in sorted(by_phase.items()):
        seen = [e for e in errors if e is not None]
        mean = f"{statistics.mean(seen):6.1f} ms" if seen else "no frame"
        print(
            f"play() {phase:2d} ms into the refresh interval: frames vs own clock "
            f"{mean} (runs {', '.join(shown(e) for e in errors)})"
        )
    for rate, row in result["rates"].items():
        steps = ", ".join("-" if e is None else f"{e:.1f}" for e in row["frames_vs_clock_ms"])
        print(
            f"rate {rate:>5}: frames vs clock after each {RATE_STEP_MS:g} ms step: {steps} "
            f"(range {row['range_ms']} ms)"
        )
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
