"""What one receiver must render, computed from the host's state.

``describe`` is a pure function: the same state, overlays and instant give the same
description. Describing many receivers at one instant, pass a ``Shared``: the content of
each zone, mirror group and display is then computed once, the very same object in the
description of every receiver that shows it, and a tile is made again only when its
wall, zone or monitor changed. ``RenderState`` and the structs it holds
(in ``render.tile``, ``render.content``, ``render.overlays``) are the ``state`` payload of
the receiver protocol (``docs/protocol.md``); they encode to camelCase JSON.
"""

from dataclasses import dataclass
from typing import Literal

import msgspec
from msgspec.structs import replace

from tilewall.host.memory import State
from tilewall.host.model import (
    Display,
    Monitor,
    Resolution,
    Station,
    Timeline,
    VideoWall,
    Zone,
)
from tilewall.host.playback.playlist import MediaCatalog
from tilewall.host.render.content import Content, content
from tilewall.host.render.overlays import OverlaySwitches, ReceiverOverlays, overlays_of
from tilewall.host.render.tile import Tile, tile
from tilewall.host.topology.walls import mirror_of, monitor_of, wall_of, zone_box, zone_of

Role = Literal["standalone", "tile", "mirror", "pairing", "inactive"]


@dataclass(frozen=True)
class HostInfo:
    """Shown on pairing and welcome screens."""

    name: str
    address: str


class Pairing(msgspec.Struct, frozen=True, rename="camel"):
    host_name: str
    host_address: str
    station_name: str
    seat_id: str
    ip: str


class RenderState(msgspec.Struct, frozen=True, rename="camel"):
    role: Role
    host_name: str
    display_id: int | None = None
    #: the resolution to render at; None: the screen's own
    resolution: Resolution | None = None
    pairing: Pairing | None = None
    tile: Tile | None = None
    content: Content | None = None
    overlays: ReceiverOverlays = ReceiverOverlays()


TileKey = tuple[object, ...]


class Shared:
    """What the descriptions of many receivers share: the content of each zone, mirror
    group and display, by ``(kind, id)``, computed at most once while the state stays
    as it is (a ``Shared`` is for one instant: one push to receivers); and the tile of
    each wall display, kept in ``tiles`` (which may outlive it) with what it was made of.
    """

    def __init__(self, tiles: dict[int, tuple[TileKey, Tile]] | None = None) -> None:
        self.contents: dict[tuple[str, str | int], Content] = {}
        self.tiles = tiles if tiles is not None else {}

    def content(
        self,
        key: tuple[str, str | int],
        timeline: Timeline,
        state: State,
        media: MediaCatalog | None,
    ) -> Content:
        found = self.contents.get(key)
        if found is None:
            found = self.contents[key] = content(timeline, state, media)
        return found

    def tile(
        self,
        wall: VideoWall,
        zone: Zone,
        monitor: Monitor,
        bounds: tuple[float, float, float, float],
    ) -> Tile:
        if bounds[2] <= bounds[0]:  # no box: ``tile`` finds one of its own
            return tile(wall, zone, monitor, bounds)
        c, g = wall.canvas, monitor.geometry
        made_of: TileKey = (wall.id, zone.id, c.width, c.height, c.centerX, c.centerY)
        made_of += (g.width, g.height, g.centerX, g.centerY, g.rotationDegrees, bounds)
        kept = self.tiles.get(monitor.display_id)
        if kept is not None and kept[0] == made_of:
            return kept[1]
        made = tile(wall, zone, monitor, bounds)
        self.tiles[monitor.display_id] = (made_of, made)
        return made


def _pairing(seat_id: str, station: Station | None, host: HostInfo) -> RenderState:
    name = station.name if station else ""
    ip = station.ip if station else ""
    return RenderState(
        role="pairing",
        host_name=host.name,
        pairing=Pairing(host.name, host.address, name or seat_id, seat_id, ip),
    )


def describe(
    state: State,
    seat_id: str,
    *,
    media: MediaCatalog | None,
    overlays: OverlaySwitches,
    host: HostInfo,
    now_ms: int,
    shared: Shared | None = None,
) -> RenderState:
    """The render description of the receiver at ``seat_id``."""
    shared = shared or Shared()
    station = state.stations.get(seat_id)
    if station is None or not station.locked:
        return _pairing(seat_id, station, host)
    display: Display | None = None
    if station.display_id is not None:
        display = state.displays.get(station.display_id)
    if display is None:
        return RenderState(role="inactive", host_name=host.name)
    display_id = display.display_id
    base = RenderState(
        role="inactive",
        host_name=host.name,
        display_id=display_id,
        resolution=display.resolution or station.screen,
        overlays=overlays_of(display_id, overlays, now_ms),
    )
    mirror = mirror_of(state, display_id)
    if mirror is not None:
        shown = shared.content(("mirror", mirror.id), mirror.timeline, state, media)
        return replace(base, role="mirror", content=shown)
    zone = zone_of(state, display_id)
    if zone is not None:
        wall = state.walls.get(zone.wall_id)
        monitor = monitor_of(state, display_id)
        if wall is None or monitor is None or wall_of(state, display_id) is not wall:
            return base
        return replace(
            base,
            role="tile",
            tile=shared.tile(wall, zone, monitor, zone_box(state, zone)),
            content=shared.content(("zone", zone.id), zone.timeline, state, media),
        )
    if wall_of(state, display_id) is not None:
        return base
    own = shared.content(("display", display_id), display.timeline, state, media)
    return replace(base, role="standalone", content=own)
