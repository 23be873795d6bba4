"""The hub's two boundaries: the host it serves (``HostPort``) and one connection to one
receiver (``Link``). The WebSocket route and the in-process virtual receiver are both
``Link``s, so they share one code path."""

from collections.abc import Callable
from typing import Any, Protocol

from tilewall.host.memory import Event, State
from tilewall.host.model import Resolution
from tilewall.host.playback.playlist import MediaCatalog
from tilewall.host.render.description import HostInfo
from tilewall.host.render.overlays import OverlaySwitches
from tilewall.host.topology.agents import AgentHello


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

    def exact_ms(self) -> float:
        """Host time to a fraction of a millisecond, for the receivers' clock sync."""
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

    def serving(self) -> bool:
        """Whether this host drives receivers (a standby of a host group does not)."""
        ...

    def hostgroup(self) -> tuple[list[str], str | None] | None:
        """The addresses of the members of the host's host group and the active one's;
        None for a host on its own."""
        ...

    def active_late(self) -> float | None:
        """When the active member of the host's group is late renewing its lease (it may
        have stalled): how long the group may take to replace it (s); else None."""
        ...


class Link(Protocol):
    """One connection to one receiver."""

    async def send_text(self, text: str) -> None: ...

    async def close(self, code: int) -> None: ...


class StationPort(Protocol):
    """Who may have a station (station keys), and the kiosk agents beside the pages.
    The host implements it; without one (``OpenStations``) every connection is admitted
    and agents' reports go nowhere."""

    async def admit(self, seat_id: str, key: str | None) -> bool:
        """Whether a connection showing ``key`` may have the station ``seat_id``."""
        ...

    def take_key(self, seat_id: str, confirmed: bool = False) -> tuple[bool, str | None]:
        """A key waiting to be handed to the seat's connections: ``(True, key)``, or
        ``(True, None)`` when they must forget theirs; ``(False, None)``: nothing.
        ``confirmed``: a connection it goes to will say when it has kept it."""
        ...

    def key_stored(self, seat_id: str, key: str) -> None:
        """A connection of the station ``seat_id`` kept ``key``."""
        ...

    def refused(self, seat_id: str, ip: str, role: str, token: int) -> None:
        """A connection (``token`` names it) was refused the station ``seat_id``."""
        ...

    def refusal_ended(self, seat_id: str, token: int) -> None:
        """That refused connection closed or was given the station."""
        ...

    async def agent_hello(self, hello: AgentHello) -> None:
        """An agent connected (``tilewall.host.topology.agents.Agents.hello``)."""
        ...

    def agent_gone(self, seat_id: str) -> None: ...

    def agent_devices(
        self, seat_id: str, devices: list[dict[str, Any]], items: list[dict[str, Any]]
    ) -> None: ...

    def agent_power(
        self, seat_id: str, state: str, ok: bool, method: str, message: str
    ) -> None: ...


class OpenStations:
    """A ``StationPort`` that admits everyone and keeps nothing."""

    async def admit(self, seat_id: str, key: str | None) -> bool:
        return True

    def take_key(self, seat_id: str, confirmed: bool = False) -> tuple[bool, str | None]:
        return False, None

    def key_stored(self, seat_id: str, key: str) -> None:
        return None

    def refused(self, seat_id: str, ip: str, role: str, token: int) -> None:
        return None

    def refusal_ended(self, seat_id: str, token: int) -> None:
        return None

    async def agent_hello(self, hello: AgentHello) -> None:
        return None

    def agent_gone(self, seat_id: str) -> None:
        return None

    def agent_devices(
        self, seat_id: str, devices: list[dict[str, Any]], items: list[dict[str, Any]]
    ) -> None:
        return None

    def agent_power(self, seat_id: str, state: str, ok: bool, method: str, message: str) -> None:
        return None
