"""What one receiver must render, computed from the host's state.

``describe`` is a pure function: the same state, overlays and instant give the same
description. The structs here are the ``state`` payload of the receiver protocol
(``docs/protocol.md``); they encode to camelCase JSON.
"""

import logging
import math
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import quote

import msgspec
from msgspec.structs import replace

from tilewall.host.model import (
    Display,
    Geometry,
    Layout,
    Monitor,
    PlayState,
    Resolution,
    Source,
    Station,
    Timeline,
    VideoWall,
    Zone,
)
from tilewall.host.playback import playlist
from tilewall.host.playback.playlist import MediaCatalog
from tilewall.host.playback.schedule import Item, total_ms
from tilewall.host.state import State
from tilewall.host.topology.walls import (
    bounding_box,
    mirror_of,
    monitor_of,
    wall_of,
    zone_box,
    zone_of,
)

log = logging.getLogger(__name__)

# Source types of the catalogue and the param names each renderer reads. The matching
# is case-insensitive and ignores spaces, so "Slide Interval" also matches "slideInterval".
SIGNAGE_PLAYER = "Signage Player"
WEB_BROWSER = "Web Browser"
NETWORK_STREAMER = "Network Streamer"
COMMAND_AND_CONTROL = "Command and Control"

PARAM_FILES_TYPE = "FILE_DIR_SELECT"
PARAM_SLIDE_INTERVAL = "Slide Interval"
PARAM_SHUFFLE = "Shuffle"
PARAM_SCALING = "Scaling"
PARAM_URL = "URL"
PARAM_REFRESH_INTERVAL = "Refresh Interval"
PARAM_MUTED = "Muted"
PARAM_LAYOUTS = "Layouts"

DEFAULT_SLIDE_INTERVAL_MS = 10_000
#: shown for a video whose duration cannot be probed
FALLBACK_VIDEO_MS = 10_000
MEDIA_URL_PREFIX = "/media/"
SCALINGS = ("fit", "fill", "stretch")

Role = Literal["standalone", "tile", "mirror", "pairing", "inactive"]
AlertLevel = Literal["GREEN_LEVEL", "ORANGE_LEVEL", "RED_LEVEL"]
Scaling = Literal["fit", "fill", "stretch"]


@dataclass(frozen=True)
class HostInfo:
    """Shown on pairing and welcome screens."""

    name: str
    address: str


@dataclass(frozen=True)
class OverlayState:
    """Host-wide overlay switches; a display shows an overlay if ``*_all`` or listed."""

    alert: "Alert | None" = None
    display_ids_all: bool = False
    display_ids: frozenset[int] = field(default_factory=frozenset)
    dpms_off_all: bool = False
    dpms_off: frozenset[int] = field(default_factory=frozenset)


# --- the description ------------------------------------------------------------------


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


class MediaItem(msgspec.Struct, frozen=True, rename="camel"):
    name: str
    url: str
    kind: Literal["image", "video"]
    duration_ms: int


class SignageSource(msgspec.Struct, frozen=True, tag="signage", tag_field="type", rename="camel"):
    """A playlist in schedule order (already shuffled); ``source_id`` "" for a video list."""

    source_id: str
    name: str
    items: list[MediaItem]
    total_ms: int
    scaling: Scaling = "fit"


class WebSource(msgspec.Struct, frozen=True, tag="web", tag_field="type", rename="camel"):
    source_id: str
    name: str
    url: str
    refresh_s: float = 0.0


class StreamSource(msgspec.Struct, frozen=True, tag="stream", tag_field="type", rename="camel"):
    source_id: str
    name: str
    url: str
    muted: bool = True


class BlankSource(msgspec.Struct, frozen=True, tag="blank", tag_field="type", rename="camel"):
    """A source this receiver cannot render (unknown type, nested layout, missing)."""

    source_id: str
    name: str
    source_type: str


WindowSource = SignageSource | WebSource | StreamSource | BlankSource


class LayoutWindow(msgspec.Struct, frozen=True):
    """A window as fractions (0..1) of the picture."""

    x: float
    y: float
    width: float
    height: float
    source: WindowSource


class LayoutSource(msgspec.Struct, frozen=True, tag="layout", tag_field="type", rename="camel"):
    source_id: str
    name: str
    layout_id: str
    layout_name: str
    windows: list[LayoutWindow]


RenderSource = SignageSource | WebSource | StreamSource | LayoutSource | BlankSource


class PlaybackTimeline(msgspec.Struct, frozen=True, rename="camel"):
    """Position at host instant t: ``anchor_position_ms + (t - anchor_ms)`` while playing."""

    state: PlayState
    anchor_ms: int
    anchor_position_ms: int
    repeat: bool


class Content(msgspec.Struct, frozen=True, rename="camel"):
    """What a display, zone or mirror group shows. ``source`` None: nothing plays."""

    welcome: bool
    timeline: PlaybackTimeline
    source: RenderSource | None = None


class Alert(msgspec.Struct, frozen=True, rename="camel"):
    message: str
    level: AlertLevel
    until_ms: int


class DisplayIdOverlay(msgspec.Struct, frozen=True, rename="camel"):
    display_id: int


class Overlays(msgspec.Struct, frozen=True, rename="camel"):
    alert: Alert | None = None
    display_id: DisplayIdOverlay | None = None
    dpms_off: bool = False


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
    overlays: Overlays = Overlays()


