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
from bench.report_plots import plots  # noqa: E402
from bench.report_postgres import postgres_section  # noqa: E402
from bench.report_receivers import FANOUT_LAYOUTS, receivers_section  # noqa: E402


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
