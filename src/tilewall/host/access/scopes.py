"""An operator's scope: what it may act on, and who is acting.

The interface says who makes a request (:func:`acting_as`, once per request, before its
handler runs); the places where the host changes what plays ask :func:`require` whether
that user's scope covers the target. Changes the host makes on its own (schedule,
failover) act for nobody and are not limited.

What a scope covers: a wall its zones and displays, a zone its displays, a mirror
group its displays; a display, zone, mirror group or source listed by id itself.
"""

from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass

from tilewall.host.access.roles import Account, Scope, limits_reads
from tilewall.host.audit import Target
from tilewall.host.errors import Forbidden, Invalid
from tilewall.host.ids import Named, id_of
from tilewall.host.memory import State
from tilewall.host.model import Action, Preset


@dataclass(frozen=True, slots=True)
class Actor:
    user: str
    account: Account


_acting: ContextVar[Actor | None] = ContextVar("tilewall_acting", default=None)


def acting_as(user: str, account: Account) -> None:
    """The request being handled (this task and those it starts) is ``user``'s."""
    _acting.set(Actor(user, account))


def actor() -> Actor | None:
    return _acting.get()


def scope_of_actor() -> tuple[str, Scope] | None:
    """The acting user and their scope; None when nobody acts or they are unlimited."""
    acting = _acting.get()
    if acting is None or acting.account.scope is None:
        return None
    return acting.user, acting.account.scope


def sees_only_scope() -> bool:
    """Whether the acting user is an operator whose lists show only its scope."""
    acting = _acting.get()
    return acting is not None and limits_reads(acting.account)


def shows(state: State, kind: str, key: str | int) -> bool:
    """Whether lists show the acting user the object ``kind`` of id ``key``."""
    acting = _acting.get()
    if acting is None or acting.account.scope is None or not limits_reads(acting.account):
        return True
    return covers(state, acting.account.scope, kind, key)


# what a scope covers


def covers_zone(state: State, scope: Scope, zone_id: str) -> bool:
    zone = state.zones.get(zone_id)
    return zone_id in scope.zones or (zone is not None and zone.wall_id in scope.walls)


def covers_mirror(scope: Scope, mirror_id: str) -> bool:
    return mirror_id in scope.mirror_groups


def covers_display(state: State, scope: Scope, display_id: int) -> bool:
    if display_id in scope.displays:
        return True
    for wall_id in scope.walls:
        wall = state.walls.get(wall_id)
        if wall is not None and any(m.display_id == display_id for m in wall.monitors):
            return True
    for zone_id in scope.zones:
        zone = state.zones.get(zone_id)
        if zone is not None and display_id in zone.display_ids:
            return True
    return any(
        display_id in group.display_ids
        for group_id in scope.mirror_groups
        if (group := state.mirrors.get(group_id)) is not None
    )


def covers(state: State, scope: Scope, kind: str, key: str | int) -> bool:
    """Whether ``scope`` covers the object ``kind`` (wall, zone, mirror, display, source)
    of id ``key``."""
    if kind == "wall":
        return key in scope.walls
    if kind == "zone":
        return covers_zone(state, scope, str(key))
    if kind == "mirror":
        return covers_mirror(scope, str(key))
    if kind == "display":
        return covers_display(state, scope, int(key))
    if kind == "source":
        return key in scope.sources
    raise ValueError(f"no scope covers a {kind}")


class OutsideScope(Forbidden):
    """An operation reaches outside the acting operator's scope; ``target`` is what it
    reached first that the scope does not cover (the audit trail records it)."""

    def __init__(self, message: str, target: Target) -> None:
        super().__init__(message)
        self.target = target


_WHAT = {"wall": "video wall", "zone": "zone", "mirror": "mirror group"}
#: what an operation that reaches every display is recorded as reaching
EVERY_DISPLAY = Target("display", "*", "every display")


def _name(state: State, kind: str, key: str | int) -> str:
    """How the audit trail names the object: its name (a display: its station's seat,
    as entries of its changes do)."""
    if kind == "display":
        display = state.displays.get(int(key))
        return "" if display is None else display.seat_id
    named: dict[str, Mapping[str, Named]] = {
        "wall": state.walls,
        "zone": state.zones,
        "mirror": state.mirrors,
        "source": state.sources,
    }
    found = named.get(kind, {}).get(str(key))
    return "" if found is None else found.name


def require(state: State, targets: Iterable[tuple[str, str | int]]) -> None:
    """Raise :class:`OutsideScope` unless the acting user's scope covers every (kind, id)."""
    acting = scope_of_actor()
    if acting is None:
        return
    user, scope = acting
    for kind, key in targets:
        if not covers(state, scope, kind, key):
            what = _WHAT.get(kind, kind)
            raise OutsideScope(
                f"outside the scope of {user!r}: {what} {key!r} is not among what this "
                "operator may act on; nothing was changed",
                Target(kind, str(key), _name(state, kind, key)),
            )


def require_unlimited(what: str) -> None:
    """Raise :class:`OutsideScope` when the acting user has a scope: ``what`` reaches
    beyond any scope (every display of the host)."""
    acting = scope_of_actor()
    if acting is not None:
        raise OutsideScope(
            f"outside the scope of {acting[0]!r}: {what} reaches every display; nothing was changed",
            EVERY_DISPLAY,
        )


# what an operation reaches

Targets = list[tuple[str, str | int]]


def preset_targets(preset: Preset) -> Targets:
    """What recalling ``preset`` changes: its displays, zones and mirror groups, and the
    sources it switches them to."""
    targets: Targets = [("display", int(k)) for k in preset.displays]
    targets += [("zone", k) for k in preset.zones]
    targets += [("mirror", k) for k in preset.mirror_groups]
    saved = [*preset.displays.values(), *preset.zones.values(), *preset.mirror_groups.values()]
    targets += [("source", t.assigned_source_id) for t in saved if t.assigned_source_id]
    return targets


def require_action(state: State, action: Action) -> None:
    """The acting user's scope covers what a scheduled ``action`` will change."""
    if action.kind in ("broadcast", "power"):
        require_unlimited(f"a scheduled {action.kind} action")
        return
    if action.kind == "recallPreset":
        preset = state.presets.get(action.preset_id)
        require(state, [] if preset is None else preset_targets(preset))
        return
    targets: Targets = [("source", action.source_id)] if action.source_id else []
    if action.display_id is not None:
        targets.append(("display", action.display_id))
    if action.zone_id:
        targets.append(("zone", action.zone_id))
    if action.mirror_id:
        targets.append(("mirror", action.mirror_id))
    require(state, targets)


# setting a scope


def resolve(
    state: State,
    walls: Sequence[str] = (),
    zones: Sequence[str] = (),
    mirror_groups: Sequence[str] = (),
    displays: Sequence[int] = (),
    sources: Sequence[str] = (),
) -> Scope:
    """The scope naming these objects, each given by id or by name (the id tried
    first), kept by id; an unknown one is refused (400)."""
    return Scope.of(
        (_resolve(state.walls, key, "video wall") for key in walls),
        (_resolve(state.zones, key, "zone") for key in zones),
        (_resolve(state.mirrors, key, "mirror group") for key in mirror_groups),
        (_display(state, number) for number in displays),
        (_resolve(state.sources, key, "source") for key in sources),
    )


def _resolve(collection: Mapping[str, Named], key: str, what: str) -> str:
    found = id_of(collection, key)
    if found is None:
        raise Invalid(f"scope: {what} {key!r} not found (by id or name)")
    return found


def _display(state: State, number: int) -> int:
    if number not in state.displays:
        raise Invalid(f"scope: display {number} not found")
    return number