# --- params ---------------------------------------------------------------------------


def _key(name: str) -> str:
    return "".join(name.split()).replace("_", "").lower()


def param(source: Source, name: str) -> str | None:
    wanted = _key(name)
    for p in source.params:
        if _key(p.paramName) == wanted:
            return p.paramValue
    return None


def _number(value: str | None, default: float) -> float:
    try:
        number = float(value) if value is not None else default
    except ValueError:
        return default
    return number if math.isfinite(number) else default


def _flag(value: str | None, default: bool) -> bool:
    if value is None:
        return default
    return value.strip().lower() in ("true", "1", "yes", "on")


def media_url(name: str) -> str:
    return MEDIA_URL_PREFIX + quote(name, safe="/")


# --- sources --------------------------------------------------------------------------


def _media_items(items: list[Item]) -> list[MediaItem]:
    return [
        MediaItem(i.name, media_url(i.name), "image" if i.is_image else "video", i.duration_ms)
        for i in items
    ]


def _signage(source: Source, media: MediaCatalog | None) -> SignageSource:
    items = _media_items(playlist.of_source(source, media))
    scaling_raw = (param(source, PARAM_SCALING) or "fit").strip().lower()
    scaling: Scaling = (
        "fill" if scaling_raw == "fill" else ("stretch" if scaling_raw == "stretch" else "fit")
    )
    return SignageSource(source.id, source.name, items, _total(items), scaling)


def _total(items: list[MediaItem]) -> int:
    return total_ms([Item(i.name, i.duration_ms) for i in items])


def videolist_source(timeline: Timeline, media: MediaCatalog | None) -> SignageSource:
    items = _media_items(playlist.of_videolist(timeline, media))
    return SignageSource("", "", items, _total(items))


def _simple_source(source: Source, media: MediaCatalog | None) -> WindowSource:
    if source.type == SIGNAGE_PLAYER:
        return _signage(source, media)
    if source.type == WEB_BROWSER:
        refresh = max(_number(param(source, PARAM_REFRESH_INTERVAL), 0.0), 0.0)
        return WebSource(source.id, source.name, param(source, PARAM_URL) or "", refresh)
    if source.type == NETWORK_STREAMER:
        muted = _flag(param(source, PARAM_MUTED), True)
        return StreamSource(source.id, source.name, param(source, PARAM_URL) or "", muted)
    return BlankSource(source.id, source.name, source.type)


def _layout_ids(source: Source) -> list[str]:
    raw = param(source, PARAM_LAYOUTS)
    if not raw:
        return []
    try:
        ids = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return [part.strip() for part in raw.split(",") if part.strip()]
    return [str(i) for i in ids] if isinstance(ids, list) else []


def current_layout(source: Source, layout_id: str, layouts: dict[str, Layout]) -> Layout | None:
    """The layout a Command and Control source shows: ``layout_id`` if it is one of its
    layouts, else its first existing layout."""
    ids = [i for i in _layout_ids(source) if i in layouts]
    if layout_id in ids:
        return layouts[layout_id]
    return layouts[ids[0]] if ids else None


def render_source(
    source: Source, timeline: Timeline, state: State, media: MediaCatalog | None
) -> RenderSource:
    if source.type != COMMAND_AND_CONTROL:
        return _simple_source(source, media)
    layout = current_layout(source, timeline.layout_id, state.layouts)
    if layout is None:
        return LayoutSource(source.id, source.name, "", "", [])
    windows = []
    for window in layout.windows:
        inner = state.sources.get(window.source_id)
        if inner is None:
            rendered: WindowSource = BlankSource(window.source_id, "", "")
        elif inner.type == COMMAND_AND_CONTROL:
            rendered = BlankSource(inner.id, inner.name, inner.type)
        else:
            rendered = _simple_source(inner, media)
        windows.append(LayoutWindow(window.x, window.y, window.width, window.height, rendered))
    return LayoutSource(source.id, source.name, layout.id, layout.name, windows)


def content(timeline: Timeline, state: State, media: MediaCatalog | None) -> Content:
    repeat = timeline.repeat
    source: RenderSource | None = None
    if timeline.welcome or timeline.state == "stopped":
        source = None
    elif timeline.videolist:
        source = videolist_source(timeline, media)
    elif (assigned := state.sources.get(timeline.assigned_source_id)) is not None:
        source = render_source(assigned, timeline, state, media)
        # a signage player loops; only a video list honours the timeline's repeat flag
        repeat = True
    playback = PlaybackTimeline(
        timeline.state, timeline.anchor_ms, timeline.anchor_position_ms, repeat
    )
    return Content(timeline.welcome, playback, source)


# --- geometry -------------------------------------------------------------------------


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


# --- the description ------------------------------------------------------------------


def _overlays(display_id: int, overlays: OverlayState, now_ms: int) -> Overlays:
    alert = overlays.alert if overlays.alert and overlays.alert.until_ms > now_ms else None
    shown = overlays.display_ids_all or display_id in overlays.display_ids
    return Overlays(
        alert=alert,
        display_id=DisplayIdOverlay(display_id) if shown else None,
        dpms_off=overlays.dpms_off_all or display_id in overlays.dpms_off,
    )


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
    overlays: OverlayState,
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
        overlays=_overlays(display_id, overlays, now_ms),
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
