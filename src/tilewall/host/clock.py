"""Host time: the one clock every playback timeline is anchored to."""

import time

from tilewall.host.ports import Clock

__all__ = ["Clock", "ManualClock", "SystemClock"]


class SystemClock:
    """Wall-clock milliseconds since the epoch, so timelines survive restarts."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000

    def exact_ms(self) -> float:
        return time.time_ns() / 1_000_000


class ManualClock:
    """A clock that moves only when told to; for tests of timelines."""

    def __init__(self, start_ms: int = 1_700_000_000_000) -> None:
        self.ms = start_ms

    def now_ms(self) -> int:
        return self.ms

    def exact_ms(self) -> float:
        return float(self.ms)

    def advance(self, ms: int) -> None:
        self.ms += ms
