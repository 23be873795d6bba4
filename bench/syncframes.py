"""The spread between tiles from the frames they showed.

``RECORDER`` (a script run in each receiver page before its own) records every frame a
video on screen (``shown`` or ``rising``, see sources.js) presents, from
``requestVideoFrameCallback``: its presentation time, in host time by the page's own
clock offset, its media time, and the timeline the page had then. It reads nothing else
of the page, so it measures a receiver of any version alike. A frame's *error* is its
media time minus the position the timeline gives at its presentation (within the clip,
which loops): the same for every tile that shows the same frame at the same instant,
whatever the frame rate. Frames come at the video's rate (25 a second
for the demo clip), each shown from one vsync, so one frame's error is quantised; the
mean over a short bin is not, and its difference between tiles is how far apart they
play. Per bin of ``BIN_MS`` host milliseconds: each tile's mean error, and the spread
(largest minus smallest) across tiles, for bins where every tile showed ``MIN_FRAMES``
frames or more.
"""

from __future__ import annotations

from typing import Any

BIN_MS = 200.0
MIN_FRAMES = 2

RECORDER = """(() => {
  const frames = [];
  const timelines = [];
  let last = null;
  window.__twFrames = { frames, timelines };
  const seen = new WeakSet();
  const watch = (video) => {
    const frame = (now, m) => {
      const t = window.tilewall;
      const on = video.classList.contains('shown') || video.classList.contains('rising');
      const tl = t && t.state && t.state.content && t.state.content.timeline;
      if (on && tl && video.isConnected) {
        const key = JSON.stringify(tl);
        if (key !== last) { last = key; timelines.push(tl); }
        frames.push([performance.timeOrigin + m.presentationTime + t.offsetMs,
                     m.mediaTime * 1000, timelines.length - 1]);
      }
      if (video.isConnected) video.requestVideoFrameCallback(frame);
    };
    video.requestVideoFrameCallback(frame);
  };
  new MutationObserver(() => {
    for (const v of document.querySelectorAll('video')) {
      if (!seen.has(v) && v.requestVideoFrameCallback) { seen.add(v); watch(v); }
    }
  }).observe(document, { subtree: true, childList: true });
})()"""

FRAMES_JS = """(since) => {
  const r = window.__twFrames || { frames: [], timelines: [] };
  return { frames: r.frames.filter((f) => f[0] >= since), timelines: r.timelines };
}"""


def position_at(timeline: dict[str, Any], host_ms: float) -> float:
    """The timeline's position at ``host_ms``: held at its start before ``startMs``."""
    if timeline["state"] != "playing":
        return float(timeline["anchorPositionMs"])
    start = max(timeline.get("startMs", timeline["anchorMs"]), timeline["anchorMs"])
    return float(timeline["anchorPositionMs"] + max(host_ms, start) - timeline["anchorMs"])


def frame_errors(raw: dict[str, Any], duration_ms: float) -> list[dict[str, Any]]:
    """The recorder's frames with ``expectedMs`` (the position within the looping clip)."""
    out = []
    for host, media, index in raw["frames"]:
        expected = position_at(raw["timelines"][index], host) % duration_ms
        error = media - expected
        if error > duration_ms / 2:  # a frame of the pass before against the next one
            expected += duration_ms
        elif error < -duration_ms / 2:
            expected -= duration_ms
        out.append({"hostMs": host, "mediaMs": media, "expectedMs": expected})
    return out


def percentile(values: list[float], q: float) -> float | None:
    """Linear interpolation between closest ranks (q in 0..100)."""
    vals = sorted(values)
    if not vals:
        return None
    k = (len(vals) - 1) * q / 100
    lo = int(k)
    hi = min(lo + 1, len(vals) - 1)
    return vals[lo] + (vals[hi] - vals[lo]) * (k - lo)


def bin_errors(
    frames: list[dict[str, Any]], start_ms: float, end_ms: float, bin_ms: float = BIN_MS
) -> list[float | None]:
    """One tile's mean error per bin of [start_ms, end_ms) (None: too few frames)."""
    count = max(int((end_ms - start_ms) // bin_ms), 0)
    sums = [0.0] * count
    ns = [0] * count
    for f in frames:
        at = f["hostMs"]
        if at < start_ms or at >= start_ms + count * bin_ms:
            continue
        i = int((at - start_ms) // bin_ms)
        sums[i] += f["mediaMs"] - f["expectedMs"]
        ns[i] += 1
    return [s / n if n >= MIN_FRAMES else None for s, n in zip(sums, ns, strict=True)]


def frame_spread(
    tiles: list[list[dict[str, Any]]], start_ms: float, end_ms: float, bin_ms: float = BIN_MS
) -> dict[str, Any]:
    """Spread between tiles over [start_ms, end_ms): p50, p95, max over the bins."""
    per_tile = [bin_errors(frames, start_ms, end_ms, bin_ms) for frames in tiles]
    spreads: list[float] = []
    worst: list[float] = []
    count = len(per_tile[0]) if per_tile else 0
    for i in range(count):
        errors = [bins[i] for bins in per_tile]
        complete = [e for e in errors if e is not None]
        if len(complete) != len(tiles):
            continue
        spreads.append(max(complete) - min(complete))
        worst.append(max(abs(e) for e in complete))
    shown = [sum(1 for f in frames if start_ms <= f["hostMs"] < end_ms) for frames in tiles]
    medians = [percentile([e for e in bins if e is not None], 50) for bins in per_tile]
    return {
        "p50": percentile(spreads, 50),
        "p95": percentile(spreads, 95),
        "max": max(spreads) if spreads else None,
        "bins": len(spreads),
        "bins_total": count,
        "bin_ms": bin_ms,
        "max_error_vs_host_ms": max(worst) if worst else None,
        "frames_per_tile": shown,
        "median_error_per_tile_ms": [None if m is None else round(m, 1) for m in medians],
    }


def start_summary(tiles: list[list[dict[str, Any]]], at_ms: float) -> dict[str, Any]:
    """The tiles' starts on the host instant ``at_ms``: how long before it each was
    pre-rolled (ready), when each one's clock really started against it, and how many
    missed it (and joined at an instant of their own)."""
    ready_before: list[float] = []
    errors: list[float] = []
    missed = 0
    on_it = 0
    for starts in tiles:
        mine = [s for s in starts if abs(s["atMs"] - at_ms) < 1]
        if not mine:
            continue
        on_it += 1
        if any(s.get("missed") for s in mine):
            missed += 1
        for s in mine:
            if s.get("readyMs") is not None:
                ready_before.append(at_ms - s["readyMs"])
            if s.get("errorMs") is not None:
                errors.append(s["errorMs"])
    return {
        "at_ms": at_ms,
        "tiles_cued": on_it,
        "missed": missed,
        "ready_before_ms_min": min(ready_before) if ready_before else None,
        "ready_before_ms_p50": percentile(ready_before, 50),
        "start_error_ms": [round(e, 2) for e in errors],
        "start_spread_ms": max(errors) - min(errors) if len(errors) > 1 else None,
    }
