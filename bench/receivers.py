"""Receiver benchmarks: hooks for when the receiver hub lands. Not measured yet.

Each function below is called by the runner and its result is stored under the JSON key
``receivers.<name>``; the report prints "not yet measured" for any result whose
``status`` is ``"not yet measured"``. To add a benchmark, replace the body of its function
with a measurement that returns the same shape as the interface benchmarks (``runs``: a
list of per-run dicts, plus median/min/max stats built with ``bench.stats.stats``) and set
``status`` to ``"measured"``; the report's receiver section then shows it.

What each one is meant to measure:

- ``switch_fanout``: time from ``PUT /api/zones/{id}/switch`` being acknowledged to the
  last of N connected receivers (virtual receivers over real WebSockets, the same
  protocol as the page) having received its new render description; N = 4, 100, 1000.
  Report p50/p99 over many switches and the ratio against N = 4.
- ``wall_sync``: the largest difference between tiles of one zone in the position of the
  playing video, measured in headless Chromium (Debian's ``chromium`` through Playwright)
  with 4 receiver pages of one 2x2 wall, sampled every second for a minute; target one
  frame (17 ms).
- ``memory_with_receivers``: host RSS (psutil, process and children) idle with 100 and
  1000 receivers connected and locked, against the same topology with none connected.
"""

from __future__ import annotations

from typing import Any

NOT_MEASURED = "not yet measured"

SWITCH_FANOUT_RECEIVERS = (4, 100, 1000)
MEMORY_RECEIVERS = (100, 1000)


def _pending(what: str, **plan: Any) -> dict[str, Any]:
    return {"status": NOT_MEASURED, "what": what, "plan": plan}


def switch_fanout(receivers: tuple[int, ...] = SWITCH_FANOUT_RECEIVERS) -> dict[str, Any]:
    """Switch fan-out to N WebSocket receivers: waits for the receiver hub."""
    return _pending(
        "switch acknowledged -> last receiver told, p50/p99 ms",
        receivers=list(receivers),
    )


def wall_sync(tiles: int = 4, seconds: int = 60) -> dict[str, Any]:
    """Playback position spread across the tiles of one zone in Chromium."""
    return _pending(
        "max position difference between tiles of a zone, ms", tiles=tiles, seconds=seconds
    )


def memory_with_receivers(receivers: tuple[int, ...] = MEMORY_RECEIVERS) -> dict[str, Any]:
    """Host RSS with N receivers connected."""
    return _pending("host RSS with N receivers connected, MB", receivers=list(receivers))


def all_receiver_benchmarks() -> dict[str, dict[str, Any]]:
    return {
        "switch_fanout": switch_fanout(),
        "wall_sync": wall_sync(),
        "memory_with_receivers": memory_with_receivers(),
    }
