"""A wall display's part of its zone: the zone's box on the wall's canvas and the crop
of it that the display's monitor shows (bezels are the gaps between monitors)."""

import msgspec

from tilewall.host.model import Geometry, Monitor, VideoWall, Zone
from tilewall.host.topology.walls import bounding_box


class Size(msgspec.Struct, frozen=True):
    width: float
    height: float


class Rect(msgspec.Struct, frozen=True):
    x: float
    y: float
    width: float
    height: float


class Crop(msgspec.Struct, frozen=True, rename="camel"):
    """The monitor's own (unrotated) rectangle in zone-box coordinates, and its rotation."""

    x: float
    y: float
    width: float
    height: float
    rotation_degrees: float = 0.0


class Tile(msgspec.Struct, frozen=True, rename="camel"):
    """A wall display's part of its zone. Canvas units; origin at the canvas' top left."""

    wall_id: str
    zone_id: str
    canvas: Size
    monitor: Geometry
    zone_box: Rect
    crop: Crop


def tile(
    wall: VideoWall,
    zone: Zone,
    monitor: Monitor,
    zone_bounds: tuple[float, float, float, float] | None = None,
) -> Tile:
    """The tile of ``monitor`` in ``zone``: geometry relative to the canvas' top left.

    ``zone_bounds`` is the zone's bounding box when the caller has it (cached per
    topology change); otherwise it is computed here."""
    canvas = wall.canvas
    origin_x = canvas.centerX - canvas.width / 2
    origin_y = canvas.centerY - canvas.height / 2
    if zone_bounds is None or zone_bounds[2] <= zone_bounds[0]:
        members = set(zone.display_ids)
        geometries = [m.geometry for m in wall.monitors if m.display_id in members]
        zone_bounds = bounding_box(geometries or [monitor.geometry])
    left, top, right, bottom = zone_bounds
    g = monitor.geometry
    rounded = _round
    box = Rect(
        rounded(left - origin_x),
        rounded(top - origin_y),
        rounded(right - left),
        rounded(bottom - top),
    )
    local = Geometry(
        width=g.width,
        height=g.height,
        centerX=rounded(g.centerX - origin_x),
        centerY=rounded(g.centerY - origin_y),
        rotationDegrees=g.rotationDegrees,
    )
    crop = Crop(
        rounded(g.centerX - g.width / 2 - left),
        rounded(g.centerY - g.height / 2 - top),
        g.width,
        g.height,
        g.rotationDegrees,
    )
    return Tile(wall.id, zone.id, Size(canvas.width, canvas.height), local, box, crop)


def _round(value: float) -> float:
    return round(value, 6)
