"""The takeover of a group of two hosts, timed by the receivers' process
(bench/wsclients.py) on its own monotonic clock: the active host is killed (``kill -9``)
or frozen (``SIGSTOP``: its sockets stay open, its database session and lock alive, so
the group must see its lease run out), and from that instant: the first write the other
host accepts, every receiver welcomed by it, the switched zone's receivers showing
that write.

A frozen host is woken (``SIGCONT``) once all that is seen, with a write waiting in its
socket since before (sent to it while frozen, as a client that knew only that host):
it must not acknowledge it unless the group keeps it (the zone's receivers, on the new
active host, show what that answer says), step down to standby, and win back no
receiver. The plan (``takeover`` in the configuration): ``kill_pgid``, ``how`` (kill or
freeze), ``standby`` (its base URL), ``zone``, ``source``, ``back_source`` (freeze: the
woken host's write), ``zone_seats``, ``timeout_s``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import httpx

from tilewall.client.base import COOKIE


class Route(Protocol):
    """Where a receiver connects next: the group's members it knows."""

    @property
    def members(self) -> Sequence[str]: ...


class Fleet(Protocol):
    """What the takeover reads of the simulated receivers (``bench/fleet.py``'s ``Fleet``,
    in bench/wsclients.py, which runs it): declared here so that this module needs none
    of theirs."""

    @property
    def showing(self) -> Mapping[str, str | None]: ...
    @property
    def arrived(self) -> Mapping[str, float]: ...
    @property
    def welcomed_by(self) -> Mapping[str, tuple[str, float]]: ...
    @property
    def attempts(self) -> Mapping[str, Sequence[tuple[str, float]]]: ...
    @property
    def routes(self) -> Mapping[str, Route]: ...
    @property
    def reconnects(self) -> int: ...
    @property
    def silent_at(self) -> Sequence[float]: ...


#: how long the woken host may take to say it is a standby
STEP_DOWN_S = 30.0
#: after the woken host's answer, how long its effect (or none) has to reach receivers
SETTLE_S = 3.0


