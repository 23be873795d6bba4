"""The report's section on PostgreSQL and host groups (bench/postgres.py,
bench/groupload.py): the interface beside SQLite, the takeover after a kill and after a
freeze of the active host, and a group under full load."""

from __future__ import annotations

from typing import Any

from bench.figures import OP_LABELS, _ms, _table, fig, ratio


def _s(value: float | None) -> str:
    """Seconds: two decimals below 10 s, one above."""
    if value is None:
        return "–"
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def postgres_section(results: dict[str, Any], h: str) -> list[str]:
    """The interface on PostgreSQL beside SQLite, and the takeover of a group."""
    pg = results.get("postgres")
    if not pg:
        return []
    lines = [f"{h}# PostgreSQL and host groups", ""]
    reasons = {r.get("reason") for r in pg.values() if r.get("status") == "skipped"}
    if all(r.get("status") == "skipped" for r in pg.values()):
        why = next((r for r in reasons if r), "not run (--no-postgres)")
        return [*lines, f"*Not measured: {why}.*", ""]

    lines += _interface_part(pg, h)
    lines += _takeover_part(pg, h)
    lines += _freeze_part(pg, h)
    lines += group_load_section(pg.get("group_load") or {}, h)
    return lines


def _interface_part(pg: dict[str, Any], h: str) -> list[str]:
    """The interface on PostgreSQL beside SQLite, operation by operation."""
    lines: list[str] = []
    iface = pg.get("interface") or {}
    if iface.get("status") == "measured":
        lines += [
            f"{h}## Interface on PostgreSQL beside SQLite",
            "",
            f"The same topology ({iface['displays']} displays in walls of four, "
            f"{iface['sources']} sources), seeded the same way, on {iface['server']}; one host "
            "on SQLite in its data directory, one on a PostgreSQL database of its own "
            "(`--database`; a lone member of that database's group: every write fenced, "
            "logged and announced to standbys), in the same rounds, wrk as above. *÷ SQLite* "
            "is PostgreSQL's requests per second over SQLite's, round by round. The server "
            "runs on this machine with `fsync=off` (as in the tests), so writes here cost "
            "round trips and CPU, not disk flushes.",
            "",
        ]
        rows = []
        for name, e in iface["ops"].items():
            rows.append(
                [
                    f"`{OP_LABELS.get(name, name)}`",
                    fig(e["sqlite"]["rps"]),
                    fig(e["postgres"]["rps"]),
                    ratio(e["postgres_vs_sqlite"]),
                    fig(e["sqlite"]["p50_ms"], _ms),
                    fig(e["postgres"]["p50_ms"], _ms),
                    fig(e["sqlite"]["p99_ms"], _ms),
                    fig(e["postgres"]["p99_ms"], _ms),
                ]
            )
        lines += _table(
            [
                "operation",
                "SQLite req/s",
                "PostgreSQL req/s",
                "÷ SQLite",
                "SQLite p50 ms",
                "PostgreSQL p50 ms",
                "SQLite p99 ms",
                "PostgreSQL p99 ms",
            ],
            rows,
        )
        lines.append("")
    elif iface.get("status") == "failed":
        lines += [f"⚠ The interface on PostgreSQL was not measured: {iface.get('error')}", ""]
    return lines


def _takeover_part(pg: dict[str, Any], h: str) -> list[str]:
    """The takeover after a kill -9 of the active host."""
    lines: list[str] = []
    tk = pg.get("takeover") or {}
    if tk.get("status") in ("measured", "failed"):
        goal = tk.get("goal_s", 5.0)
        lines += [
            f"{h}## Takeover of a group of two hosts",
            "",
            "Two hosts (`tilewall serve --database …`, uvicorn) on one PostgreSQL database, "
            "the first one active; N receivers (walls of four, a zone each) over real "
            "WebSockets connected to it from a separate process (`bench/wsclients.py`), "
            "following the group as the receiver page does: they keep the members the host "
            "tells them (`group`), and after a close try the active member, then every "
            "member, then the host they were loaded from, with the page's delays (backoff "
            "from 1 s, 250 ms between candidates, the active member at once after a "
            "standby's close 4002). That process kills the active host (`kill -9`) and "
            "times, from the kill: the **first write** accepted by the other host (a zone "
            "switch sent to it again and again; 503 until it has taken over), **all back**: "
            "every receiver welcomed by the new active host (connected to it and told its "
            "state), and **zone shown**: the switched zone's receivers showing what that "
            f"write switched them to. Goal: every receiver back within {_s(goal)} s at "
            f"1,000 receivers. Median of {tk.get('runs_each')} run(s) with the spread.",
            "",
        ]
        lines += _takeover_table(tk)
        lines.append("")
    return lines


