"""Zones of video walls. Every operation exists by name and by id; both are one
implementation looked up two ways. Create, update and delete are tilewall extensions."""

from typing import Annotated

import msgspec
from litestar import delete, get, post, put
from litestar.handlers import HTTPRouteHandler
from litestar.params import Parameter

from tilewall.api.common import Done, PathKey, PathName, errors, extension, keyed_by
from tilewall.api.read_cache import EncodedOnce, encoded_route
from tilewall.api.resources.playback import by_name_or_id, control_routes, read_route, switch_route
from tilewall.host.errors import Invalid
from tilewall.host.host import Host
from tilewall.host.model import Zone
from tilewall.host.playback import timeline
from tilewall.host.topology.walls import Topology

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


#: the rules of a zone's displays no schema can state
ZONE_RULES = (
    "The displays of a zone are displays of its wall, each given once, and its control "
    "display is one of them: 400 otherwise."
)
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


def _zone_name(zoneName: str) -> str:
    return zoneName


def _zone_id(zoneId: str) -> str:
    return zoneId


def _routes(path: str, path_key: PathKey, by_name: bool) -> list[HTTPRouteHandler]:
    how = "byname" if by_name else "byid"
    zone = by_name_or_id(
        "zone", "zone", by_name, path, path_key, TAGS, Topology.zone, short, ZoneShort
    )

    @put(
        f"{path}/{'playAssignedSource' if by_name else 'playAssignedProfile'}",
        tags=TAGS,
        summary="Play the assigned source (earlier-style name of play)",
        responses=errors(404, 409),
        name=f"zone-play-assigned-{how}",
        dependencies=keyed_by(path_key),
    )
    async def play_assigned(host: Host, key: str) -> ZoneShort:
        await host.playback.play(zone.resolve(host, key))
        return zone.answer(host, key)

    missing = "destinationSourceName" if by_name else "destinationSourceId"
    return [
        read_route(zone, f"Read a zone ({how})", f"zone-get-{how}", full, ZoneFull),
        play_assigned,
        switch_route(zone, f"a zone ({how})", missing, f"zone-switch-{how}"),
        *control_routes(zone, with_stop=True),
    ]


def zone_list(host: Host) -> ZoneList:
    zones = sorted(host.state.zones.values(), key=lambda z: (z.wall_id, z.name))
    return ZoneList([full(host, z) for z in zones])


ZONES = EncodedOnce(zone_list)
list_zones = encoded_route("/zones", ZONES, ZoneList, "list_zones", "List zones", TAGS)


@get(
    "/zones/byvideowallid/{videoWallId:str}",
    tags=TAGS,
    summary="Zones of a video wall",
    responses=errors(404),
)
async def zones_of_wall(host: Host, videoWallId: str) -> ZoneList:
    host.topology.wall(videoWallId)
    zones = sorted(host.topology.zones_of_wall(videoWallId), key=lambda z: z.name)
    return ZoneList([full(host, z) for z in zones])


@put(f"{BY_NAME}/rename", tags=TAGS, summary="Rename a zone", responses=errors(404, 409))
async def rename_zone(
    host: Host,
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
    zone = host.topology.zone(zoneName, by_name=True)
    return short(await host.topology.update_zone(zone, new_name, None, None))


@extension(post, "/zones", TAGS, "Create a zone", 404, 409, description=ZONE_RULES)
async def create_zone(host: Host, data: ZoneIn) -> ZoneFull:
    zone = await host.topology.create_zone(
        data.zoneName, data.videowallId, data.displayIds, data.controlDisplayId
    )
    return full(host, zone)


@extension(put, BY_ID, TAGS, "Update a zone (name, displays)", 404, 409, description=ZONE_RULES)
async def update_zone(host: Host, zoneId: str, data: ZoneUpdate) -> ZoneFull:
    zone = host.topology.zone(zoneId)
    await host.topology.update_zone(zone, data.zoneName, data.displayIds, data.controlDisplayId)
    return full(host, zone)


@extension(delete, BY_ID, TAGS, "Delete a zone", 404)
async def delete_zone(host: Host, zoneId: str) -> Done:
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
    *_routes(BY_NAME, _zone_name, by_name=True),
    *_routes(BY_ID, _zone_id, by_name=False),
]
