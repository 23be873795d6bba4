"""What one receiver must render, computed from the host's state.

``describe`` is a pure function: the same state, overlays and instant give the same
description. ``RenderState`` and the structs it holds (``render_tile``,
``render_content``, ``render_overlays``) are the ``state`` payload of the receiver
protocol (``docs/protocol.md``); they encode to camelCase JSON.
"""

from dataclasses import dataclass
from typing import Literal

import msgspec
from msgspec.structs import replace

from tilewall.host.model import Display, Resolution, Station
from tilewall.host.playback.playlist import MediaCatalog
from tilewall.host.playback.render_content import Content, content
from tilewall.host.playback.render_overlays import OverlaySwitches, ReceiverOverlays, overlays_of
from tilewall.host.playback.render_tile import Tile, tile
from tilewall.host.state import State
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
) -> RenderState:
    """The render description of the receiver at ``seat_id``."""
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
        return replace(base, role="mirror", content=content(mirror.timeline, state, media))
    zone = zone_of(state, display_id)
    if zone is not None:
        wall = state.walls.get(zone.wall_id)
        monitor = monitor_of(state, display_id)
        if wall is None or monitor is None or wall_of(state, display_id) is not wall:
            return base
        return replace(
            base,
            role="tile",
            tile=tile(wall, zone, monitor, zone_box(state, zone)),
            content=content(zone.timeline, state, media),
        )
    if wall_of(state, display_id) is not None:
        return base
    return replace(base, role="standalone", content=content(display.timeline, state, media))