def _freeze_part(pg: dict[str, Any], h: str) -> list[str]:
    """The takeover after a freeze (SIGSTOP) of the active host, and the woken host."""
    lines: list[str] = []
    fz = pg.get("freeze") or {}
    if fz.get("status") in ("measured", "failed"):
        lines += [
            f"{h}## Takeover after a freeze of the active host",
            "",
            "The same group and receivers; the active host is frozen (`SIGSTOP` of its "
            "process group: its sockets, database session and advisory lock stay open, as "
            "in a paused VM or a storage hang) instead of killed. The receivers notice the "
            "silence as the page does (nothing for 5 s, at its next check each second) and "
            "try the other members; the standby sees the lease run out "
            f"(`TILEWALL_GROUP_LEASE_MS`, {_s(fz.get('lease_s'))} s), ends the frozen "
            "host's database sessions and takes over. Then the frozen host is woken "
            "(`SIGCONT`) with a zone switch waiting in its socket since the freeze: "
            "*woken write* is its answer (503: refused, nothing changed), *kept* whether the "
            "zone's receivers, on the new active host, show what that answer says, "
            "*standby* when the woken host says it is one, *won back* receivers welcomed by "
            f"it after it woke (0). Goal: every receiver back within {_s(fz.get('goal_s'))} "
            "s (the lease time plus 2 s) at 1,000 receivers.",
            "",
        ]
        lines += _takeover_table(fz)
        woken = [
            (n, r.get("woken") or {}) for n, e in fz["by_receivers"].items() for r in e["runs"]
        ]
        lines += [
            "",
            *_table(
                ["receivers", "woken write", "kept", "standby s", "won back"],
                [
                    [
                        n,
                        str(w.get("write_status", "–")),
                        "yes" if w.get("zone_shows_what_was_acknowledged") else "**no**",
                        _s(w.get("standby_s")),
                        str(w.get("receivers_welcomed_by_woken_host", "–")),
                    ]
                    for n, w in woken
                ],
            ),
            "",
        ]
    return lines


def _takeover_table(tk: dict[str, Any]) -> list[str]:
    """Takeover times by receiver count, with the goal."""
    goal = tk.get("goal_s", 5.0)
    lines: list[str] = []
    rows = []
    for n, e in tk["by_receivers"].items():
        if not e["all_back_s"]["n"] and not e["first_write_s"]["n"]:
            rows.append([n, "**failed**: " + "; ".join(e.get("errors", []))[:300]] + [""] * 5)
            continue
        worst = e.get("worst_takeover_s")
        verdict = (
            "–"
            if worst is None
            else f"{'met' if e.get('meets_goal') else '**not met**'} ({_s(worst)} s worst)"
        )
        rows.append(
            [
                n,
                fig(e["first_write_s"], _s),
                fig(e["median_back_s"], _s),
                fig(e["all_back_s"], _s),
                fig(e["zone_current_s"], _s),
                f"< {_s(goal)} s",
                verdict,
            ]
        )
    lines += _table(
        [
            "receivers",
            "first write s",
            "half back s",
            "all back s",
            "zone shown s",
            "goal",
            "goal met",
        ],
        rows,
    )
    errors = [f"{n}: {err}" for n, e in tk["by_receivers"].items() for err in e.get("errors", [])]
    if errors:
        lines += ["", *[f"⚠ {err[:300]}" for err in errors]]
    return lines


def group_load_section(load: dict[str, Any], h: str) -> list[str]:
    """A group under full load: takeovers (none wanted) and the lease's age at renewal."""
    if load.get("status") not in ("measured", "failed"):
        return []
    lines = [
        f"{h}## No false takeovers: a group of two under full load",
        "",
        "The same group of two, no stall: wrk at full rate on **both** hosts (one thread, "
        "16 connections each; the displays, a zone switch, the zones, another switch, in "
        "turn; the standby forwards its switches to the active host) and "
        f"{load.get('receivers', 0):,} receivers leaving and coming back on the active host "
        f"(bench/soak.py's, a process of their own), for {load.get('seconds')} s. From each "
        "host's `/metrics` before and after: takeovers, generation bumps, lease lapses (the "
        "active host's watchdog saw its event loop stall), and the age the lease had "
        "reached at each renewal (database clock; renewed every second, taken over at the "
        "lease time; p99 and max are the upper bounds of the histogram's buckets that hold "
        "them: 1, 1.1, 1.25, 1.5, 2, 2.5, 3, 4, 5 s, ...). Goal: no takeover.",
        "",
    ]
    if load.get("status") == "failed":
        return [*lines, f"⚠ Not measured: {load.get('error')}", ""]
    rows = []
    for name, m in load["members"].items():
        w = load["wrk"].get(name) or {}
        rows.append(
            [
                name.removeprefix("tilewall-load-"),
                f"{w.get('rps', 0):,.0f}",
                str(w.get("failed", "–")),
                f"{m['takeovers_free'] + m['takeovers_stalled']:g}",
                f"{m['generation_bumps']:g}",
                f"{m['lapses']:g}",
                f"{m['renewals']:g}",
                "–"
                if m["lease_age_p99_at_most_s"] is None
                else f"≤ {m['lease_age_p99_at_most_s']:g}",
                "–"
                if m["lease_age_max_at_most_s"] is None
                else f"≤ {m['lease_age_max_at_most_s']:g}",
                f"{m['lease_s']:g}",
            ]
        )
    lines += _table(
        [
            "host",
            "wrk req/s",
            "wrk errors",
            "takeovers",
            "generation bumps",
            "lapses",
            "renewals",
            "lease age p99 s",
            "max s",
            "lease s",
        ],
        rows,
    )
    churn = load.get("churn") or {}
    la = load.get("load_average_1m") or {}
    lines += [
        "",
        f"Receivers: {churn.get('connects', 0):,} connects, {churn.get('connect_failures', 0)} "
        f"failed. Machine load average {la.get('start', 0):.1f} → {la.get('end', 0):.1f}. "
        f"Goal {'met' if load.get('meets_goal') else '**not met**'}.",
        "",
    ]
    return lines
