"""The demo topology: seven virtual receivers, a 2x2 wall with two zones, a mirror group,
a source of every catalogue type over real media files, two layouts and a preset."""

import json
import logging
import shutil
from pathlib import Path

from tilewall.host.content import catalogue
from tilewall.host.host import Host
from tilewall.host.model import Geometry, Layout, Param, Resolution, Source, VideoWall, Window, Zone
from tilewall.host.playback.control import Target
from tilewall.host.topology.walls import MonitorSpec

log = logging.getLogger(__name__)

DEMO_MEDIA = Path(__file__).parent / "demo_media"
SEATS = [f"demo-{n}" for n in range(1, 8)]
MODEL = "tilewall virtual receiver"
FIRMWARE = "virtual-1"
SCREEN = Resolution(1920, 1080)
RESOLUTIONS = [Resolution(1920, 1080), Resolution(1280, 720), Resolution(3840, 2160)]

# a 55-inch 16:9 panel is about 1210 x 680 mm; 10 mm of bezel between panels
PANEL_W, PANEL_H, BEZEL = 1210.0, 680.0, 10.0


def is_empty(host: Host) -> bool:
    state = host.state
    # receivers may already have said hello; what matters is that nothing was set up
    return not (state.sources or state.walls or state.presets or state.displays)


def install_media(host: Host) -> None:
    for file in DEMO_MEDIA.iterdir():
        target = host.media.root / "demo" / file.name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, target)


async def register_seats(host: Host) -> None:
    """Announce the demo seats as receivers (the virtual receivers do this on connect)."""
    for seat in SEATS:
        await host.stations.hello(
            seat,
            "127.0.0.1",
            MODEL,
            FIRMWARE,
            SCREEN,
            RESOLUTIONS,
            name=f"Demo {seat.split('-')[1]}",
        )


async def seed_demo(host: Host) -> None:
    """Seed the demo topology, once, on a host that has none of it."""
    install_media(host)
    if not is_empty(host):
        return
    await register_seats(host)
    displays = []
    for seat in SEATS[:6]:
        station = await host.stations.lock(seat)
        assert station.display_id is not None
        displays.append(station.display_id)
    wall, top, bottom = await _lobby_wall(host, displays[:4])
    mirror = await host.topology.create_mirror("Reception", displays[4:6])
    slides, clip = await _sources(host)
    control = await _control_room(host, slides, clip)
    await host.playback.switch(Target("zone", top), slides)
    await host.playback.switch(Target("zone", bottom), control)
    await host.playback.switch(Target("mirror", mirror), clip)
    await host.presets.save("Demo Start")
    log.info("demo topology seeded: %d stations, wall %r", len(SEATS), wall.name)


async def _lobby_wall(host: Host, displays: list[int]) -> tuple[VideoWall, Zone, Zone]:
    """A wall of two by two panels, its top row a zone and its bottom row another."""

    def panel(col: int, row: int) -> Geometry:
        return Geometry(
            PANEL_W,
            PANEL_H,
            PANEL_W / 2 + col * (PANEL_W + BEZEL),
            PANEL_H / 2 + row * (PANEL_H + BEZEL),
            0.0,
        )

    wall = await host.topology.create_wall(
        "Lobby Wall",
        [MonitorSpec(d, panel(i % 2, i // 2), 1397.0) for i, d in enumerate(displays)],
        None,
    )
    top = await host.topology.create_zone("Lobby Top", wall.id, displays[:2], None)
    bottom = await host.topology.create_zone("Lobby Bottom", wall.id, displays[2:4], None)
    return wall, top, bottom


async def _sources(host: Host) -> tuple[Source, Source]:
    """The slides and the clip (the demo's media), and a web page."""

    def media(name: str) -> dict[str, str]:
        return {"type": "file", "name": name, "value": f"demo/{name}"}

    slides = await host.sources.create(
        "Welcome Slides",
        catalogue.SIGNAGE,
        [
            Param(
                "FILE_DIR_SELECT",
                catalogue.MEDIA,
                json.dumps(
                    [
                        media("quadrants.png"),
                        media("pattern.png"),
                        media("clip.mp4"),
                        media("bars.png"),
                    ]
                ),
            ),
            Param("NUMBER", catalogue.SLIDE_INTERVAL, "8"),
        ],
    )
    clip = await host.sources.create(
        "Demo Clip",
        catalogue.NETWORK_STREAMER,
        [
            Param("URL", catalogue.URL, "/media/demo/clip.mp4"),
            Param("CHECKBOX", catalogue.MUTED, "true"),
        ],
    )
    await host.sources.create(
        "Project Page",
        catalogue.WEB_BROWSER,
        [
            Param("URL", catalogue.URL, "https://example.org/"),
            Param("NUMBER", catalogue.REFRESH_INTERVAL, "300"),
        ],
    )
    return slides, clip


async def _control_room(host: Host, slides: Source, clip: Source) -> Source:
    """Two layouts of the slides and the clip, and a control room source over them."""
    two_up = Layout(
        "layout-two-up",
        "Two Up",
        [Window(slides.id, 0.0, 0.0, 0.5, 1.0), Window(clip.id, 0.5, 0.0, 0.5, 1.0)],
    )
    quad = Layout(
        "layout-quad",
        "Quad",
        [
            Window(slides.id, 0.0, 0.0, 0.5, 0.5),
            Window(clip.id, 0.5, 0.0, 0.5, 0.5),
            Window(clip.id, 0.0, 0.5, 0.5, 0.5),
            Window(slides.id, 0.5, 0.5, 0.5, 0.5),
        ],
    )
    async with host.core.change() as tx:
        tx.put(two_up)
        tx.put(quad)
    return await host.sources.create(
        "Control Room",
        catalogue.COMMAND_AND_CONTROL,
        [Param("LAYOUT_SELECT", catalogue.LAYOUTS, json.dumps([two_up.id, quad.id]))],
    )
