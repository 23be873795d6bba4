"""BENCHMARKS.md's one generated block: the latest run's figures beside their goals and
the peers'. Everything else on the page is written by hand; ``update`` replaces what
lies between the two markers and leaves the rest byte for byte, and refuses a page
without them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bench.figures import OP_LABELS, _ms, _num, _ratio_text, run_header

START = "<!-- latest run: written by bench/report.py; the rest of the page is not -->"
END = "<!-- end latest run -->"
#: the wall phases with a goal (the switch is shown, not a goal)
GOAL_PHASES = ("play", "seek", "resume", "loop")

Row = tuple[str, str, str, str, bool | None]


class MarkersMissing(ValueError):
    """The page has no (or more than one) generated block to replace."""


def replace_block(page: str, block: str) -> str:
    """``page`` with the text between its markers made ``block``; the rest unchanged."""
    if page.count(START) != 1 or page.count(END) != 1 or page.find(END) < page.find(START):
        raise MarkersMissing(f"the page needs one {START!r} and, after it, one {END!r}")
    head, rest = page.split(START)
    _, tail = rest.split(END)
    return f"{head}{START}\n{block.strip()}\n{END}{tail}"


def update(path: Path, results: dict[str, Any], tables: Path, images: list[Path]) -> None:
    """Write the latest run into the page at ``path``, and nothing else of it: its goals'
    figures, a link to ``tables`` (the run's Markdown) and ``images`` (its plots)."""
    links = [os.path.relpath(image, path.parent) for image in [tables, *images]]
    path.write_text(replace_block(path.read_text(), latest_block(results, links[0], links[1:])))


# ---------------------------------------------------------------------------- the block


def latest_block(results: dict[str, Any], tables: str, images: list[str]) -> str:
    label = results["label"]
    lines = [f"## Latest run: {label}", ""]
    if results.get("quick"):
        lines += ["*A quick run (`make bench-quick`): one run of each, short loads.*", ""]
    lines += run_header(results)
    lines += [
        f"Every table of the run: [{tables}]({tables}).",
        "",
        "| figure | goal | latest | beside it | met |",
        "|---|---|---|---|---|",
    ]
    for row in goal_rows(results):
        figure, goal, latest, peers, met = row
        mark = "–" if met is None else "yes" if met else "**no**"
        lines.append(f"| {figure} | {goal} | {latest} | {peers} | {mark} |")
    lines += ["", *_interface_table(results), ""]
    lines += [f"![{Path(image).stem}]({image})" for image in images]
    return "\n".join(lines)


def goal_rows(results: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    for make in (
        lambda r: _vs_ceiling(r, "displays", 0.7),
        lambda r: _vs_ceiling(r, "system", 0.5),
        _durable,
        _switch_one_client,
        _fanout,
        _memory_with_receivers,
        lambda r: _walls(r, "4"),
        lambda r: _walls(r, "9"),
        _startup,
        _takeover,
        _freeze,
        _group_load,
    ):
        try:
            row = make(results)
        except (KeyError, TypeError, ValueError):
            row = None  # not measured in this run
        if row is not None:
            rows.append(row)
    return rows


def _median(stat: dict[str, Any] | None) -> float | None:
    return None if not stat else stat.get("median")


def _ops_at(results: dict[str, Any], server: str, displays: int) -> dict[str, Any]:
    ops: dict[str, Any] = results["interface"]["servers"][server][str(displays)]["ops"]
    return ops


def _topologies(results: dict[str, Any]) -> tuple[int, int]:
    sizes = sorted(int(t) for t in results["settings"]["topologies"])
    return sizes[0], sizes[-1]


def _vs_ceiling(results: dict[str, Any], op: str, goal: float) -> Row:
    small, large = _topologies(results)
    servers = list(results["interface"]["servers"])
    at = {
        (s, n): _median(_ops_at(results, s, n)[op].get("vs_ceiling"))
        for s in servers
        for n in (small, large)
    }
    latest = ", ".join(f"{_ratio_text(v)} {s}" for s in servers if (v := at[s, small]))
    latest += f" ({large:,} displays: " + " / ".join(
        _ratio_text(v) for s in servers if (v := at[s, large])
    )
    latest += ")"
    ceilings = results["interface"]["ceiling"]
    prism = _median(_ops_at(results, servers[0], small)[op].get("vs_prism"))
    peers = "ceiling " + " / ".join(f"{_num(_median(ceilings[s]['rps']))}" for s in servers)
    peers += " req/s" + (f"; ×{prism:.1f} Prism's req/s" if prism else "")
    met = all((v := at[s, small]) is not None and v >= goal for s in servers)
    return (f"`{OP_LABELS[op]}` ÷ ceiling, {small} displays", f"≥ {goal}", latest, peers, met)


def _durable(results: dict[str, Any]) -> Row:
    by_sources = results["durable_writes"]["by_sources"]
    many = max(int(c[1:]) for c in next(iter(by_sources.values())))
    rates = [_median(v[f"c{many}"]["rps"]) or 0.0 for v in by_sources.values()]
    one = [_median(v["c1"]["rps"]) or 0.0 for v in by_sources.values()]
    sources = ", ".join(f"{int(n):,}" for n in by_sources)
    return (
        f"durable writes, `PUT /api/displays/{{id}}/tag`, {many} clients",
        "≥ 2,000/s",
        f"{_num(min(rates))}–{_num(max(rates))}/s ({sources} sources stored)",
        f"one client {_num(min(one))}–{_num(max(one))}/s",
        min(rates) >= 2000,
    )


def _switch_one_client(results: dict[str, Any]) -> Row:
    small, _ = _topologies(results)
    servers = list(results["interface"]["servers"])
    p50 = {s: _median(_ops_at(results, s, small)["zone_switch@1"]["p50_ms"]) for s in servers}
    prism = results["interface"].get("prism", {}).get("zone_switch")
    peers = f"Prism {_ms(_median(prism['p50_ms']))} ms (16 clients)" if prism else "–"
    latest = ", ".join(f"{_ms(v)} ms {s}" for s, v in p50.items() if v is not None)
    met = all(v is not None and v < 5 for v in p50.values())
    return ("`PUT …/switch` answered, p50, one client", "< 5 ms", latest, peers, met)


def _fanout(results: dict[str, Any]) -> Row:
    layouts = results["receivers"]["switch_fanout"]["layouts"]
    most = max(layouts["one_zone"], key=int)
    zone = layouts["one_zone"][most]
    walls = layouts.get("walls_of_four", {}).get(most)
    peers = (
        f"walls of four, {int(most):,} connected: {_ms(walls['last_ms']['p99'])} ms"
        if walls
        else "–"
    )
    return (
        f"switch to one zone of {int(most):,} receivers, last told, p99",
        "< 50 ms",
        f"{_ms(zone['last_ms']['p99'])} ms (p50 {_ms(zone['last_ms']['p50'])}, first told "
        f"{_ms(zone['first_ms']['p50'])} ms)",
        peers,
        zone["last_ms"]["p99"] < 50,
    )


def _memory_with_receivers(results: dict[str, Any]) -> Row:
    memory = results["receivers"]["memory_with_receivers"]
    most = max(memory["rss_mb"], key=int)
    rss = memory["rss_mb"][most]
    prism = results["interface"].get("prism_rss_mb")
    return (
        f"host RSS with {int(most):,} receivers connected",
        "< 100 MB",
        f"{rss:.1f} MB (idle {memory['rss_mb']['0']:.1f} MB, "
        f"{memory['per_receiver_kb'][most]:.0f} KB a receiver)",
        f"Prism after load {prism:.0f} MB" if prism else "–",
        rss < 100,
    )


def _walls(results: dict[str, Any], tiles: str) -> Row:
    phases = results["receivers"]["wall_sync"]["by_tiles"][tiles]["phases"]
    p95 = {name: phases[name]["frames"]["p95"] for name in GOAL_PHASES if name in phases}
    switch = phases.get("switch", {}).get("frames", {}).get("p95")
    return (
        f"wall sync, {tiles} tiles, frames spread p95: " + " / ".join(p95),
        "< 8 ms each",
        " / ".join(f"{_ms(v)}" for v in p95.values()) + " ms",
        f"the switch {_ms(switch)} ms; a frame at 60 Hz: 16.7 ms",
        all(v < 8 for v in p95.values()),
    )


def _startup(results: dict[str, Any]) -> Row:
    small, large = _topologies(results)
    startup = results["startup"]
    servers = list(startup)
    times = [
        _median(startup[s][key]["startup_s"]) or 0.0
        for s in servers
        for key in (str(small), str(large))
        if key in startup[s]
    ]
    cold = [
        _median(startup[s][f"{small} cold"]["startup_s"])
        for s in servers
        if f"{small} cold" in startup[s]
    ]
    ceiling = [
        _median(startup[s]["ceiling"]["startup_s"]) for s in servers if "ceiling" in startup[s]
    ]
    latest = f"{min(times):.2f}–{max(times):.2f} s" + (
        f" (cold {max(c or 0 for c in cold):.2f} s)" if cold else ""
    )
    peers = f"the bare ceiling app {max(c or 0 for c in ceiling):.2f} s" if ceiling else "–"
    return ("start-up to the first answer", "< 1 s", latest, peers, max([*times, 0.0]) < 1)


def _takeover(results: dict[str, Any]) -> Row:
    by = results["postgres"]["takeover"]["by_receivers"]
    most = max(by, key=int)
    worst = by[most]["worst_takeover_s"]
    first = _median(by[most]["first_write_s"])
    goal = results["postgres"]["takeover"]["goal_s"]
    return (
        f"takeover: every one of {int(most):,} receivers back after `kill -9` of the active host",
        f"< {goal:g} s",
        f"{worst:.2f} s (first write accepted {first:.2f} s)",
        "–",
        worst < goal,
    )


def _freeze(results: dict[str, Any]) -> Row:
    freeze = results["postgres"]["freeze"]
    by = freeze["by_receivers"]
    most = max(by, key=int)
    worst = by[most]["worst_takeover_s"]
    first = _median(by[most]["first_write_s"])
    woken = [r.get("woken") or {} for r in by[most]["runs"]]
    kept = all(w.get("zone_shows_what_was_acknowledged") for w in woken)
    down = max((w.get("standby_s") or 0.0) for w in woken)
    statuses = ", ".join(str(w.get("write_status")) for w in woken)
    return (
        f"takeover: every one of {int(most):,} receivers back after a freeze (`SIGSTOP`) of "
        f"the active host, lease {freeze['lease_s']:g} s",
        f"< {freeze['goal_s']:g} s (lease + 2 s)",
        f"{worst:.2f} s (first write accepted {first:.2f} s)",
        f"woken (`SIGCONT`): its waiting write answered {statuses}, "
        f"{'nothing acknowledged lost' if kept else '**an acknowledged write lost**'}, "
        f"standby after {down:.2f} s",
        worst < freeze["goal_s"] and kept,
    )


def _group_load(results: dict[str, Any]) -> Row:
    load = results["postgres"]["group_load"]
    active = load["members"]["tilewall-load-first"]
    return (
        f"no false takeover: a group of two, wrk at full rate on both hosts and "
        f"{load['receivers']:,} churning receivers, {load['seconds']} s",
        "0 takeovers",
        f"{load['takeovers']:g} takeovers, {load['generation_bumps']:g} generation bumps, "
        f"{active['lapses']:g} lapses",
        f"lease age at renewal p99 ≤ {active['lease_age_p99_at_most_s']:g} s, max "
        f"≤ {active['lease_age_max_at_most_s']:g} s of {active['lease_s']:g} s",
        bool(load["meets_goal"]),
    )


# ---------------------------------------------------------------------------- the rest


def _interface_table(results: dict[str, Any]) -> list[str]:
    """Requests per second of each read and the switch, smallest and largest topology."""
    try:
        small, large = _topologies(results)
        servers = list(results["interface"]["servers"])
        prism = results["interface"].get("prism") or {}
        ops = list(_ops_at(results, servers[0], small))
    except (KeyError, TypeError, ValueError):
        return []
    cols = [f"{s} {n:,}" for s in servers for n in (small, large)]
    lines = [
        "Requests per second (16 connections; *one client*: one connection) by server and "
        "displays, and Prism's on the same operation:",
        "",
        "| operation | " + " | ".join(cols) + " | Prism |",
        "|---|" + "---|" * (len(cols) + 1),
    ]

    def rps(server: str, displays: int, op: str) -> str:
        return _num(_median(_ops_at(results, server, displays).get(op, {}).get("rps")))

    for op in ops:
        cells = [rps(s, n, op) for s in servers for n in (small, large)]
        peer = _num(_median(prism[op]["rps"])) if op in prism else "–"
        lines.append(f"| `{OP_LABELS.get(op, op)}` | " + " | ".join(cells) + f" | {peer} |")
    return lines
