"""Video walls, zones and mirror groups: which display belongs where.

A display is in at most one wall, at most one zone (of its wall) and at most one mirror
group; mirror groups hold only displays that are in no wall.
"""

import math
from dataclasses import dataclass

from tilewall.host.errors import Conflict, Invalid, NotFound
from tilewall.host.ids import lookup, new_id, path_name, unique_name
from tilewall.host.memory import State
from tilewall.host.model import Geometry, MirrorGroup, Monitor, Timeline, VideoWall, Zone
from tilewall.host.state import Core

STANDALONE = "STANDALONE"
VIDEOWALL = "VIDEOWALL"
VIDEOWALL_ZONE_INACTIVE = "VIDEOWALL_ZONE_INACTIVE"


@dataclass(frozen=True)
class Membership:
    """Which wall, zone and mirror group each display is in: rebuilt once per change of
    the topology, so reads (a thousand displays listed) do no scanning."""

    walls: dict[int, VideoWall]
    monitors: dict[int, Monitor]
    zones: dict[int, Zone]
    mirrors: dict[int, MirrorGroup]


def membership(state: State) -> Membership:
    cached = state.derived.get("membership")
    if cached is not None and cached[0] == state.topology_version:
        found: Membership = cached[1]
        return found
    index = Membership(
        {m.display_id: w for w in state.walls.values() for m in w.monitors},
        {m.display_id: m for w in state.walls.values() for m in w.monitors},
        {d: z for z in state.zones.values() for d in z.display_ids},
        {d: g for g in state.mirrors.values() for d in g.display_ids},
    )
    state.derived["membership"] = (state.topology_version, index)
    return index


def zone_box(state: State, zone: Zone) -> tuple[float, float, float, float]:
    """The bounding box of a zone's monitors on its wall's canvas, computed once per
    change of the topology (every tile of the zone needs it)."""
    key = f"zone-box:{zone.id}"
    cached = state.derived.get(key)
    if cached is not None and cached[0] == state.topology_version:
        box: tuple[float, float, float, float] = cached[1]
        return box
    wall = state.walls.get(zone.wall_id)
    members = set(zone.display_ids)
    geometries = [m.geometry for m in wall.monitors if m.display_id in members] if wall else []
    box = bounding_box(geometries) if geometries else (0.0, 0.0, 0.0, 0.0)
    state.derived[key] = (state.topology_version, box)
    return box


def wall_of(state: State, display_id: int) -> VideoWall | None:
    return membership(state).walls.get(display_id)


def monitor_of(state: State, display_id: int) -> Monitor | None:
    return membership(state).monitors.get(display_id)


def zone_of(state: State, display_id: int) -> Zone | None:
    return membership(state).zones.get(display_id)


def mirror_of(state: State, display_id: int) -> MirrorGroup | None:
    return membership(state).mirrors.get(display_id)


def station_type(state: State, display_id: int) -> str:
    if wall_of(state, display_id) is None:
        return STANDALONE
    return VIDEOWALL if zone_of(state, display_id) is not None else VIDEOWALL_ZONE_INACTIVE


def bounding_box(geometries: list[Geometry]) -> tuple[float, float, float, float]:
    """Axis-aligned (left, top, right, bottom) of rotated rectangles."""
    # a zone's box is recomputed after every change (a thousand monitors): unrotated
    # monitors, the usual case, take the short way, with the same result
    left = top = math.inf
    right = bottom = -math.inf
    for g in geometries:
        if g.rotationDegrees:
            a = math.radians(g.rotationDegrees)
            half_w = (abs(g.width * math.cos(a)) + abs(g.height * math.sin(a))) / 2
            half_h = (abs(g.width * math.sin(a)) + abs(g.height * math.cos(a))) / 2
        else:
            half_w, half_h = abs(g.width) / 2, abs(g.height) / 2
        x, y = g.centerX, g.centerY
        if x - half_w < left:
            left = x - half_w
        if x + half_w > right:
            right = x + half_w
        if y - half_h < top:
            top = y - half_h
        if y + half_h > bottom:
            bottom = y + half_h
    return left, top, right, bottom


def bounding_canvas(monitors: list[Monitor]) -> Geometry:
    """The smallest unrotated rectangle holding every monitor (rotation included)."""
    if not monitors:
        return Geometry(1920, 1080, 960, 540, 0)
    left, top, right, bottom = bounding_box([m.geometry for m in monitors])
    return Geometry(right - left, bottom - top, (left + right) / 2, (top + bottom) / 2, 0)


@dataclass
class MonitorSpec:
    display_id: int
    geometry: Geometry
    diagonal_mm: float = 0.0


