"""The hub's two boundaries: the host it serves (``HostPort``) and one connection to one
receiver (``Link``). The WebSocket route and the in-process virtual receiver are both
``Link``s, so they share one code path."""

from collections.abc import Callable
from typing import Protocol

from tilewall.host.model import Resolution
from tilewall.host.playback.playlist import MediaCatalog
from tilewall.host.playback.render import HostInfo
from tilewall.host.playback.render_overlays import OverlaySwitches
from tilewall.host.state import Event, State


class HostPort(Protocol):
    """What the hub needs of the host. The host core implements it."""

    @property
    def state(self) -> State:
        """The live host state (read only for the hub)."""
        ...

    @property
    def media(self) -> MediaCatalog | None:
        """The media library, for playlist expansion and video durations."""
        ...

    def subscribe(self, listener: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``listener`` after every change; returns an unsubscribe function."""
        ...

    def now_ms(self) -> int:
        """Host time, the clock every timeline is anchored to."""
        ...

    def host_info(self) -> HostInfo:
        """Host name and address shown on pairing and welcome screens."""
        ...

    def overlays(self) -> OverlaySwitches:
        """Alert, display-id and DPMS switches. Changing them must publish an Event."""
        ...

    async def station_hello(
        self,
        seat_id: str,
        ip: str,
        model: str,
        firmware: str,
        screen: Resolution,
        resolutions: list[Resolution],
        name: str | None,
    ) -> None:
        """Record (or create as available) the station of a receiver that said hello."""
        ...

    def set_online(self, seat_id: str, online: bool) -> None:
        """The receiver at ``seat_id`` connected (said hello) or went away."""
        ...


class Link(Protocol):
    """One connection to one receiver."""

    async def send_text(self, text: str) -> None: ...

    async def close(self, code: int) -> None: ...
