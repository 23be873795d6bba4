"""When each frame of a live stream is shown: on the host clock every receiver shares.

A frame is shown at its own timestamp plus an offset, so frames keep the source's
rhythm however the network bunches them. The offset is set by the first frame to its
arrival plus ``delay_ms``. A frame that would then be shown less than ``delay_ms -
drift_ms`` after it arrived (the source or the network fell behind) moves the offset
later at once, to that frame; frames that all come more than ``EARLY_MS`` early for a
whole second (a stall has passed, the first frames came slowly, the source's clock runs
slow) move it earlier, towards the latest of them, by ``SLEW_MS`` a frame, so that no
frame is ever shown before the one ahead of it. A stream that arrives in bursts (a muxer flushing every few frames) so
keeps one offset: the one its latest frames need.

A source that people look at while they act on it (a screen share: the presenter moves
the mouse and watches the wall) wants its latency back quickly after a stall rather
than an even rhythm: ``catch_up`` moves the offset earlier after ``early_for_ms`` of
early frames by that share of the interval between a frame and the one before it (0.5:
the frames shown at twice their pace until the offset is back), still never a frame
before the one ahead of it.

The delay may change while the stream plays (:class:`tilewall.live.latency.Latency`
follows what the receivers need): a longer one moves the offset later at once (the
picture holds one frame that much longer), a shorter one moves it earlier by at most
``SLEW_MS`` a frame."""

from fractions import Fraction

from tilewall.live.latency import Latency

DRIFT_MS = 50.0
#: frames this much earlier than planned for ``EARLY_FOR_MS`` bring the offset in
EARLY_MS = 10.0
#: how long frames must come early before the offset moves earlier, and by how much a
#: frame it then moves (far less than a frame's interval: ``at`` never goes back)
EARLY_FOR_MS = 1000.0
SLEW_MS = 3.0


class Presenter:
    def __init__(
        self,
        delay: float | Latency,
        drift_ms: float = DRIFT_MS,
        early_for_ms: float = EARLY_FOR_MS,
        catch_up: float = 0.0,
    ) -> None:
        self.latency = delay if isinstance(delay, Latency) else Latency(delay, adaptive=False)
        #: the delay the offset was set for (it follows ``latency.ms``)
        self.delay_ms = self.latency.ms
        self.drift_ms = drift_ms
        self.early_for_ms = early_for_ms
        if not 0.0 <= catch_up < 1.0:
            raise ValueError("catch_up is a share of a frame's interval: from 0 to below 1")
        self.catch_up = catch_up
        self._offset: float | None = None
        self._early_since: float | None = None
        self._last_ts: float | None = None
        #: how many times the offset jumped later after the first frame
        self.reanchored = 0

    def at(self, pts: int | None, time_base: Fraction | None, arrival_ms: float) -> float:
        """The host instant (ms) to present a frame stamped ``pts`` that arrived at
        ``arrival_ms``."""
        self._follow_latency()
        target = arrival_ms + self.delay_ms
        if pts is None or not time_base:
            return target
        ts = float(pts * time_base) * 1000.0
        wanted = target - ts  # the offset that shows this frame delay_ms after arrival
        interval = 0.0 if self._last_ts is None else max(ts - self._last_ts, 0.0)
        self._last_ts = ts
        if self._offset is None:
            self._offset = wanted
        elif wanted > self._offset + self.drift_ms:
            self._move(wanted)
        elif wanted < self._offset - EARLY_MS:
            if self._early_since is None:
                self._early_since = arrival_ms
            elif arrival_ms - self._early_since >= self.early_for_ms:
                step = max(SLEW_MS, self.catch_up * interval)
                self._offset -= min(step, self._offset - EARLY_MS - wanted)
        else:
            self._early_since = None
        return ts + self._offset

    def _follow_latency(self) -> None:
        change = self.latency.ms - self.delay_ms
        if not change:
            return
        step = change if change > 0 else max(change, -SLEW_MS)
        self.delay_ms += step
        if self._offset is not None:
            self._offset += step

    def _move(self, offset: float) -> None:
        self._offset = offset
        self._early_since = None
        self.reanchored += 1
