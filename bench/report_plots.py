"""The report's plots: latency, throughput, durable writes, wall sync over time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.figures import OP_LABELS


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
