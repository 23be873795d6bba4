"""What a display, zone or mirror group plays, as a receiver is told it: the source
ready to render (its params read by the catalogue's names) and the playback timeline."""

import math
from typing import Literal
from urllib.parse import quote

import msgspec

from tilewall.host.content import catalogue, live
from tilewall.host.memory import State
from tilewall.host.model import Layout, PlayState, Source, Timeline
from tilewall.host.playback import playlist
from tilewall.host.playback.playlist import MediaCatalog
from tilewall.host.playback.slots import Item, total_ms
from tilewall.host.playback.timeline import start_ms

MEDIA_URL_PREFIX = "/media/"
LIVE_URL_PREFIX = "/live/"

Scaling = Literal["fit", "fill", "stretch"]


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


class LiveSource(msgspec.Struct, frozen=True, tag="live", tag_field="type", rename="camel"):
    """A stream the host relays: encoded frames stamped with host time over the
    WebSocket at ``url`` (``/live/<sourceId>``; docs/live.md has the wire format)."""

    source_id: str
    name: str
    url: str
    muted: bool = True


class BlankSource(msgspec.Struct, frozen=True, tag="blank", tag_field="type", rename="camel"):
    """A source this receiver cannot render (unknown type, nested layout, missing)."""

    source_id: str
    name: str
    source_type: str


WindowSource = SignageSource | WebSource | StreamSource | LiveSource | BlankSource


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


RenderSource = SignageSource | WebSource | StreamSource | LiveSource | LayoutSource | BlankSource


class PlaybackTimeline(msgspec.Struct, frozen=True, rename="camel"):
    """Position at host instant t: ``anchor_position_ms + (t - anchor_ms)`` while playing.

    ``start_ms``: receivers start playing at this host instant, all together, pre-rolled
    to the position the timeline has then (``timeline.START_LEAD_MS`` after the anchor)."""

    state: PlayState
    anchor_ms: int
    anchor_position_ms: int
    repeat: bool
    start_ms: int = 0


class Content(msgspec.Struct, frozen=True, rename="camel"):
    """What a display, zone or mirror group shows. ``source`` None: nothing plays."""

    welcome: bool
    timeline: PlaybackTimeline
    source: RenderSource | None = None


# --- params ---------------------------------------------------------------------------


def _number(value: str, default: float) -> float:
    try:
        number = float(value)
    except ValueError:
        return default
    return number if math.isfinite(number) else default


def _flag(value: str) -> bool:
    return value.strip().lower() in ("true", "1", "yes", "on")


def live_url(source_id: str) -> str:
    """Where receivers take a live source's frames."""
    return LIVE_URL_PREFIX + quote(source_id, safe="")


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
    scaling_raw = (catalogue.param(source.params, catalogue.SCALING) or "fit").strip().lower()
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
    params = source.params
    if source.type == catalogue.SIGNAGE:
        return _signage(source, media)
    if source.type == catalogue.WEB_BROWSER:
        refresh = max(_number(catalogue.param(params, catalogue.REFRESH_INTERVAL), 0.0), 0.0)
        return WebSource(source.id, source.name, catalogue.param(params, catalogue.URL), refresh)
    if source.type in catalogue.SCREENS:
        return LiveSource(source.id, source.name, live_url(source.id), True)
    if source.type in catalogue.STREAMERS:
        muted = _flag(catalogue.param(params, catalogue.MUTED, "true"))
        url = catalogue.param(params, catalogue.URL)
        if live.is_live(url):
            return LiveSource(source.id, source.name, live_url(source.id), muted)
        return StreamSource(source.id, source.name, url, muted)
    if source.type == catalogue.SCREEN_SHARE:
        return LiveSource(source.id, source.name, live_url(source.id), True)
    return BlankSource(source.id, source.name, source.type)


def _layout_ids(source: Source) -> list[str]:
    raw = catalogue.param(source.params, catalogue.LAYOUTS)
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
    if source.type != catalogue.COMMAND_AND_CONTROL:
        return _simple_source(source, media)
    layout = current_layout(source, timeline.layout_id, state.layouts)
    if layout is None:
        return LayoutSource(source.id, source.name, "", "", [])
    windows = []
    for window in layout.windows:
        inner = state.sources.get(window.source_id)
        if inner is None:
            rendered: WindowSource = BlankSource(window.source_id, "", "")
        elif inner.type == catalogue.COMMAND_AND_CONTROL:
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
        timeline.state,
        timeline.anchor_ms,
        timeline.anchor_position_ms,
        repeat,
        start_ms(timeline),
    )
    return Content(timeline.welcome, playback, source)
