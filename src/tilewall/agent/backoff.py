"""Pauses between tries that keep failing (a link to the host, a browser that dies):
from the first, doubling after each, up to the longest."""

from dataclasses import dataclass, field


@dataclass
class Backoff:
    """The pause before the next try; :meth:`reset` after a try that went well."""

    first: float = 1.0
    longest: float = 30.0
    _next: float = field(init=False)

    def __post_init__(self) -> None:
        self._next = self.first

    def reset(self) -> None:
        self._next = self.first

    def pause(self) -> float:
        """The pause before this try; the next one is twice as long, up to the longest."""
        pause = self._next
        self._next = min(pause * 2, self.longest)
        return pause
