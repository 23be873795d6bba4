"""Many starts of one wall: the tiles of one zone play the demo clip, and the host is
told to seek and to pause and resume, round after round. Each seek and each resume is a
start every tile makes on one host instant; per start, from the frames the tiles
presented (``bench/syncframes.py``), the spread of 200 ms bins from the instant on, and
each tile's own account of its start (how late its timer fired, its clock's error).

``bench/wallsync.py`` gives the figures of the goals; this gives enough starts in a few
minutes to compare two versions of the receiver, run after run in turn:

    PYTHONPATH=src python -m bench.wallstarts --tiles 9 --rounds 12 --out starts.json

*first*: the worse of the first two bins after a start (the start and its catch-up);
*later*: the bins 0.4-1 s after it (where a tile taken into a cadence showed).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.seed import seed
from bench.syncframes import FRAMES_JS, bin_errors, frame_errors
from bench.wallsync import clip_wall

#: bins measured after each start (the next command comes 1.6 s after it)
BINS = 7
PLAY_S = 1.6
PAUSED_S = 0.5


def spreads_after(tiles: list[list[dict[str, Any]]], at_ms: float) -> list[float | None]:
    per_tile = [bin_errors(frames, at_ms, at_ms + BINS * 200) for frames in tiles]
    out: list[float | None] = []
    for i in range(BINS):
        errors = [bins[i] for bins in per_tile]
        complete = [e for e in errors if e is not None]
        out.append(max(complete) - min(complete) if len(complete) == len(errors) else None)
    return out


def own_account(starts: list[dict[str, Any]], at_ms: float) -> dict[str, Any] | None:
    return next(
        (s for s in starts if abs(s["atMs"] - at_ms) < 1 and s.get("errorMs") is not None),
        None,
    )


def run(tiles: int, rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="wallstarts-") as tmp:
        work = Path(tmp)
        seed(work / "seed", tiles, 0, one_zone=True)
        with clip_wall(work / "seed", work, "uvicorn", "starts", tiles) as (wall, source):
            host, pages = wall.host, wall.pages
            host.zones.switch(wall.zone, source_id=source, by="id")
            wall.wait_all("t.sample().item === 'clip.mp4'")
            wall.wait_all("document.querySelector('video').readyState >= 2")
            duration = float(
                pages[0].evaluate("() => window.tilewall.state.content.source.totalMs")
            )
            since = wall.start_ms() - 1000
            time.sleep(2.5)
            instants: list[tuple[str, float]] = []
            for i in range(rounds):
                to = 1000 + (i * 1370) % 8000
                host.zones.seek(wall.zone, to, by="id")
                wall.wait_all(f"t.state.content.timeline.anchorPositionMs === {to}")
                instants.append(("seek", wall.start_ms()))
                time.sleep(PLAY_S)
                host.zones.pause(wall.zone, by="id")
                wall.wait_all("t.state.content.timeline.state === 'paused'")
                time.sleep(PAUSED_S)
                host.zones.resume(wall.zone, by="id")
                wall.wait_all("t.state.content.timeline.state === 'playing'")
                instants.append(("resume", wall.start_ms()))
                time.sleep(PLAY_S)
            frames = [frame_errors(p.evaluate(FRAMES_JS, since), duration) for p in pages]
            starts = [p.evaluate("(s) => window.tilewall.sync(s).starts", since) for p in pages]
    out = []
    for kind, at in instants:
        accounts = [own_account(s, at) for s in starts]
        out.append(
            {
                "kind": kind,
                "at_ms": at,
                "spreads_ms": spreads_after(frames, at),
                "late_ms": [a and round(a["lateMs"], 2) for a in accounts],
                "error_ms": [a and round(a["errorMs"], 2) for a in accounts],
            }
        )
    return {"tiles": tiles, "rounds": rounds, "starts": out}


def summary(starts: list[dict[str, Any]]) -> dict[str, Any]:
    """Per kind of start: the first and the later bins, median and share over 8 ms."""
    out: dict[str, Any] = {}
    for kind in ("seek", "resume"):
        first, later = [], []
        for s in starts:
            sp = s["spreads_ms"]
            if s["kind"] != kind or sp[0] is None or sp[1] is None:
                continue
            first.append(max(sp[0], sp[1]))
            later += [x for x in sp[2:5] if x is not None]
        out[kind] = {
            name: {
                "n": len(v),
                "median_ms": round(statistics.median(v), 2) if v else None,
                "over_8_ms": round(sum(x > 8 for x in v) / len(v), 3) if v else None,
            }
            for name, v in (("first", first), ("later", later))
        }
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiles", type=int, default=9)
    parser.add_argument("--rounds", type=int, default=12, help="seek, pause and resume rounds")
    parser.add_argument("--out", type=Path, help="results JSON")
    args = parser.parse_args(argv)
    result = run(args.tiles, args.rounds)
    result["summary"] = summary(result["starts"])
    for kind, parts in result["summary"].items():
        print(
            f"{args.tiles} tiles, {kind}: "
            + "  ".join(
                f"{name} median {p['median_ms']} ms, over 8 ms {p['over_8_ms']:.0%} ({p['n']})"
                for name, p in parts.items()
                if p["n"]
            )
        )
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
