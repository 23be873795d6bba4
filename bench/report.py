"""The results of a run as Markdown and plots; BENCHMARKS.md shows the latest run in its
generated block (``bench/page.py``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
BENCHMARKS_MD = ROOT / "BENCHMARKS.md"

if str(ROOT) not in sys.path:  # run as ``python bench/report.py``
    sys.path.insert(0, str(ROOT))

from bench.figures import (  # noqa: E402
    OP_LABELS,
    _ms,
    _num,
    _table,
    _x,
    fig,
    ratio,
    run_header,
)
from bench.report_postgres import postgres_section  # noqa: E402


def summary(results: dict[str, Any], image_prefix: str = "", heading: int = 1) -> str:
    h = "#" * heading
    label = results["label"]
    lines: list[str] = [f"{h} tilewall benchmarks: {label}", ""]
    if results.get("quick"):
        lines += [
            "*Quick run (`make bench-quick`): one run of each, short loads; indicative only.*",
            "",
        ]
    lines += run_header(results)

    lines += interface_section(results, image_prefix, h)
    lines += memory_section(results, h)
    lines += durable_section(results, image_prefix, h)
    lines += growth_section(results, h)
    lines += receivers_section(results, image_prefix, h)
    lines += postgres_section(results, h)
    return "\n".join(lines)


def interface_section(results: dict[str, Any], image_prefix: str, h: str) -> list[str]:
    """Requests per second and latencies of each server and topology, beside the
    ceiling and Prism."""
    label = results["label"]
    iface = results["interface"]
    lines: list[str] = [f"{h}# Interface throughput and latency", ""]
    cmp = iface.get("granian_vs_uvicorn")
    if cmp and cmp.get("geomean"):
        g = cmp["geomean"]
        faster, factor = ("granian", g) if g > 1 else ("uvicorn", 1 / g)
        lines += [
            f"**{faster} is faster**: granian reaches ×{g:.2f} uvicorn's requests per second "
            f"(geometric mean over {len(cmp['rps_ratio'])} operation × topology pairs, each the "
            f"median of per-round ratios), so {faster} serves ×{factor:.2f} the load "
            f"(`tilewall serve` defaults to uvicorn).",
            "",
        ]
    for server, topos in iface["servers"].items():
        ceiling = iface["ceiling"].get(server)
        lines += [
            f"**{server}**"
            + (
                f" (ceiling, a bare Litestar JSON endpoint on the same stack: "
                f"{fig(ceiling['rps'])} req/s, p50 {fig(ceiling['p50_ms'], _ms)} ms, p99 "
                f"{fig(ceiling['p99_ms'], _ms)} ms)"
                if ceiling
                else ""
            ),
            "",
        ]
        rows = []
        for n, topo in topos.items():
            for name, e in topo["ops"].items():
                rows.append(
                    [
                        n,
                        f"`{OP_LABELS.get(name, name)}`",
                        fig(e["rps"]),
                        fig(e["p50_ms"], _ms),
                        fig(e["p99_ms"], _ms),
                        ratio(e.get("vs_ceiling")),
                        ratio(e.get("vs_prism")),
                    ]
                    + (["⚠ " + str(e["failed"])] if e["failed"] else [])
                )
        lines += _table(
            ["displays", "operation", "req/s", "p50 ms", "p99 ms", "÷ ceiling", "÷ Prism"],
            rows,
        )
        lines.append("")
    if iface.get("prism"):
        lines += [
            "**Prism** (`prism mock` on tilewall's own `/api/openapi.json`, static examples: "
            "its answers are the document's one-item examples whatever the topology, so "
            "the ÷ Prism ratio is the fair one at the smallest topology)",
            "",
        ]
        rows = [
            [
                f"`{OP_LABELS.get(name, name)}`",
                fig(e["rps"]),
                fig(e["p50_ms"], _ms),
                fig(e["p99_ms"], _ms),
            ]
            for name, e in iface["prism"].items()
        ]
        lines += _table(["operation", "req/s", "p50 ms", "p99 ms"], rows)
        lines.append("")
    failed = [
        f"{server}/{n}/{name}: {e['failed']}"
        for server, topos in iface["servers"].items()
        for n, topo in topos.items()
        for name, e in topo["ops"].items()
        if e["failed"]
    ]
    if failed:
        lines += ["**Failed requests** (errors or non-2xx answers): " + ", ".join(failed), ""]
    lines += [f"![Latency distributions]({image_prefix}latency-{label}.png)", ""]
    lines += [f"![Throughput]({image_prefix}throughput-{label}.png)", ""]
    return lines


def memory_section(results: dict[str, Any], h: str) -> list[str]:
    """Start-up time and resident memory, idle and after load."""
    iface = results["interface"]
    lines: list[str] = [
        f"{h}# Memory and start-up",
        "",
        "Start-up: process spawn to the first answered `GET /api/openapi.json` (which "
        "includes loading the stored state; the OpenAPI document is read from the cache an "
        "earlier start of the same code left, and built only in the *cold* row, which "
        "starts with an empty cache as the first start after an install or upgrade does). "
        "RSS: "
        "resident memory of the server process (psutil), idle half a second after that "
        "answer; *after load* is the RSS of the interface benchmark's server at its end.",
        "",
    ]
    rows = []
    for server, keys in results["startup"].items():
        for key, e in keys.items():
            after = "–"
            topo = iface["servers"].get(server, {}).get(key)
            if topo:
                after = _num(topo["rss_after_load_mb"], 1)
                _num(topo["rss_idle_mb"], 1)
            rows.append(
                [
                    server,
                    key if key != "ceiling" else "ceiling app",
                    fig(e["startup_s"], lambda x: f"{x:.2f}"),
                    fig(e["rss_idle_mb"], lambda x: f"{x:.1f}"),
                    after,
                ]
            )
    lines += _table(["server", "displays", "start-up s", "RSS idle MB", "RSS after load MB"], rows)
    if "prism_rss_mb" in iface:
        lines += ["", f"Prism's RSS after load: {iface['prism_rss_mb']:.0f} MB (Node)."]
    lines.append("")
    return lines


def durable_section(results: dict[str, Any], image_prefix: str, h: str) -> list[str]:
    """Durable writes per second by sources stored and connections."""
    s = results["settings"]
    label = results["label"]
    lines: list[str] = []
    dw = results["durable_writes"]
    lines += [
        f"{h}# Durable writes",
        "",
        f"`{dw['operation']}` on {dw['server']}, every answer sent after the change is "
        "committed to SQLite (WAL, synchronous FULL: fsynced at each commit); changes "
        "made together are committed together, one transaction per batch (group commit, "
        "`host/commit.py`); the host has "
        f"{s['durable_displays']} displays and N sources stored.",
        "",
    ]
    rows = []
    for n, by_c in dw.get("by_sources", {}).items():
        for c, e in by_c.items():
            rows.append(
                [
                    n,
                    c.removeprefix("c"),
                    fig(e["rps"]),
                    fig(e["p50_ms"], _ms),
                    fig(e["p99_ms"], _ms),
                ]
            )
    lines += _table(["sources stored", "connections", "writes/s", "p50 ms", "p99 ms"], rows)
    lines += ["", f"![Durable writes]({image_prefix}durable-{label}.png)", ""]
    return lines


def growth_section(results: dict[str, Any], h: str) -> list[str]:
    """Each figure at the largest topology divided by that at the smallest."""
    lines: list[str] = []
    gr = results["growth"]
    lines += [f"{h}# Growth from {gr['from']} to {gr['to']} displays", ""]
    if gr["servers"]:
        lines += [
            "Each cell is the figure at the largest topology divided by that at the smallest.",
            "",
        ]
        rows = []
        for server, ops in gr["servers"].items():
            for name in results["settings"]["ops"]:
                r = ops[name]
                rows.append(
                    [
                        server,
                        f"`{OP_LABELS.get(name, name)}`",
                        _x(r["rps"]),
                        _x(r["p50_ms"]),
                        _x(r["p99_ms"]),
                    ]
                )
            rows.append([server, "RSS idle (interface run)", _x(ops.get("rss_idle_mb")), "", ""])
            if "startup_s" in ops:
                rows.append([server, "start-up time", _x(ops["startup_s"]), "", ""])
        lines += _table(["server", "figure", "req/s", "p50", "p99"], rows)
    else:
        lines.append("Only one topology was measured.")
    fg = gr.get("fanout") or {}
    if fg:
        lines += [
            "",
            "Switch fan-out (PUT sent → last receiver of the zone told), the figure at the "
            "most receivers divided by that at the fewest:",
            "",
        ]
        rows = [
            [
                FANOUT_LAYOUTS.get(layout, layout),
                f"{g['from']} → {g['to']}",
                _x(g["p50"]),
                _x(g["p99"]),
                (
                    f"{g['largest_attempted']} receivers: not measured (see Receivers below)"
                    if g["largest_attempted"] > g["to"]
                    else ""
                ),
            ]
            for layout, g in fg.items()
        ]
        lines += _table(["layout", "receivers", "p50", "p99", "note"], rows)
    lines.append("")
    return lines


FANOUT_LAYOUTS = {
    "one_zone": "one zone of N (all N told)",
    "walls_of_four": "walls of four (N connected, one zone of 4 told)",
}
PHASES = ("switch", "play", "seek", "pause", "resume", "loop")


def _p(d: dict[str, Any] | None, key: str) -> str:
    return _ms((d or {}).get(key))


def receivers_section(results: dict[str, Any], image_prefix: str, h: str) -> list[str]:
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


# ---------------------------------------------------------------------------- plots


def _hdr_x(key: str) -> float:
    p = float(key)
    return 1.0 / (1.0 - min(p, 99.99) / 100.0)


def _curve(ax: Any, c: dict[str, Any], **kw: Any) -> None:
    """A latency percentile curve: the median over runs, a band from min to max."""
    keys = [k for k in c if float(k) > 0]
    xs = [_hdr_x(k) for k in keys]
    ax.plot(xs, [c[k]["median"] for k in keys], **kw)
    ax.fill_between(
        xs,
        [c[k]["min"] for k in keys],
        [c[k]["max"] for k in keys],
        alpha=0.15,
        color=kw.get("color"),
    )


def plots(results: dict[str, Any], out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    label = results["label"]
    written = [latency_plot(results, out_dir, plt), throughput_plot(results, out_dir, plt)]
    durable = durable_plot(results, out_dir, plt)
    if durable is not None:
        written.append(durable)
    sync = (results.get("receivers") or {}).get("wall_sync") or {}
    walls = {t: r for t, r in (sync.get("by_tiles") or {}).items() if "series" in r}
    if sync.get("status") == "measured" and walls:
        written.append(sync_plot(walls, label, out_dir, plt))
    return written


def latency_plot(results: dict[str, Any], out_dir: Path, plt: Any) -> Path:
    """The interface's latency distributions, HDR style: percentile on a 1/(1-p) axis,
    an operation a row and a server a column."""
    label = results["label"]
    iface = results["interface"]
    servers = list(iface["servers"])
    ops = results["settings"]["ops"]
    topologies = [str(n) for n in results["settings"]["topologies"]]
    colours = dict(
        zip(
            topologies,
            ["tab:blue", "tab:orange", "tab:red", "tab:purple", "tab:brown"],
            strict=False,
        )
    )
    fig_, axes = plt.subplots(
        len(ops),
        len(servers),
        figsize=(6 * len(servers), 3.2 * len(ops)),
        squeeze=False,
        sharey="row",
    )
    ticks = ["50", "90", "99", "99.9", "100"]
    for col, server in enumerate(servers):
        for row, name in enumerate(ops):
            ax = axes[row][col]

            for n in topologies:
                _curve(
                    ax,
                    iface["servers"][server][n]["ops"][name]["latency_curve_ms"],
                    color=colours[n],
                    label=f"tilewall, {n} displays",
                )
            if server in iface["ceiling"]:
                _curve(
                    ax,
                    iface["ceiling"][server]["latency_curve_ms"],
                    color="grey",
                    linestyle="--",
                    label="ceiling (bare Litestar)",
                )
            if name in iface.get("prism", {}):
                _curve(
                    ax,
                    iface["prism"][name]["latency_curve_ms"],
                    color="black",
                    linestyle=":",
                    label="Prism mock",
                )
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xticks([_hdr_x(t) for t in ticks])
            ax.set_xticklabels([t if t != "100" else "max" for t in ticks])
            ax.set_title(f"{OP_LABELS.get(name, name)} on {server}", fontsize=10)
            ax.set_xlabel("percentile")
            ax.set_ylabel("latency ms")
            ax.grid(True, which="both", alpha=0.3)
            if row == 0 and col == 0:
                ax.legend(fontsize=8)
    fig_.suptitle(f"tilewall latency distributions ({label}; median of runs, band = min–max)")
    fig_.tight_layout()
    path = out_dir / f"latency-{label}.png"
    fig_.savefig(path, dpi=80)
    plt.close(fig_)
    return path


def throughput_plot(results: dict[str, Any], out_dir: Path, plt: Any) -> Path:
    """Requests per second per operation and topology, beside the ceiling and Prism."""
    label = results["label"]
    iface = results["interface"]
    servers = list(iface["servers"])
    ops = results["settings"]["ops"]
    topologies = [str(n) for n in results["settings"]["topologies"]]
    fig_, axes = plt.subplots(1, len(ops), figsize=(4 * len(ops), 4), squeeze=False)
    width = 0.8 / max(len(servers), 1)
    for i, name in enumerate(ops):
        ax = axes[0][i]
        for j, server in enumerate(servers):
            meds, lo, hi = [], [], []
            for n in topologies:
                s = iface["servers"][server][n]["ops"][name]["rps"]
                meds.append(s["median"])
                lo.append(s["median"] - s["min"])
                hi.append(s["max"] - s["median"])
            xs = [k + (j - (len(servers) - 1) / 2) * width for k in range(len(topologies))]
            ax.bar(xs, meds, width, yerr=[lo, hi], capsize=3, label=server)
            if server in iface["ceiling"]:
                ax.axhline(
                    iface["ceiling"][server]["rps"]["median"],
                    linestyle="--",
                    color=f"C{j}",
                    alpha=0.6,
                    label=f"ceiling, {server}",
                )
        if name in iface.get("prism", {}):
            ax.axhline(
                iface["prism"][name]["rps"]["median"], linestyle=":", color="black", label="Prism"
            )
        ax.set_xticks(range(len(topologies)))
        ax.set_xticklabels(topologies)
        ax.set_xlabel("displays")
        ax.set_ylabel("requests/s")
        ax.set_yscale("log")
        ax.set_title(OP_LABELS.get(name, name), fontsize=10)
        ax.grid(True, axis="y", which="both", alpha=0.3)
        if i == 0:
            ax.legend(fontsize=7)
    fig_.suptitle(f"tilewall throughput ({label}; median, bars = min–max)")
    fig_.tight_layout()
    path = out_dir / f"throughput-{label}.png"
    fig_.savefig(path, dpi=80)
    plt.close(fig_)
    return path


def durable_plot(results: dict[str, Any], out_dir: Path, plt: Any) -> Path | None:
    """Durable writes per second and their latency by sources stored (None: not run)."""
    label = results["label"]
    by_sources = results["durable_writes"].get("by_sources", {})
    if by_sources:
        fig_, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.8))
        counts = sorted(by_sources, key=int)
        xs = [int(c) for c in counts]
        conns = list(by_sources[counts[0]])
        for k, c in enumerate(conns):
            for key, ax, style in (("rps", a1, "-"), ("p50_ms", a2, "-"), ("p99_ms", a2, "--")):
                s = [by_sources[n][c][key] for n in counts]
                med = [x["median"] for x in s]
                err = [
                    [m - x["min"] for m, x in zip(med, s, strict=True)],
                    [x["max"] - m for m, x in zip(med, s, strict=True)],
                ]
                lab = f"{c.removeprefix('c')} conn." + (
                    "" if key == "rps" else f", {key.split('_')[0]}"
                )
                ax.errorbar(
                    xs,
                    med,
                    yerr=err,
                    linestyle=style,
                    marker="o",
                    capsize=3,
                    color=f"C{k}",
                    label=lab,
                )
        for ax, ylabel in ((a1, "acknowledged writes/s"), (a2, "latency ms")):
            ax.set_xscale("log")
            ax.set_xlabel("sources stored")
            ax.set_ylabel(ylabel)
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=8)
        a2.set_yscale("log")
        fig_.suptitle(f"Durable writes: PUT display tag ({label})")
        fig_.tight_layout()
        path = out_dir / f"durable-{label}.png"
        fig_.savefig(path, dpi=80)
        plt.close(fig_)
        return path
    return None


def sync_plot(walls: dict[str, Any], label: str, out_dir: Path, plt: Any) -> Path:
    """Per wall: each tile's error against the host timeline, and the spread, over time."""
    fig_, axes = plt.subplots(len(walls), 1, figsize=(11, 3.6 * len(walls)), squeeze=False)
    for ax, (tiles, r) in zip((a[0] for a in axes), walls.items(), strict=True):
        series = r["series"]
        ts = [p["t"] for p in series]
        for k in range(int(tiles)):
            ax.plot(
                ts,
                [p["errors"][k] if k < len(p["errors"]) else None for p in series],
                linewidth=0.6,
                alpha=0.6,
            )
        ax.plot(
            ts,
            [p["spread"] for p in series],
            color="black",
            linewidth=1.4,
            label="spread (max − min across tiles)",
        )
        for t, name in r["events"]:
            ax.axvline(t, color="grey", linestyle="--", linewidth=0.8)
            ax.text(t, 1.0, f" {name}", transform=ax.get_xaxis_transform(), fontsize=8, va="top")
        ax.axhline(17, color="tab:red", linestyle=":", linewidth=0.8, label="one frame (17 ms)")
        ax.axhline(-17, color="tab:red", linestyle=":", linewidth=0.8)
        ax.set_yscale("symlog", linthresh=20)
        ax.set_xlabel("seconds")
        ax.set_ylabel("ms (position − host timeline)")
        ax.set_title(f"{tiles} tiles: thin lines one tile each, black the spread", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    fig_.suptitle(f"Wall sync in Chromium ({label})")
    fig_.tight_layout()
    path = out_dir / f"sync-{label}.png"
    fig_.savefig(path, dpi=80)
    plt.close(fig_)
    return path


def write(
    results: dict[str, Any],
    out_dir: Path,
    update_benchmarks_md: bool = True,
    page: Path = BENCHMARKS_MD,
) -> None:
    """The run's Markdown and plots in ``out_dir``; with ``update_benchmarks_md``, its
    figures in the generated block of ``page`` (nothing else of the page changes)."""
    from bench import page as benchmarks_page

    out_dir.mkdir(parents=True, exist_ok=True)
    images = plots(results, out_dir)
    tables = out_dir / f"{results['label']}.md"
    tables.write_text(summary(results) + "\n")
    if update_benchmarks_md:
        benchmarks_page.update(page, results, tables, images)


def main() -> None:
    """Re-render the report of a results file: ``python bench/report.py RESULTS.json
    [--no-benchmarks-md] [--page PAGE]`` (``PAGE``: the page to write the latest run
    into, BENCHMARKS.md by default)."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("results", type=Path)
    parser.add_argument("--no-benchmarks-md", action="store_true")
    parser.add_argument("--page", type=Path, default=BENCHMARKS_MD)
    args = parser.parse_args()
    results = json.loads(args.results.read_text())
    try:
        write(results, args.results.parent, not args.no_benchmarks_md, args.page)
    except ValueError as error:  # the page has no block for the latest run
        sys.exit(f"{args.page}: {error}")


if __name__ == "__main__":
    main()
