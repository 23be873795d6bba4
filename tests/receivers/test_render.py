"""The render description of one seat, from host state."""

import json

import msgspec
import pytest

from tests.support.fakes import FakeMedia
from tilewall.host.memory import State
from tilewall.host.model import (
    Display,
    Geometry,
    Layout,
    MirrorGroup,
    Monitor,
    Param,
    Resolution,
    Source,
    Station,
    Timeline,
    VideoWall,
    Window,
    Zone,
)
from tilewall.host.render.content import (
    LayoutSource,
    LiveSource,
    SignageSource,
    WebSource,
)
from tilewall.host.render.description import HostInfo, RenderState, describe
from tilewall.host.render.overlays import AlertOverlay, OverlaySwitches

HOST = HostInfo("wallhost", "192.0.2.10")
NOW = 1_700_000_000_000
PLAYING = {"state": "playing", "welcome": False, "anchor_ms": NOW - 1000}


def render(
    state: State, seat: str, overlays: OverlaySwitches | None = None, media: FakeMedia | None = None
) -> RenderState:
    return describe(
        state, seat, media=media, overlays=overlays or OverlaySwitches(), host=HOST, now_ms=NOW
    )


def locked(state: State, seat: str, display_id: int, timeline: Timeline | None = None) -> None:
    state.stations[seat] = Station(
        seat, name=seat.upper(), locked=True, display_id=display_id, screen=Resolution(1920, 1080)
    )
    state.displays[display_id] = Display(display_id, seat, timeline=timeline or Timeline())


def wall_state() -> State:
    """A 2x2 wall of 100x50 monitors on a 200x100 canvas centred at the origin."""
    state = State()
    monitors = []
    for i, (x, y) in enumerate([(-50, -25), (50, -25), (-50, 25), (50, 25)], start=1):
        locked(state, f"w{i}", i)
        monitors.append(Monitor(i, Geometry(100, 50, x, y)))
    state.walls["wall"] = VideoWall("wall", "Wall", Geometry(200, 100, 0, 0), monitors)
    state.sources["web"] = Source(
        "web", "Page", "Web Browser", [Param("TEXT", "URL", "https://example.org/")]
    )
    state.zones["top"] = Zone("top", "Top", "wall", [1, 2], timeline=Timeline("web", **PLAYING))  # type: ignore[arg-type]
    state.zones["left"] = Zone("left", "Left", "wall", [3])
    return state


def test_unlocked_station_pairs() -> None:
    state = State()
    state.stations["s1"] = Station("s1", name="Lobby", ip="192.0.2.55")
    description = render(state, "s1")
    assert description.role == "pairing"
    assert description.pairing is not None
    assert description.pairing.host_name == "wallhost"
    assert description.pairing.host_address == "192.0.2.10"
    assert description.pairing.station_name == "Lobby"
    assert description.pairing.ip == "192.0.2.55"
    assert description.content is None
    assert render(State(), "unknown").role == "pairing"


def test_tile_crops_its_monitor_from_the_zone_box() -> None:
    description = render(wall_state(), "w2")
    assert description.role == "tile"
    tile = description.tile
    assert tile is not None
    assert (tile.canvas.width, tile.canvas.height) == (200, 100)
    assert (tile.zone_box.x, tile.zone_box.y, tile.zone_box.width, tile.zone_box.height) == (
        0,
        0,
        200,
        50,
    )
    assert (tile.monitor.centerX, tile.monitor.centerY) == (150, 25)
    assert (tile.crop.x, tile.crop.y, tile.crop.width, tile.crop.height) == (100, 0, 100, 50)
    assert isinstance(description.content and description.content.source, WebSource)
    encoded = json.loads(msgspec.json.encode(description))
    assert encoded["tile"]["zoneBox"] == {"x": 0, "y": 0, "width": 200, "height": 50}
    assert encoded["tile"]["crop"]["rotationDegrees"] == 0


def test_single_display_zone_and_rotated_monitor() -> None:
    state = wall_state()
    state.walls["wall"].monitors[2].geometry = Geometry(100, 50, -50, 25, 90)
    tile = render(state, "w3").tile
    assert tile is not None
    # rotated 90 degrees, the 100x50 monitor covers 50x100 on the canvas
    assert (tile.zone_box.x, tile.zone_box.y, tile.zone_box.width, tile.zone_box.height) == (
        25,
        25,
        50,
        100,
    )
    assert (tile.crop.x, tile.crop.y, tile.crop.width, tile.crop.height) == (-25, 25, 100, 50)
    assert tile.crop.rotation_degrees == 90


def test_wall_display_in_no_zone_is_inactive() -> None:
    state = wall_state()
    description = render(state, "w4")
    assert description.role == "inactive"
    assert description.display_id == 4
    assert description.content is None


def test_mirror_group_member_shows_group_timeline_whole() -> None:
    state = State()
    state.sources["cam"] = Source(
        "cam",
        "Camera",
        "Network Streamer",
        [Param("TEXT", "URL", "rtsp://x/"), Param("CHECKBOX", "Muted", "false")],
    )
    locked(state, "m1", 11, Timeline("cam", **PLAYING))  # type: ignore[arg-type]
    locked(state, "m2", 12)
    state.mirrors["g"] = MirrorGroup("g", "G", [11, 12], Timeline("cam", **PLAYING))  # type: ignore[arg-type]
    for seat in ("m1", "m2"):
        description = render(state, seat)
        assert description.role == "mirror"
        assert description.tile is None
        assert description.content is not None
        assert description.content.source == LiveSource("cam", "Camera", "/live/cam", False)
    assert render(state, "m1").content == render(state, "m2").content


