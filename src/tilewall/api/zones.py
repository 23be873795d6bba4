"""Zones of video walls. Every operation exists by name and by id; both are one
implementation looked up two ways. Create, update and delete are tilewall extensions."""

from typing import Annotated, Any

import msgspec
from litestar import Request, delete, get, post, put
from litestar.params import Parameter

from tilewall.api.common import EXTENSION_TAG, Done, Extension, PathName, errors, host_of
from tilewall.api.playback import control_routes, switch_route
from tilewall.host.errors import Invalid
from tilewall.host.host import Host
from tilewall.host.model import Zone
from tilewall.host.playback import timeline
from tilewall.host.playback.control import Target

TAGS = ["Zones"]
BY_NAME = "/zones/byname/{zoneName:str}"
BY_ID = "/zones/{zoneId:str}"


class ZoneDisplay(msgspec.Struct):
    displayId: int
    isSelected: bool


class ZoneFull(msgspec.Struct):
    zoneId: str
    zoneName: str
    isPlaying: bool
    playingSourceId: str
    isShowingWelcomeScreen: bool
    videowallId: str
    controlDisplayId: int
    zoneDisplays: list[ZoneDisplay]


class ZoneShort(msgspec.Struct):
    zoneId: str
    zoneName: str
    isPlaying: bool
    playingSourceId: str
    videowallId: str


class ZoneList(msgspec.Struct):
    zones: list[ZoneFull]


ZoneDisplayIds = Annotated[
    list[int], msgspec.Meta(description="Displays of the zone's video wall, each given once.")
]
ControlDisplayId = Annotated[
    int | None,
    msgspec.Meta(description="One of the zone's displays; 0 or absent: the first of them."),
]


class ZoneIn(msgspec.Struct):
    zoneName: PathName
    videowallId: str
    displayIds: ZoneDisplayIds = []
    controlDisplayId: ControlDisplayId = None


class ZoneUpdate(msgspec.Struct):
    zoneName: PathName | None = None
    displayIds: ZoneDisplayIds | None = None
    controlDisplayId: ControlDisplayId = None


def full(host: Host, zone: Zone) -> ZoneFull:
    wall = host.state.walls.get(zone.wall_id)
    monitors = [m.display_id for m in wall.monitors] if wall else list(zone.display_ids)
    tl = zone.timeline
    return ZoneFull(
        zone.id,
        zone.name,
        timeline.is_playing(tl),
        timeline.playing_source_id(tl),
        tl.welcome,
        zone.wall_id,
        zone.control_display_id,
        [ZoneDisplay(d, d in zone.display_ids) for d in monitors],
    )


def short(zone: Zone) -> ZoneShort:
    tl = zone.timeline
    return ZoneShort(
        zone.id, zone.name, timeline.is_playing(tl), timeline.playing_source_id(tl), zone.wall_id
    )


def _finder(by_name: bool) -> Any:
    def find(host: Host, key: str) -> Zone:
        return host.topology.zone(key, by_name)

    return find


def _routes(path: str, param: str, by_name: bool) -> list[Any]:
    find = _finder(by_name)
    how = "byname" if by_name else "byid"

    def resolve(host: Host, key: str) -> Target:
        return Target("zone", find(host, key))

    def shape(host: Host, key: str) -> ZoneShort:
        return short(find(host, key))

    @get(
        path,
        tags=TAGS,
        summary=f"Read a zone ({how})",
        responses=errors(404),
        name=f"zone-get-{how}",
    )
    async def read(request: Request) -> ZoneFull:  # type: ignore[type-arg]
        host = host_of(request.app.state)
        return full(host, find(host, request.path_params[param]))

    @put(
        f"{path}/{'playAssignedSource' if by_name else 'playAssignedProfile'}",
        tags=TAGS,
        summary="Play the assigned source (earlier-style name of play)",
        responses=errors(404, 409),
        name=f"zone-play-assigned-{how}",
    )
    async def play_assigned(request: Request) -> ZoneShort:  # type: ignore[type-arg]
        host = host_of(request.app.state)
        zone = find(host, request.path_params[param])
        await host.playback.play(Target("zone", zone))
        return short(zone)

    return [
        read,
        play_assigned,
        switch_route(
            path,
            param,
            TAGS,
            f"a zone ({how})",
            resolve,
            shape,
            "destinationSourceName" if by_name else "destinationSourceId",
            ZoneShort,
            f"zone-switch-{how}",
        ),
        *control_routes(
            path,
            param,
            TAGS,
            f"zone {how}",
            resolve,
            shape,
            ZoneShort,
            f"zone-{how}",
            with_stop=True,
        ),
    ]


