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
