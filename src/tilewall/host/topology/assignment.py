"""How the host assigns receivers it has never seen (the interface's receiver
assignment settings): lock them at their first hello, or let one take over the display
of the station it replaces on the same seat."""

import msgspec

from tilewall.host.memory import State
from tilewall.host.model import Station

#: lock receivers the host has never seen as soon as they say hello
AUTO_ASSIGN = "auto_assign"
#: a new receiver on the seat of an offline locked station takes over its display
AUTO_INHERIT = "auto_inherit"


class AssignmentSettings(msgspec.Struct, frozen=True):
    """How receivers are assigned to the host.

    ``auto_assign``: a receiver the host has never seen is locked when it first says
    hello (as far as the licence allows); a station the operator unlocked stays so.

    ``auto_inherit``: a receiver the host has never seen that says hello from the
    address of exactly one locked station that is offline is its replacement on the
    same seat: it takes over that station's display (id, timeline, tag, walls, zones,
    mirror groups, name and location), and the old station is left unlocked.
    """

    auto_assign: bool = False
    auto_inherit: bool = False


def settings_of(state: State) -> AssignmentSettings:
    return AssignmentSettings(
        bool(state.settings.get(AUTO_ASSIGN, False)),
        bool(state.settings.get(AUTO_INHERIT, False)),
    )


def predecessor(state: State, online: set[str], ip: str) -> Station | None:
    """The one locked, offline station with a display at ``ip``, if exactly one: the
    station a new receiver at ``ip`` replaces (``auto_inherit``)."""
    found = [
        s
        for s in state.stations.values()
        if s.locked and s.ip == ip and s.display_id is not None and s.seat_id not in online
    ]
    return found[0] if len(found) == 1 else None