@get("/zones", tags=TAGS, summary="List zones", responses=errors())
async def list_zones(request: Request) -> ZoneList:  # type: ignore[type-arg]
    host = host_of(request.app.state)
    zones = sorted(host.state.zones.values(), key=lambda z: (z.wall_id, z.name))
    return ZoneList([full(host, z) for z in zones])


@get(
    "/zones/byvideowallid/{videoWallId:str}",
    tags=TAGS,
    summary="Zones of a video wall",
    responses=errors(404),
)
async def zones_of_wall(request: Request, videoWallId: str) -> ZoneList:  # type: ignore[type-arg]
    host = host_of(request.app.state)
    host.topology.wall(videoWallId)
    zones = sorted(host.topology.zones_of_wall(videoWallId), key=lambda z: z.name)
    return ZoneList([full(host, z) for z in zones])


@put(f"{BY_NAME}/rename", tags=TAGS, summary="Rename a zone", responses=errors(404, 409))
async def rename_zone(
    request: Request,  # type: ignore[type-arg]
    zoneName: str,
    new_name: str | None = Parameter(
        query="newZoneName",
        default=None,
        required=True,
        min_length=1,
        max_length=200,
        pattern=r"^[^/]*[^\s/][^/]*$",
        description="Not blank and without '/'; at most 200 characters.",
    ),
) -> ZoneShort:
    if not new_name or not new_name.strip():
        raise Invalid("newZoneName is required")
    host = host_of(request.app.state)
    zone = host.topology.zone(zoneName, by_name=True)
    return short(await host.topology.update_zone(zone, new_name, None, None))


@post(
    "/zones",
    status_code=200,
    tags=[EXTENSION_TAG, *TAGS],
    summary="Create a zone",
    responses=errors(404, 409),
    operation_class=Extension,
)
async def create_zone(request: Request, data: ZoneIn) -> ZoneFull:  # type: ignore[type-arg]
    host = host_of(request.app.state)
    zone = await host.topology.create_zone(
        data.zoneName, data.videowallId, data.displayIds, data.controlDisplayId
    )
    return full(host, zone)


@put(
    BY_ID,
    tags=[EXTENSION_TAG, *TAGS],
    summary="Update a zone (name, displays)",
    responses=errors(404, 409),
    operation_class=Extension,
)
async def update_zone(request: Request, zoneId: str, data: ZoneUpdate) -> ZoneFull:  # type: ignore[type-arg]
    host = host_of(request.app.state)
    zone = host.topology.zone(zoneId)
    await host.topology.update_zone(zone, data.zoneName, data.displayIds, data.controlDisplayId)
    return full(host, zone)


@delete(
    BY_ID,
    status_code=200,
    tags=[EXTENSION_TAG, *TAGS],
    summary="Delete a zone",
    responses=errors(404),
    operation_class=Extension,
)
async def delete_zone(request: Request, zoneId: str) -> Done:  # type: ignore[type-arg]
    host = host_of(request.app.state)
    zone = host.topology.zone(zoneId)
    await host.topology.delete_zone(zone)
    return Done(f"zone {zone.name!r} deleted")


ROUTES = [
    list_zones,
    zones_of_wall,
    rename_zone,
    create_zone,
    update_zone,
    delete_zone,
    *_routes(BY_NAME, "zoneName", by_name=True),
    *_routes(BY_ID, "zoneId", by_name=False),
]