async def wait_for(predicate: Any, timeout_s: float, interval_s: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(interval_s)
    return True


def switch(client: httpx.Client, zone: str, source: str) -> httpx.Response:
    return client.put(f"/api/zones/{zone}/switch", params={"destinationSourceId": source}, json={})


def first_write(
    client: httpx.Client, zone: str, source: str, since: float, deadline: float
) -> dict[str, Any]:
    """Switch ``zone`` to ``source`` through ``client`` again and again until a write is
    accepted (200); when that answer came, seconds after ``since``, and the answers
    before it."""
    answers: dict[str, int] = {}
    while time.monotonic() < deadline:
        sent = time.monotonic()
        try:
            answer = switch(client, zone, source)
        except httpx.TransportError as error:
            answers[type(error).__name__] = answers.get(type(error).__name__, 0) + 1
            time.sleep(0.02)
            continue
        if answer.status_code == 200:
            return {
                "at_s": time.monotonic() - since,
                "sent_at_s": sent - since,
                "answers_before": answers,
            }
        answers[str(answer.status_code)] = answers.get(str(answer.status_code), 0) + 1
        time.sleep(0.02)
    return {"error": "no write accepted in time", "answers_before": answers}


async def run_takeover(fleet: Fleet, config: dict[str, Any], seats: list[str]) -> dict[str, Any]:
    """Stall the active host as the plan says and time the group's takeover."""
    plan = config["takeover"]
    how = str(plan.get("how", "kill"))
    standby: str = plan["standby"]
    # the operator's client is connected to the standby before the stall, as a console is
    client = httpx.Client(base_url=standby, cookies={COOKIE: config["session"]}, timeout=5.0)
    await asyncio.to_thread(client.get, "/api/group")
    # a group formed a moment ago: the active member tells its receivers of the standby
    # once it has seen it join (its next look at the group, within a second)
    timeout = float(plan.get("timeout_s", 60))
    if not await wait_for(
        lambda: all(standby in fleet.routes[s].members for s in seats), timeout, 0.01
    ):
        return {"error": "the receivers were never told of the standby"}
    pgid = int(plan["kill_pgid"])
    stalled = time.monotonic()
    os.killpg(pgid, signal.SIGKILL if how == "kill" else signal.SIGSTOP)
    try:
        out = await _timed(fleet, plan, seats, client, stalled)
        out["how"] = how
        if how == "freeze":
            out["woken"] = await _wake(fleet, config, seats, pgid)
            if "error" in out["woken"] and "error" not in out:
                out["error"] = "woken host: " + out["woken"]["error"]
        return out
    finally:
        client.close()
        if how == "freeze":
            os.killpg(pgid, signal.SIGCONT)


async def _timed(
    fleet: Fleet, plan: dict[str, Any], seats: list[str], client: httpx.Client, stalled: float
) -> dict[str, Any]:
    """From the stall: the first write the standby accepts, every receiver welcomed by it,
    the switched zone's receivers showing that write."""
    standby: str = plan["standby"]
    zone_seats: list[str] = seats[: int(plan.get("zone_seats") or len(seats))]
    target: str = plan["source"]
    timeout = float(plan.get("timeout_s", 60))
    writing = asyncio.create_task(
        asyncio.to_thread(first_write, client, plan["zone"], target, stalled, stalled + timeout)
    )

    def back() -> list[float]:
        return [
            at - stalled
            for host, at in (fleet.welcomed_by.get(s, ("", 0.0)) for s in seats)
            if host == standby and at > stalled
        ]

    def current() -> list[float]:
        return [
            fleet.arrived[s] - stalled
            for s in zone_seats
            if fleet.showing.get(s) == target
            and fleet.welcomed_by.get(s, ("", 0.0))[0] == standby
            and fleet.arrived.get(s, 0.0) > stalled
        ]

    reconnects = fleet.reconnects
    all_back = await wait_for(lambda: len(back()) == len(seats), timeout, 0.01)
    write = await writing
    all_current = await wait_for(lambda: len(current()) == len(zone_seats), 5.0, 0.01)
    out: dict[str, Any] = {"receivers": len(seats), "zone_receivers": len(zone_seats)}
    times = sorted(back())
    out["back"] = len(times)
    if times:
        out["first_back_s"] = times[0]
        out["median_back_s"] = times[len(times) // 2]
        out["all_back_s"] = times[-1] if all_back else None
    if "at_s" in write:
        out["first_write_s"] = write["at_s"]
        out["first_write_sent_s"] = write["sent_at_s"]
    out["answers_before_write"] = write["answers_before"]
    # when each receiver first tried the new active host (the page's schedule), and how
    # long that host took to welcome it from then
    tried = sorted(
        min(at for host, at in fleet.attempts.get(s, []) if host == standby and at > stalled)
        - stalled
        for s in seats
        if any(host == standby and at > stalled for host, at in fleet.attempts.get(s, []))
    )
    if tried:
        out["median_first_try_s"] = tried[len(tried) // 2]
        out["last_first_try_s"] = tried[-1]
    shown = sorted(current())
    out["zone_current_s"] = shown[-1] if all_current and shown else None
    out["reconnect_attempts"] = fleet.reconnects - reconnects
    # when the receivers noticed the silence of a frozen host (the page's 5 s and its
    # next check): the takeover's receivers cannot be back before
    silent = sorted(at - stalled for at in fleet.silent_at if at > stalled)
    out["silences"] = len(silent)
    if silent:
        out["median_silence_s"] = silent[len(silent) // 2]
        out["last_silence_s"] = silent[-1]
    if not all_back:
        out["error"] = (
            f"{len(seats) - len(times)} of {len(seats)} receivers not back in {timeout} s"
        )
    elif "error" in write:
        out["error"] = write["error"]
    elif not all_current:
        out["error"] = "the zone's receivers did not show the write after the takeover"
    return out


async def _wake(
    fleet: Fleet, config: dict[str, Any], seats: list[str], pgid: int
) -> dict[str, Any]:
    """Wake the frozen host with a write waiting for it; what it did with it and after."""
    plan = config["takeover"]
    frozen: str = config["base_url"]
    zone_seats: list[str] = seats[: int(plan.get("zone_seats") or len(seats))]
    target, back_source = plan["source"], plan["back_source"]
    client = httpx.Client(base_url=frozen, cookies={COOKIE: config["session"]}, timeout=60.0)
    answers: list[httpx.Response | BaseException] = []

    def pending() -> None:
        try:
            answers.append(switch(client, plan["zone"], back_source))
        except httpx.HTTPError as error:
            answers.append(error)

    waiting = threading.Thread(target=pending)
    waiting.start()
    await asyncio.sleep(0.5)  # the write is in the frozen host's socket
    os.killpg(pgid, signal.SIGCONT)
    woke = time.monotonic()
    await asyncio.to_thread(waiting.join, 60)
    out: dict[str, Any] = {}
    answer = answers[0] if answers else TimeoutError("no answer")
    if isinstance(answer, httpx.Response):
        out["write_status"] = answer.status_code
        out["write_answer"] = answer.text[:200]
        out["write_answered_s"] = time.monotonic() - woke
    else:
        out["write_status"] = type(answer).__name__

    def role() -> str:
        try:
            return str(client.get("/api/group", timeout=2.0).json().get("role"))
        except (httpx.HTTPError, ValueError):
            return ""

    stepped_down = False
    deadline = woke + STEP_DOWN_S
    while time.monotonic() < deadline:
        if await asyncio.to_thread(role) == "standby":
            stepped_down = True
            out["standby_s"] = time.monotonic() - woke
            break
        await asyncio.sleep(0.1)
    client.close()
    # what the group kept: an acknowledged write is shown on the new active host's
    # receivers; a refused one is not
    acknowledged = out["write_status"] == 200
    expected = back_source if acknowledged else target
    await asyncio.sleep(SETTLE_S)
    shown = [fleet.showing.get(s) for s in zone_seats]
    out["zone_shows_what_was_acknowledged"] = all(s == expected for s in shown)
    # the woken host wins back no receiver
    out["receivers_welcomed_by_woken_host"] = sum(
        1 for s in seats if (w := fleet.welcomed_by.get(s)) and w[0] == frozen and w[1] > woke
    )
    if not stepped_down:
        out["error"] = f"still not a standby {STEP_DOWN_S:.0f} s after SIGCONT"
    elif not out["zone_shows_what_was_acknowledged"]:
        out["error"] = f"answered {out['write_status']}, but the zone's receivers show {shown}"
    elif out["receivers_welcomed_by_woken_host"]:
        out["error"] = "receivers went back to the woken host"
    return out
