"""Video walls: read and delete; create and update are tilewall extensions."""

from typing import Annotated

import msgspec
from litestar import delete, get, post, put

from tilewall.api.common import Done, NotBlank, errors, extension
from tilewall.api.read_cache import EncodedOnce, encoded_route
from tilewall.host.host import Host
from tilewall.host.model import Geometry, VideoWall
from tilewall.host.topology.walls import MonitorSpec

TAGS = ["Video walls"]
#: the rules of a wall's monitors no schema can state
WALL_RULES = "A wall names each display once, each monitor with a positive size: 400 otherwise."
PATH = "/videowalls/{videoWallId:str}"


class Diagonal(msgspec.Struct):
    lengthInMillimeter: Annotated[float, msgspec.Meta(ge=0)] = 0.0


class MonitorBody(msgspec.Struct):
    displayId: Annotated[
        int,
        msgspec.Meta(
            description="A display, each on one monitor of the wall; its monitorGeometry has "
            "a width and a height greater than 0."
        ),
    ]
    monitorGeometry: Geometry
    monitorDiagonal: Diagonal = msgspec.field(default_factory=Diagonal)


class ZoneRef(msgspec.Struct):
    zoneId: str
    zoneName: str


class VideoWallBody(msgspec.Struct):
    id: str
    name: str
    canvasGeometry: Geometry
    monitors: list[MonitorBody]
    zones: list[ZoneRef]


class VideoWallList(msgspec.Struct):
    videowalls: list[VideoWallBody]


Positive = Annotated[float, msgspec.Meta(gt=0)]


class CanvasGeometry(Geometry):
    """A wall's canvas: width and height greater than 0."""

    width: Positive
    height: Positive


class VideoWallIn(msgspec.Struct):
    name: NotBlank
    monitors: list[MonitorBody] = []
    canvasGeometry: CanvasGeometry | None = None


class VideoWallUpdate(msgspec.Struct):
    name: NotBlank | None = None
    monitors: list[MonitorBody] | None = None
    canvasGeometry: CanvasGeometry | None = None


def shape(host: Host, wall: VideoWall) -> VideoWallBody:
    zones = sorted(host.topology.zones_of_wall(wall.id), key=lambda z: z.name)
    return VideoWallBody(
        wall.id,
        wall.name,
        wall.canvas,
        [MonitorBody(m.display_id, m.geometry, Diagonal(m.diagonal_mm)) for m in wall.monitors],
        [ZoneRef(z.id, z.name) for z in zones],
    )


def _specs(monitors: list[MonitorBody]) -> list[MonitorSpec]:
    return [
        MonitorSpec(m.displayId, m.monitorGeometry, m.monitorDiagonal.lengthInMillimeter)
        for m in monitors
    ]


def wall_list(host: Host) -> VideoWallList:
    walls = sorted(host.state.walls.values(), key=lambda w: w.name)
    return VideoWallList([shape(host, w) for w in walls])


WALLS = EncodedOnce(wall_list)
list_walls = encoded_route(
    "/videowalls", WALLS, VideoWallList, "list_walls", "List video walls", TAGS
)


@get(PATH, tags=TAGS, summary="Read a video wall", responses=errors(404))
async def get_wall(host: Host, videoWallId: str) -> VideoWallBody:
    return shape(host, host.topology.wall(videoWallId))


@delete(
    PATH,
    status_code=200,
    tags=TAGS,
    summary="Delete a video wall and its zones",
    responses=errors(404),
)
async def delete_wall(host: Host, videoWallId: str) -> Done:
    wall = host.topology.wall(videoWallId)
    await host.topology.delete_wall(wall.id)
    return Done(f"video wall {wall.name!r} deleted")


@extension(
    post,
    "/videowalls",
    TAGS,
    "Create a video wall from displays and their geometry",
    404,
    409,
    description=WALL_RULES,
)
async def create_wall(host: Host, data: VideoWallIn) -> VideoWallBody:
    wall = await host.topology.create_wall(data.name, _specs(data.monitors), data.canvasGeometry)
    return shape(host, wall)


@extension(put, PATH, TAGS, "Update a video wall", 404, 409, description=WALL_RULES)
async def update_wall(host: Host, videoWallId: str, data: VideoWallUpdate) -> VideoWallBody:
    monitors = None if data.monitors is None else _specs(data.monitors)
    wall = await host.topology.update_wall(videoWallId, data.name, monitors, data.canvasGeometry)
    return shape(host, wall)


ROUTES = [list_walls, get_wall, delete_wall, create_wall, update_wall]
