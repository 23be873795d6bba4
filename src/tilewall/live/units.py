"""What every live input becomes, whatever it is (a PyAV pull, a VNC desktop, a kiosk's
capture, a screen share): H.264 access units, the picture a receiver configures its
decoder with, and the ``Sink`` its reader reports them to (the relay)."""

from dataclasses import dataclass
from typing import Protocol

from tilewall.live.failure import InputFailed


@dataclass(frozen=True)
class Unit:
    """An access unit ready for receivers; ``at`` the host instant to show it (ms)."""

    key: bool
    at: float
    data: bytes


@dataclass(frozen=True)
class Picture:
    """What a receiver configures its decoder with."""

    codec: str
    width: int
    height: int
    fps: float


class Sink(Protocol):
    """Where a reader reports; called from the reader's thread."""

    def connecting(self) -> None: ...

    def picture(self, picture: Picture, codec: str, transcoded: bool) -> None: ...

    def unit(self, unit: Unit, size_in: int) -> None: ...

    def failed(self, reason: InputFailed) -> None: ...
