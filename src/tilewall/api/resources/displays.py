"""Displays: list, read, switch and playback control, settings, tag, reset."""

from typing import Annotated

import msgspec
from litestar import Response, get, put
from litestar.params import Parameter

from tilewall.api.common import errors
from tilewall.api.read_cache import EncodedOnce, answer_early
from tilewall.api.resources.playback import Playable, control_routes, switch_route
from tilewall.host.host import Host
from tilewall.host.model import Display
from tilewall.host.playback import timeline
from tilewall.host.playback.control import Target

TAGS = ["Displays"]
PATH = "/displays/{displayId:str}"


class DisplayBody(msgspec.Struct):
    displayId: int
    seatId: str
    isOnline: bool
    playingSourceId: str
    isShowingWelcomeScreen: bool


class DisplayListItem(DisplayBody):
    stationType: str


class DisplayList(msgspec.Struct):
    displays: list[DisplayListItem]


Pixels = Annotated[int, msgspec.Meta(ge=1, le=16384)]


class ResolutionBody(msgspec.Struct):
    """In a request: one of the display's availableResolutions."""

    width: Annotated[Pixels, msgspec.Meta(description="Set: one of availableResolutions.")]
    height: Pixels


class DisplaySettings(msgspec.Struct):
    displayId: int
    currentResolution: ResolutionBody
    availableResolutions: list[ResolutionBody]


class TagBody(msgspec.Struct):
    displayTag: Annotated[str, msgspec.Meta(max_length=256)]


class DisplayTag(msgspec.Struct):
    displayId: int
    displayTag: str


def shape(host: Host, display: Display) -> DisplayBody:
    tl = host.playback.effective_timeline(display)
    return DisplayBody(
        display.display_id,
        display.seat_id,
        host.stations.is_online(display.seat_id),
        timeline.playing_source_id(tl),
        tl.welcome,
    )


def _find(host: Host, key: str) -> Display:
    return host.stations.display(key)


def _target(host: Host, display: Display) -> Target:
    return host.playback.for_display(display)


def _display_id(displayId: str) -> str:
    return displayId


DISPLAY = Playable(
    PATH, _display_id, TAGS, "display", "display", _find, _target, shape, DisplayBody
)


def display_list(host: Host, standalone_only: bool) -> DisplayList:
    out = []
    for display_id in sorted(host.state.displays):
        display = host.state.displays[display_id]
        station_type = host.stations.station_type(display_id)
        if standalone_only and station_type == "VIDEOWALL":
            continue
        body = shape(host, display)
        out.append(DisplayListItem(**msgspec.structs.asdict(body), stationType=station_type))
    return DisplayList(out)


#: isOnline moves with the receivers' liveness, which the host announces (a revision)
DISPLAYS = EncodedOnce(display_list)
answer_early("/displays", DISPLAYS, False)


@get("/displays", tags=TAGS, summary="List displays", responses=errors())
async def list_displays(
    host: Host,
    standalone_only: bool = Parameter(query="isStandaloneOnly", default=False, required=False),
) -> Response[DisplayList]:
    return await DISPLAYS.response(host, standalone_only)


@get(PATH, tags=TAGS, summary="Read a display", responses=errors(404))
async def get_display(host: Host, displayId: str) -> DisplayBody:
    return shape(host, host.stations.display(displayId))


@put(f"{PATH}/reset", tags=TAGS, summary="Restart the display's rendering", responses=errors(404))
async def reset_display(host: Host, displayId: str) -> DisplayBody:
    return shape(host, host.stations.reset_display(displayId))


def _settings(host: Host, display: Display) -> DisplaySettings:
    current = host.stations.resolution(display)
    return DisplaySettings(
        display.display_id,
        ResolutionBody(current.width, current.height),
        [ResolutionBody(r.width, r.height) for r in host.stations.resolutions(display)],
    )


@get(f"{PATH}/settings", tags=TAGS, summary="Display resolution", responses=errors(404))
async def get_settings(host: Host, displayId: str) -> DisplaySettings:
    return _settings(host, host.stations.display(displayId))


@put(
    f"{PATH}/settings",
    tags=TAGS,
    summary="Set the display resolution",
    description="Only a resolution the display's receiver reported: 400 otherwise.",
    responses=errors(404),
)
async def put_settings(host: Host, displayId: str, data: ResolutionBody) -> DisplaySettings:
    display = host.stations.display(displayId)
    await host.stations.set_resolution(display, data.width, data.height)
    return _settings(host, display)


@get(f"{PATH}/tag", tags=TAGS, summary="The display's tag", responses=errors(404))
async def get_tag(host: Host, displayId: str) -> DisplayTag:
    display = host.stations.display(displayId)
    return DisplayTag(display.display_id, display.tag)


@put(f"{PATH}/tag", tags=TAGS, summary="Set the display's tag", responses=errors(404))
async def put_tag(host: Host, displayId: str, data: TagBody) -> DisplayTag:
    display = await host.stations.set_tag(host.stations.display(displayId), data.displayTag)
    return DisplayTag(display.display_id, display.tag)


ROUTES = [
    list_displays,
    get_display,
    reset_display,
    get_settings,
    put_settings,
    get_tag,
    put_tag,
    switch_route(DISPLAY, "a display", "destinationSourceId", "display-switch"),
    *control_routes(DISPLAY),
]