def test_welcome_and_stopped_show_no_source() -> None:
    state = State()
    state.sources["web"] = Source("web", "Page", "Web Browser", [])
    locked(state, "a", 1, Timeline("web", "playing", welcome=True))
    description = render(state, "a")
    assert description.role == "standalone"
    assert description.content is not None
    assert description.content.welcome is True
    assert description.content.source is None
    state.displays[1].timeline = Timeline("web", "stopped", welcome=False)
    stopped = render(state, "a").content
    assert stopped is not None and not stopped.welcome and stopped.source is None
    assert stopped.timeline.state == "stopped"


def test_videolist_plays_instead_of_source() -> None:
    state = State()
    state.sources["web"] = Source("web", "Page", "Web Browser", [])
    media = FakeMedia({"clips/a.mp4": 4200, "still.png": None, "broken.mp4": None})
    timeline = Timeline(
        "web",
        "playing",
        False,
        NOW,
        0,
        ["clips/a.mp4", "still.png", "broken.mp4", "notes.txt"],
        True,
        3000,
    )
    locked(state, "a", 1, timeline)
    content = render(state, "a", media=media).content
    assert content is not None
    source = content.source
    assert isinstance(source, SignageSource)
    assert source.source_id == ""
    assert [(i.name, i.kind, i.duration_ms) for i in source.items] == [
        ("clips/a.mp4", "video", 4200),
        ("still.png", "image", 3000),
        # a video that will not probe shows for the slideshow interval, as host media info says
        ("broken.mp4", "video", 3000),
    ]
    assert source.items[0].url == "/media/clips/a.mp4"
    assert source.total_ms == 10_200
    assert content.timeline.repeat is True


def signage(shuffle: str = "false") -> Source:
    files = [
        {"type": "dir", "name": "pics", "value": "pics"},
        {"type": "file", "name": "intro.mp4", "value": "intro.mp4"},
    ]
    return Source(
        "sig",
        "Signs",
        "Signage Player",
        [
            Param("FILE_DIR_SELECT", "Media", json.dumps(files)),
            Param("NUMBER", "Slide Interval", "5"),
            Param("CHECKBOX", "Shuffle", shuffle),
            Param("RADIO", "Scaling", "fill"),
        ],
    )


def test_signage_player_expands_playlist() -> None:
    state = State()
    media = FakeMedia({"pics/a b.png": None, "pics/c.jpg": None, "intro.mp4": 2000})
    state.sources["sig"] = signage()
    locked(state, "a", 1, Timeline("sig", **PLAYING))  # type: ignore[arg-type]
    source = render(state, "a", media=media).content.source  # type: ignore[union-attr]
    assert isinstance(source, SignageSource)
    assert [(i.url, i.duration_ms) for i in source.items] == [
        ("/media/pics/a%20b.png", 5000),
        ("/media/pics/c.jpg", 5000),
        ("/media/intro.mp4", 2000),
    ]
    assert source.scaling == "fill"
    state.sources["sig"] = signage("true")
    first = render(state, "a", media=media).content.source  # type: ignore[union-attr]
    again = render(state, "a", media=media).content.source  # type: ignore[union-attr]
    assert first == again  # a shuffle is the same on every receiver


def test_signage_defaults_when_params_missing() -> None:
    state = State()
    state.sources["sig"] = Source(
        "sig", "Empty", "Signage Player", [Param("NUMBER", "Slide Interval", "soon")]
    )
    locked(state, "a", 1, Timeline("sig", **PLAYING))  # type: ignore[arg-type]
    source = render(state, "a").content.source  # type: ignore[union-attr]
    assert source == SignageSource("sig", "Empty", [], 0, "fit")


def test_command_and_control_renders_current_layout() -> None:
    state = wall_state()
    state.sources["sig"] = signage()
    state.layouts["l1"] = Layout(
        "l1", "One", [Window("web", 0, 0, 0.5, 1), Window("sig", 0.5, 0, 0.5, 1)]
    )
    state.layouts["l2"] = Layout("l2", "Two", [Window("cc", 0, 0, 1, 1), Window("gone")])
    state.sources["cc"] = Source(
        "cc", "Control", "Command and Control", [Param("TEXT", "Layouts", json.dumps(["l1", "l2"]))]
    )
    zone = state.zones["top"]
    zone.timeline = Timeline("cc", **PLAYING)  # type: ignore[arg-type]
    source = render(state, "w1").content.source  # type: ignore[union-attr]
    assert isinstance(source, LayoutSource)
    assert source.layout_id == "l1"
    assert [type(w.source).__name__ for w in source.windows] == ["WebSource", "SignageSource"]
    zone.timeline.layout_id = "l2"
    source = render(state, "w1").content.source  # type: ignore[union-attr]
    assert isinstance(source, LayoutSource)
    assert source.layout_name == "Two"
    assert [type(w.source).__name__ for w in source.windows] == ["BlankSource", "BlankSource"]


@pytest.mark.parametrize("until, shown", [(NOW + 1, True), (NOW, False)])
def test_overlays(until: int, shown: bool) -> None:
    state = State()
    locked(state, "a", 1)
    locked(state, "b", 2)
    overlays = OverlaySwitches(
        alert=AlertOverlay("Fire drill", "RED_LEVEL", until),
        display_ids=frozenset({1}),
        dpms_off=frozenset({2}),
    )
    a = render(state, "a", overlays)
    b = render(state, "b", overlays)
    assert (a.overlays.alert is not None) is shown
    assert a.overlays.display_id is not None and a.overlays.display_id.display_id == 1
    assert b.overlays.display_id is None
    assert not a.overlays.dpms_off and b.overlays.dpms_off
    encoded = json.loads(msgspec.json.encode(a))
    assert encoded["overlays"]["displayId"] == {"displayId": 1}
    assert encoded["resolution"] == {"width": 1920, "height": 1080}
