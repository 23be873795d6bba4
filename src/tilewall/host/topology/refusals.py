"""Devices refused a locked station, and making one of them the station.

A device that asks for a locked station without its key (a replacement after the first
device broke, say) is refused: it stays connected and is shown the pairing screen. The
host remembers each such connection while it lasts, so that an installer sees it beside
its station and can give it the station: unlocking the station takes the newest refused
connection of each kind (page, agent) as the station's at once, and re-pairing (unlock
and lock as one change) binds the station's new key to that device.
"""

import msgspec

from tilewall.host.errors import Conflict
from tilewall.host.model import Display, Station, Timeline
from tilewall.host.state import Core
from tilewall.host.topology import keys

#: the receiver hub takes the newest refused connections of the seat as its own
ADOPT = "adopt"


class Refusal(msgspec.Struct, frozen=True, rename="camel"):
    """One connection refused its station: from where, since when (host ms), and the
    hub's token for it; ``role`` "page" or "agent"."""

    seat_id: str
    ip: str
    role: str
    since_ms: int
    token: int


class Refusals:
    """The connections refused right now, by seat; liveness is not persisted."""

    def __init__(self, core: Core) -> None:
        self._core = core
        self._by_seat: dict[str, dict[int, Refusal]] = {}

    def add(self, seat_id: str, ip: str, role: str, token: int) -> None:
        refusal = Refusal(seat_id, ip, role, self._core.clock.now_ms(), token)
        self._by_seat.setdefault(seat_id, {})[token] = refusal
        self._core.notify(frozenset(), topology=True)  # consoles show it beside the station

    def ended(self, seat_id: str, token: int) -> None:
        of_seat = self._by_seat.get(seat_id)
        if of_seat is None or of_seat.pop(token, None) is None:
            return
        if not of_seat:
            del self._by_seat[seat_id]
        self._core.notify(frozenset(), topology=True)

    def of(self, seat_id: str) -> list[Refusal]:
        """The seat's refused connections, the newest first."""
        found = self._by_seat.get(seat_id, {}).values()
        return sorted(found, key=lambda r: (r.since_ms, r.token), reverse=True)

    def all(self) -> list[Refusal]:
        return [r for seat in sorted(self._by_seat) for r in self.of(seat)]


async def repair(
    core: Core, trust: keys.Trust, refusals: Refusals, station: Station, display_id: int
) -> None:
    """Bind ``station`` to the device it refused most recently, as one change: the
    station is locked (with ``display_id`` for its display if it had none) under a new
    key, which is handed to that device as it becomes the station's connection; the
    device that held the station before is refused from then on."""
    if not refusals.of(station.seat_id):
        raise Conflict(f"no other screen asks for station {station.seat_id!r}")
    async with core.change() as tx:
        fresh_display = station.display_id is None
        station.locked = True
        if fresh_display:
            station.display_id = display_id
        key = keys.bind(station)
        tx.put(station)
        if fresh_display:
            tx.put(Display(display_id, station.seat_id, timeline=Timeline()))
            tx.affect(display_id)
        tx.topology = True
    trust.hand(station.seat_id, key)
    core.command(station.seat_id, ADOPT)
