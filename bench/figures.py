"""How the report writes a figure: numbers, milliseconds, ratios, a run's header."""

# ruff: noqa: RUF002  (en dashes are meant)

from __future__ import annotations

from collections.abc import Callable
from typing import Any

OP_LABELS = {
    "displays": "GET /api/displays",
    "zones": "GET /api/zones",
    "sources": "GET /api/sources",
    "system": "GET /api/system",
    "zone_switch": "PUT /api/zones/{id}/switch",
    "zone_switch@1": "PUT /api/zones/{id}/switch, one client",
    "display_tag": "PUT /api/displays/{id}/tag",
}


# ---------------------------------------------------------------------------- formatting


def _num(value: float | None, digits: int = 0) -> str:
    if value is None:
        return "–"
    if digits == 0:
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}"


def _ms(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value:.0f}"


def fig(s: dict[str, Any] | None, fmt: Callable[[Any], str] = _num) -> str:
    """Median with its spread over the runs: ``median [min–max]`` (just the median if n=1)."""
    if not s or s.get("median") is None:
        return "–"
    if s["n"] <= 1 or s["min"] == s["max"]:
        return fmt(s["median"])
    return f"{fmt(s['median'])} <sub>[{fmt(s['min'])}–{fmt(s['max'])}]</sub>"


def _ratio_text(v: float) -> str:
    """Two decimals, or two significant digits for ratios below 0.1 (0.0043, not 0.00)."""
    return f"{v:.2f}" if v >= 0.1 else f"{v:.2g}"


def ratio(s: dict[str, Any] | None) -> str:
    def f(v: float) -> str:
        return _ratio_text(v)

    return fig(s, f)


def _x(value: float | None) -> str:
    return "–" if value is None else f"×{_ratio_text(value)}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out


# ---------------------------------------------------------------------------- markdown


def _load_note(results: dict[str, Any]) -> list[str]:
    m = results["machine"]
    load = m.get("load_average_1m")
    if not load:
        return []
    note = (
        f"- **Machine load**: 1-minute load average {load['start']:.1f} at the start, "
        f"{load['end']:.1f} at the end"
    )
    if max(load["start"], load["end"]) > 0.5 * (m["logical_cpus"] or 1):
        note += (
            " — **other work was running on this machine**, so absolute figures are noisy "
            "and low; the ratios (taken within a round) are the figures to trust"
        )
    return [note + "."]


def run_header(results: dict[str, Any]) -> list[str]:
    """Where and how the run was made: machine, versions, command, load, what a figure is."""
    s = results["settings"]
    m = results["machine"]
    v = results["versions"]
    return [
        f"- **Machine**: {m['logical_cpus']} logical CPUs ({m['physical_cpus']} physical, "
        f"{m['cpu_model']}), {m['memory_gb']} GB memory, {m['os']}; data directories on "
        f"{m['data_dir_filesystem']}.",
        f"- **Versions**: Python {v['python']}, tilewall {v['tilewall']} (commit "
        f"{results['commit']}), Litestar {v['litestar']}, msgspec {v['msgspec']}, uvicorn "
        f"{v['uvicorn']}, granian {v['granian']}, {v['wrk']}, Prism {v['prism']} (Node "
        f"{v['node']})"
        + (
            f", websockets {v['websockets']}, Playwright {v['playwright']}, {v['chromium']}"
            if "chromium" in v
            else ""
        )
        + ".",
        f"- **Command**: `{results['command']}` ({results['elapsed_s']:.0f} s in all, on "
        f"{results['date']}).",
        f"- **Load**: wrk, 1 thread, {s['connections']} connections, {s['duration_s']} s per "
        f"measurement after a {s['warmup_s']} s warm-up, on loopback; each server runs one "
        f"worker process; the host and wrk share the {m['logical_cpus']} CPUs.",
        *_load_note(results),
        f"- **Figures**: median of {s['runs']} run(s), spread as <sub>[min–max]</sub>. "
        "Ratios are taken run by run between measurements of the same round, then the "
        "median.",
        "",
    ]
