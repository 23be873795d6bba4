"""The report's section on receivers: switch fan-out, memory with receivers, wall sync."""

from __future__ import annotations

import json
from typing import Any

from bench.figures import _ms, _num, _table

FANOUT_LAYOUTS = {
    "one_zone": "one zone of N (all N told)",
    "walls_of_four": "walls of four (N connected, one zone of 4 told)",
}
PHASES = ("switch", "play", "seek", "pause", "resume", "loop")


def _p(d: dict[str, Any] | None, key: str) -> str:
    return _ms((d or {}).get(key))


def receivers_section(results: dict[str, Any], image_prefix: str, h: str) -> list[str]:
    """What is not yet measured, then switch fan-out, memory and wall sync."""
    rec = results.get("receivers") or {}
    lines = [f"{h}# Receivers", ""]
    pending = [n for n, r in rec.items() if r.get("status") == "not yet measured"]
    for name in pending:
        r = rec[name]
        lines.append(
            f"- `{name}`: **not yet measured** ({r['what']}; plan: {json.dumps(r['plan'])})."
        )
    if pending:
        lines.append("")

    lines += fanout_section(results, h)
    lines += receiver_memory_section(rec, h)
    lines += wall_sync_section(results, image_prefix, h)
    return lines


def fanout_section(results: dict[str, Any], h: str) -> list[str]:
    """From a switch sent to the last receiver of the zone told, by layout and size."""
    rec = results.get("receivers") or {}
    lines: list[str] = []
    fo = rec.get("switch_fanout") or {}
    if fo.get("status") == "measured":
        lines += [
            f"{h}## Switch fan-out",
            "",
            "From `PUT /api/zones/{id}/switch` sent to the last receiver of the zone holding a "
            "`state` (or `content`) that shows the new source. The receivers are WebSocket "
            "clients in one separate process on uvloop (`bench/wsclients.py`, protocol v1: "
            'hello with `features: ["content"]` as the receiver page says it, pong, ack), '
            "which also sends the PUT, so both ends are timed on one monotonic clock; "
            f"{fo['server']}, switching between two Web Browser sources, "
            f"{results['settings'].get('fanout_switches')} switches per size. *ack* is the "
            "PUT's own answer time; *first* the first receiver told.",
            "",
        ]
        rows = []
        for layout, sizes in fo["layouts"].items():
            for n, e in sizes.items():
                if e.get("last_ms", {}).get("p50") is None:
                    rows.append(
                        [
                            FANOUT_LAYOUTS.get(layout, layout),
                            n,
                            "**not measured**: " + str(e.get("error", "no switch completed")),
                            "",
                            "",
                            "",
                            "",
                        ]
                    )
                    continue
                rows.append(
                    [
                        FANOUT_LAYOUTS.get(layout, layout),
                        n,
                        _p(e["last_ms"], "p50"),
                        _p(e["last_ms"], "p99"),
                        _p(e["first_ms"], "p50"),
                        _p(e["ack_ms"], "p50"),
                        str(e["switches"]),
                    ]
                )
        lines += _table(
            [
                "layout",
                "receivers",
                "last told p50 ms",
                "last told p99 ms",
                "first told p50 ms",
                "ack p50 ms",
                "switches",
            ],
            rows,
        )
        lines.append("")
    return lines


def receiver_memory_section(rec: dict[str, Any], h: str) -> list[str]:
    """The host's memory by receivers connected."""
    lines: list[str] = []
    mem = rec.get("memory_with_receivers") or {}
    if mem.get("status") in ("measured", "failed") and mem.get("rss_mb"):
        lines += [
            f"{h}## Memory with receivers",
            "",
            f"Host RSS (process and children, psutil) on a topology of {mem['displays']} "
            "displays in walls of four, sampled once every receiver stayed connected for 3 s "
            "(none reconnecting); the receivers are the WebSocket client process above.",
            "",
        ]
        rows = []
        for n, v in mem["rss_mb"].items():
            per = mem["per_receiver_kb"].get(n)
            rows.append(
                [
                    n if n != "0" else "0 (idle)",
                    _num(v, 1),
                    "–" if per is None else _num(per, 0),
                ]
            )
        lines += _table(["receivers connected", "RSS MB", "KB per receiver"], rows)
        if mem.get("error"):
            lines += ["", f"⚠ {mem['error']}"]
        lines.append("")
    return lines


def wall_sync_section(results: dict[str, Any], image_prefix: str, h: str) -> list[str]:
    """How far apart the tiles of a wall in Chromium show the clip, by phase."""
    rec = results.get("receivers") or {}
    label = results["label"]
    lines: list[str] = []
    sync = rec.get("wall_sync") or {}
    if sync.get("status") == "measured":
        vp = sync["viewport"]
        lines += [
            f"{h}## Wall sync in Chromium",
            "",
            "Tiles of one zone (one wall, one receiver page each, headless Chromium, "
            f"{vp['width']}×{vp['height']} pages) play the demo clip ({sync['source']}): the "
            "switch to it, steady play, a seek, a pause, the resume and the clip's loop "
            "point. *Frames* (the figure to quote): every frame each tile presents on "
            "screen (`requestVideoFrameCallback`: presentation time in host time, media "
            "time) against the position the host timeline gives then; per 200 ms bin the "
            "spread (largest minus smallest) of the tiles' mean errors, from the "
            "command's scheduled start on (`bench/syncframes.py`). *Sampled* (the older "
            "figure): rounds of each tile's `window.tilewall.sample()` once the tiles "
            "settled (every tile within 30 ms three rounds in a row; *settle* is how long "
            f"that took, capped at {results['settings'].get('sync_settle_timeout_s')} s). "
            "*Ready before* is how long before its start instant the last tile was "
            "pre-rolled; *missed*, how many tiles were not and joined on an instant of "
            "their own. Goal: under 8 ms p95 in every phase (one frame at 60 Hz is 17 ms).",
            "",
        ]
        rows = []
        for tiles, r in sync["by_tiles"].items():
            if "error" in r:
                rows.append([tiles, "**failed**: " + r["error"][:200], *[""] * 8])
                continue
            for phase in PHASES:
                e = r["phases"].get(phase)
                if not e:
                    continue
                f = e.get("frames") or {}
                start = e.get("start") or {}
                goal = f.get("p95")
                rows.append(
                    [
                        tiles,
                        phase,
                        _p(f, "p50"),
                        _p(f, "p95") + ("" if goal is None else (" ✓" if goal < 8 else " ✗")),
                        _p(f, "max"),
                        _p(e, "p95"),
                        _ms(e.get("max_error_vs_host_ms")),
                        _ms(start.get("ready_before_ms_min")),
                        "" if not start else str(start.get("missed")),
                        f"{e['settle_s']:.1f}",
                    ]
                )
        lines += _table(
            [
                "tiles",
                "phase",
                "frames spread p50 ms",
                "frames p95 ms (goal < 8)",
                "frames max ms",
                "sampled p95 ms",
                "sampled vs host max ms",
                "ready before ms",
                "missed",
                "settle s",
            ],
            rows,
        )
        lines += ["", f"![Wall sync over time]({image_prefix}sync-{label}.png)", ""]
    return lines
