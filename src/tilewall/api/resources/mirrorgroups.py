"""Mirror groups: every operation by name and by id; create, update and delete are
tilewall extensions."""

import msgspec
from litestar import delete, post, put
from litestar.handlers import HTTPRouteHandler

from tilewall.api.common import Done, PathKey, PathName, extension
from tilewall.api.read_cache import EncodedOnce, encoded_route
from tilewall.api.resources.playback import by_name_or_id, control_routes, read_route
from tilewall.host.host import Host
from tilewall.host.model import MirrorGroup
from tilewall.host.playback import timeline
from tilewall.host.topology.walls import Topology

TAGS = ["Mirror groups"]
BY_NAME = "/mirrorgroups/byname/{mirrorgroupName:str}"
BY_ID = "/mirrorgroups/{mirrorgroupId:str}"


class MirrorRef(msgspec.Struct):
    id: str
    name: str


class MirrorList(msgspec.Struct):
    mirrorgroups: list[MirrorRef]


class MirrorBody(msgspec.Struct):
    id: str
    name: str
    displayIds: list[int]
    isPlaying: bool
    playingSourceId: str
    isShowingWelcomeScreen: bool


class MirrorIn(msgspec.Struct):
    name: PathName
    displayIds: list[int] = []


class MirrorUpdate(msgspec.Struct):
    name: PathName | None = None
    displayIds: list[int] | None = None


def shape(group: MirrorGroup) -> MirrorBody:
    tl = group.timeline
    return MirrorBody(
        group.id,
        group.name,
        list(group.display_ids),
        timeline.is_playing(tl),
        timeline.playing_source_id(tl),
        tl.welcome,
    )


def _mirrorgroup_name(mirrorgroupName: str) -> str:
    return mirrorgroupName


def _mirrorgroup_id(mirrorgroupId: str) -> str:
    return mirrorgroupId


def _routes(path: str, path_key: PathKey, by_name: bool) -> list[HTTPRouteHandler]:
    how = "byname" if by_name else "byid"
    mirror = by_name_or_id(
        "mirror", "mirror group", by_name, path, path_key, TAGS, Topology.mirror, shape, MirrorBody
    )
    return [
        read_route(
            mirror, f"Read a mirror group ({how})", f"mirror-get-{how}", mirror.shape, MirrorBody
        ),
        *control_routes(mirror, not_found="zone {key!r} not found"),
    ]


def mirror_list(host: Host) -> MirrorList:
    groups = sorted(host.state.mirrors.values(), key=lambda g: g.name)
    return MirrorList([MirrorRef(g.id, g.name) for g in groups])


MIRRORS = EncodedOnce(mirror_list)
list_mirrors = encoded_route(
    "/mirrorgroups", MIRRORS, MirrorList, "list_mirrors", "List mirror groups", TAGS
)


@extension(post, "/mirrorgroups", TAGS, "Create a mirror group", 404, 409)
async def create_mirror(host: Host, data: MirrorIn) -> MirrorBody:
    return shape(await host.topology.create_mirror(data.name, data.displayIds))


@extension(put, BY_ID, TAGS, "Update a mirror group", 404, 409)
async def update_mirror(host: Host, mirrorgroupId: str, data: MirrorUpdate) -> MirrorBody:
    group = host.topology.mirror(mirrorgroupId)
    return shape(await host.topology.update_mirror(group, data.name, data.displayIds))


@extension(delete, BY_ID, TAGS, "Delete a mirror group", 404)
async def delete_mirror(host: Host, mirrorgroupId: str) -> Done:
    group = host.topology.mirror(mirrorgroupId)
    await host.topology.delete_mirror(group)
    return Done(f"mirror group {group.name!r} deleted")


ROUTES = [
    list_mirrors,
    create_mirror,
    update_mirror,
    delete_mirror,
    *_routes(BY_NAME, _mirrorgroup_name, by_name=True),
    *_routes(BY_ID, _mirrorgroup_id, by_name=False),
]
