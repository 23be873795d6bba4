"""Median and spread of repeated measurements."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from typing import Any


def stats(values: Iterable[float]) -> dict[str, Any]:
    """Median, min, max and interquartile range of the runs (n of them)."""
    vals = sorted(float(v) for v in values)
    if not vals:
        return {"median": None, "min": None, "max": None, "q1": None, "q3": None, "n": 0}
    if len(vals) >= 2:
        q1, _, q3 = statistics.quantiles(vals, n=4, method="inclusive")
    else:
        q1 = q3 = vals[0]
    return {
        "median": statistics.median(vals),
        "min": vals[0],
        "max": vals[-1],
        "q1": q1,
        "q3": q3,
        "n": len(vals),
    }


def geomean(values: Iterable[float]) -> float | None:
    vals = [v for v in values if v and v > 0]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Requests per second and latencies of repeated wrk runs: median and spread of
    each, the failed requests of all, and the runs themselves."""
    return {
        "rps": stats(r["rps"] for r in runs),
        "p50_ms": stats(r["p50_ms"] for r in runs),
        "p99_ms": stats(r["p99_ms"] for r in runs),
        "failed": sum(r["failed"] for r in runs),
        "runs": runs,
    }


def percentile_curve(runs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """For each latency percentile, median and spread over the runs (for plots)."""
    keys = runs[0]["latency_ms"].keys() if runs else []
    return {k: stats(r["latency_ms"][k] for r in runs) for k in keys}