def _check_geometry(g: Geometry, what: str) -> None:
    for name in ("width", "height", "centerX", "centerY", "rotationDegrees"):
        value = getattr(g, name)
        if value != value or value in (float("inf"), float("-inf")):
            raise Invalid(f"{what}: {name} must be a finite number")
    if g.width <= 0 or g.height <= 0:
        raise Invalid(f"{what}: width and height must be greater than 0")


class Topology:
    def __init__(self, core: Core) -> None:
        self._core = core

    @property
    def _state(self) -> State:
        return self._core.state

    # lookups: one rule for by-id and by-name

    def wall(self, key: str, by_name: bool = False) -> VideoWall:
        return lookup(self._state.walls, key, by_name, "video wall")

    def zone(self, key: str, by_name: bool = False) -> Zone:
        return lookup(self._state.zones, key, by_name, "zone")

    def mirror(self, key: str, by_name: bool = False) -> MirrorGroup:
        return lookup(self._state.mirrors, key, by_name, "mirror group")

    def zones_of_wall(self, wall_id: str) -> list[Zone]:
        return [z for z in self._state.zones.values() if z.wall_id == wall_id]

    # video walls

    def _check_monitors(self, monitors: list[MonitorSpec], wall_id: str | None) -> None:
        seen: set[int] = set()
        for m in monitors:
            if m.display_id in seen:
                raise Invalid(f"display {m.display_id} is given twice")
            seen.add(m.display_id)
            if m.display_id not in self._state.displays:
                raise NotFound(f"display {m.display_id} not found")
            other = wall_of(self._state, m.display_id)
            if other is not None and other.id != wall_id:
                raise Conflict(f"display {m.display_id} is already in video wall {other.name!r}")
            group = mirror_of(self._state, m.display_id)
            if group is not None:
                raise Conflict(f"display {m.display_id} is in mirror group {group.name!r}")
            _check_geometry(m.geometry, f"monitor of display {m.display_id}")
            if m.diagonal_mm < 0 or m.diagonal_mm != m.diagonal_mm:
                raise Invalid(f"monitor of display {m.display_id}: diagonal must be positive")

    def _check_wall_name(self, name: str, wall_id: str | None) -> str:
        name = name.strip()
        if not name:
            raise Invalid("a video wall needs a name")
        return unique_name(self._state.walls, name, wall_id, "video wall")

    async def create_wall(
        self, name: str, monitors: list[MonitorSpec], canvas: Geometry | None
    ) -> VideoWall:
        name = self._check_wall_name(name, None)
        self._check_monitors(monitors, None)
        mons = [Monitor(m.display_id, m.geometry, m.diagonal_mm) for m in monitors]
        if canvas is not None:
            _check_geometry(canvas, "canvasGeometry")
        wall = VideoWall(new_id(), name, canvas or bounding_canvas(mons), mons)
        async with self._core.change() as tx:
            tx.put(wall)
            tx.affect(*(m.display_id for m in mons))
            tx.topology = True
        return wall

    async def update_wall(
        self,
        wall_id: str,
        name: str | None,
        monitors: list[MonitorSpec] | None,
        canvas: Geometry | None,
    ) -> VideoWall:
        wall = self.wall(wall_id)
        new_name = wall.name if name is None else self._check_wall_name(name, wall_id)
        if monitors is not None:
            self._check_monitors(monitors, wall_id)
        if canvas is not None:
            _check_geometry(canvas, "canvasGeometry")
        before = {m.display_id for m in wall.monitors}
        async with self._core.change() as tx:
            wall.name = new_name
            if monitors is not None:
                wall.monitors = [Monitor(m.display_id, m.geometry, m.diagonal_mm) for m in monitors]
                kept = {m.display_id for m in wall.monitors}
                for zone in self.zones_of_wall(wall_id):
                    if any(d not in kept for d in zone.display_ids):
                        zone.display_ids = [d for d in zone.display_ids if d in kept]
                        if zone.control_display_id not in zone.display_ids:
                            zone.control_display_id = zone.display_ids[0] if zone.display_ids else 0
                        tx.put(zone)
            if canvas is not None:
                wall.canvas = canvas
            elif monitors is not None:
                wall.canvas = bounding_canvas(wall.monitors)
            tx.put(wall)
            tx.affect(*before, *(m.display_id for m in wall.monitors))
            tx.topology = True
        return wall

    async def delete_wall(self, wall_id: str) -> None:
        wall = self.wall(wall_id)
        async with self._core.change() as tx:
            for zone in self.zones_of_wall(wall_id):
                tx.delete(zone)
            tx.delete(wall)
            tx.affect(*(m.display_id for m in wall.monitors))
            tx.topology = True
            tx.mapping = True

    # zones

    def _check_zone_name(self, name: str, zone_id: str | None) -> str:
        return unique_name(self._state.zones, path_name(name, "a zone"), zone_id, "zone")

    def _check_zone_displays(
        self, wall: VideoWall, display_ids: list[int], zone_id: str | None
    ) -> None:
        on_wall = {m.display_id for m in wall.monitors}
        if len(set(display_ids)) != len(display_ids):
            raise Invalid("a display is given twice")
        for display_id in display_ids:
            if display_id not in on_wall:
                raise Invalid(f"display {display_id} is not on video wall {wall.name!r}")
            other = zone_of(self._state, display_id)
            if other is not None and other.id != zone_id:
                raise Conflict(f"display {display_id} is already in zone {other.name!r}")

    async def create_zone(
        self, name: str, wall_id: str, display_ids: list[int], control_display_id: int | None
    ) -> Zone:
        wall = self.wall(wall_id)
        name = self._check_zone_name(name, None)
        self._check_zone_displays(wall, display_ids, None)
        control = self._control(display_ids, control_display_id)
        zone = Zone(new_id(), name, wall_id, list(display_ids), control, Timeline())
        async with self._core.change() as tx:
            tx.put(zone)
            tx.affect(*display_ids)
            tx.topology = True
        return zone

    @staticmethod
    def _control(display_ids: list[int], control: int | None) -> int:
        if control is None or control == 0:
            return display_ids[0] if display_ids else 0
        if control not in display_ids:
            raise Invalid(f"controlDisplayId {control} is not a display of the zone")
        return control

    async def update_zone(
        self,
        zone: Zone,
        name: str | None,
        display_ids: list[int] | None,
        control_display_id: int | None,
    ) -> Zone:
        new_name = zone.name if name is None else self._check_zone_name(name, zone.id)
        members = zone.display_ids if display_ids is None else display_ids
        if display_ids is not None:
            self._check_zone_displays(self.wall(zone.wall_id), display_ids, zone.id)
        control = self._control(
            members,
            control_display_id
            if control_display_id is not None
            else (zone.control_display_id if zone.control_display_id in members else None),
        )
        await self._regroup(zone, new_name, members, control)
        return zone

    async def delete_zone(self, zone: Zone) -> None:
        await self._ungroup(zone)

    async def _regroup(
        self, group: Zone | MirrorGroup, name: str, members: list[int], control: int | None
    ) -> None:
        """Rename ``group`` and give it ``members`` (checked); the displays it leaves and
        the ones it takes are told."""
        before = list(group.display_ids)
        async with self._core.change() as tx:
            group.name = name
            group.display_ids = list(members)
            if isinstance(group, Zone) and control is not None:
                group.control_display_id = control
            tx.put(group)
            tx.affect(*before, *members)
            tx.topology = True

    async def _ungroup(self, group: Zone | MirrorGroup) -> None:
        async with self._core.change() as tx:
            tx.delete(group)
            tx.affect(*group.display_ids)
            tx.topology = True
            tx.mapping = True

    # mirror groups

    def _check_mirror(self, name: str, display_ids: list[int], group_id: str | None) -> str:
        name = unique_name(
            self._state.mirrors, path_name(name, "a mirror group"), group_id, "mirror group"
        )
        if len(set(display_ids)) != len(display_ids):
            raise Invalid("a display is given twice")
        for display_id in display_ids:
            if display_id not in self._state.displays:
                raise NotFound(f"display {display_id} not found")
            wall = wall_of(self._state, display_id)
            if wall is not None:
                raise Conflict(f"display {display_id} is on video wall {wall.name!r}")
            other = mirror_of(self._state, display_id)
            if other is not None and other.id != group_id:
                raise Conflict(f"display {display_id} is already in mirror group {other.name!r}")
        return name

    async def create_mirror(self, name: str, display_ids: list[int]) -> MirrorGroup:
        name = self._check_mirror(name, display_ids, None)
        group = MirrorGroup(new_id(), name, list(display_ids), Timeline())
        async with self._core.change() as tx:
            tx.put(group)
            tx.affect(*display_ids)
            tx.topology = True
        return group

    async def update_mirror(
        self, group: MirrorGroup, name: str | None, display_ids: list[int] | None
    ) -> MirrorGroup:
        members = group.display_ids if display_ids is None else display_ids
        new_name = self._check_mirror(group.name if name is None else name, members, group.id)
        await self._regroup(group, new_name, members, None)
        return group

    async def delete_mirror(self, group: MirrorGroup) -> None:
        await self._ungroup(group)
