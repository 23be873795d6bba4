"""How long after a live frame reaches the host its viewers present it: the stream's
delay, kept to what its receivers need, as a jitter buffer is.

Each receiver decoding with WebCodecs reports, once a second, its *margins*: for each
frame it decoded, how long before the frame's instant it was ready to draw (negative:
ready too late, shown out of step with the other tiles). Each viewer's margins are
weighed apart, so that a wall's one slow tile is not outvoted by the others. The delay
rises at once when more than one frame in twenty of any viewer was ready less than
``LATE_MS`` before its instant: by as much as brings that frame to ``TARGET_MS``. It
falls, by at most ``STEP_MS`` at a time, when for ``SETTLE_S`` all but one frame in
twenty of every viewer were ready more than ``TARGET_MS + SLACK_MS`` early. So a quiet
wired wall runs near its floor and a loaded or Wi-Fi one gets the room it needs, every
tile still on the same instant.

A delay set by the installer (``TILEWALL_LIVE_DELAY_MS``) is fixed: reports are read
but change nothing."""

import collections
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

#: a frame ready less than this before its instant counts as late
LATE_MS = 2.0
#: where a rise puts the late frames: ready this long before their instant
TARGET_MS = 10.0
#: margins this far above the target, for ``SETTLE_S``, lower the delay
SLACK_MS = 10.0
#: the most the delay falls at a time (the frames then come up to this much sooner)
STEP_MS = 5.0
SETTLE_S = 5.0
#: reports for this long after a change are of frames timed before it: not counted
HOLD_S = 1.0
#: the share of a viewer's frames allowed below the line (one in twenty: a page's
#: hiccups, which more delay would not mend)
QUANTILE = 0.05
#: a viewer's margins are weighed from this many on (a join's first few prove nothing)
MIN_MARGINS = 10
#: the reports weighed: those of the last seconds (and none from before a change)
WINDOW_S = 5.0

START_MS = 50.0
FLOOR_MS = 10.0
CEILING_MS = 500.0


@dataclass(frozen=True)
class DelayPolicy:
    """How a host delays its live streams: ``fixed_ms`` (an installer's setting) or,
    when None, a delay that follows the receivers from ``START_MS``."""

    fixed_ms: float | None = None

    def latency(self) -> "Latency":
        if self.fixed_ms is not None:
            return Latency(self.fixed_ms, adaptive=False)
        return Latency(START_MS)


class Latency:
    """One stream's delay. ``ms`` is read by whoever stamps the frames (a reader's
    thread, an ingest); :meth:`report` is called on the event loop."""

    def __init__(
        self,
        start_ms: float,
        adaptive: bool = True,
        floor_ms: float = FLOOR_MS,
        ceiling_ms: float = CEILING_MS,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.adaptive = adaptive
        self.floor_ms = floor_ms
        self.ceiling_ms = ceiling_ms
        self.ms = start_ms if not adaptive else min(max(start_ms, floor_ms), ceiling_ms)
        self._now = now
        #: each viewer's reports since the last change, within ``WINDOW_S``: (when, margins)
        self._reports: dict[object, collections.deque[tuple[float, list[float]]]] = {}
        #: when the first of them came
        self._since: float | None = None
        self._hold_until = now()
        #: the reports read, and how often the delay rose and fell
        self.reports = 0
        #: the margin all but one frame in twenty of every viewer were above, at the last
        #: decision
        self.low: float | None = None
        self.rises = 0
        self.falls = 0

    def report(self, margins: Iterable[float], viewer: object = None) -> None:
        """``viewer``'s margins (ms) for the frames it decoded since its last report."""
        self.reports += 1
        if not self.adaptive:
            return
        now = self._now()
        if now < self._hold_until:
            return
        kept = [m for m in margins if math.isfinite(m)]
        if not kept:
            return
        if self._since is None:
            self._since = now
        self._reports.setdefault(viewer, collections.deque()).append((now, kept))
        lows = []
        for key, reports in list(self._reports.items()):
            while reports and now - reports[0][0] > WINDOW_S:
                reports.popleft()
            weighed = [m for _, ms in reports for m in ms]
            if not reports:
                del self._reports[key]  # a viewer gone
            elif len(weighed) >= MIN_MARGINS:
                lows.append(_low(weighed))
        if not lows:
            return
        low = self.low = min(lows)
        if low < LATE_MS and self.ms < self.ceiling_ms:
            self._change(min(self.ms + TARGET_MS - low, self.ceiling_ms), now)
            self.rises += 1
        elif (
            now - self._since >= SETTLE_S and low > TARGET_MS + SLACK_MS and self.ms > self.floor_ms
        ):
            self._change(max(self.ms - min(STEP_MS, low - TARGET_MS), self.floor_ms), now)
            self.falls += 1

    def _change(self, ms: float, now: float) -> None:
        self.ms = ms
        self._reports.clear()
        self._since = None
        self._hold_until = now + HOLD_S


def _low(margins: list[float]) -> float:
    """The margin all but ``QUANTILE`` of ``margins`` are above (never the one worst
    frame alone)."""
    ordered = sorted(margins)
    return ordered[max(1, int(QUANTILE * len(ordered)))]
