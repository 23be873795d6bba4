"""Playback operations shared by displays, zones and mirror groups.

Each resource declares how a request names its target (by id or by name) and how its
answers are shaped; the operations themselves are written once here.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Generic, Literal, TypeVar

import msgspec
from litestar import get, put
from litestar.handlers import HTTPRouteHandler
from litestar.params import Parameter
from litestar.types import AnyCallable

from tilewall.api.common import PathKey, errors, keyed_by
from tilewall.host.errors import Invalid
from tilewall.host.host import Host
from tilewall.host.model import MirrorGroup, Zone
from tilewall.host.playback.control import Target, VideoList
from tilewall.host.topology.walls import Topology

#: the object a path key names (a display, a zone, a mirror group)
Found = TypeVar("Found")
#: the answer about the object the client named, looked up by its path key; the
#: handlers below are annotated ``-> "Shaped"`` (or ``-> "Read"``) and each route's
#: ``signature_namespace`` names the resource's answer type, so the OpenAPI document
#: shows the real schema
Shaped = TypeVar("Shaped")
Read = TypeVar("Read")
#: a zone or a mirror group: displays that play as one
Grouped = TypeVar("Grouped", Zone, MirrorGroup)


#: a file of the media library, by its path in the library
MEDIA_NAME = {
    "type": "string",
    "minLength": 1,
    "pattern": r"^(?:[^/\s\x00-\x1f\\]|[^\S\x00-\x1f]+[^\s\x00-\x1f\\])[^\x00-\x1f\\]*$",
    "description": "A path in the media library: not blank, relative, without control "
    "characters or backslashes, and without '..' segments.",
}
MediaName = Annotated[str, msgspec.Meta(min_length=1, pattern=MEDIA_NAME["pattern"])]


DESTINATION = (
    "One of destinationSourceId, destinationSourceName or a body selector is required "
    "(400 without any); the id wins when both are given."
)


class VideoListBody(msgspec.Struct):
    videolist: Annotated[
        list[MediaName],
        msgspec.Meta(
            min_length=1, max_length=1000, extra_json_schema={"extra": {"items": MEDIA_NAME}}
        ),
    ]
    queue: bool = False
    repeat: bool = False
    #: seconds each image shows
    slideshowInterval: Annotated[int, msgspec.Meta(ge=1, le=86400)] = 10


class TimeBody(msgspec.Struct):
    #: milliseconds
    time: Annotated[int, msgspec.Meta(ge=0)]


class SourceSelector(msgspec.Struct):
    sourceId: str = ""
    sourceName: str = ""


class MediaInfoBody(msgspec.Struct):
    filename: str
    totalDurationInMillliseconds: int
    currentTimeInMilliseconds: int


def media_info(host: Host, target: Target) -> MediaInfoBody:
    info = host.playback.media_info(target)
    return MediaInfoBody(info.filename, info.total_ms, info.current_ms)


@dataclass(frozen=True)
class Playable(Generic[Found, Shaped]):
    """A resource that plays (a display, a zone, a mirror group) as its routes address
    it: the path and the path key its requests name it by, how that key finds it, which
    playback target it is, and how its answers are shaped. Its by-name and its by-id
    routes are two of these over one implementation."""

    path: str
    path_key: PathKey
    tags: list[str]
    #: in the operations' summaries: "zone byname"
    what: str
    #: in the routes' names: "zone-byname"
    prefix: str
    find: Callable[[Host, str], Found]
    target: Callable[[Host, Found], Target]
    shape: Callable[[Host, Found], Shaped]
    response: type[Shaped]

    def resolve(self, host: Host, key: str) -> Target:
        return self.target(host, self.find(host, key))

    def answer(self, host: Host, key: str) -> Shaped:
        return self.shape(host, self.find(host, key))

    def operation(
        self,
        suffix: str,
        summary: str,
        extra_codes: tuple[int, ...] = (404, 409),
        description: str | None = None,
    ) -> Callable[[AnyCallable], HTTPRouteHandler]:
        """PUT {path}/{suffix}, answering the resource's shape."""
        return put(
            f"{self.path}/{suffix}",
            tags=self.tags,
            summary=f"{summary} ({self.what})",
            description=description,
            responses=errors(*extra_codes),
            name=f"{self.prefix}-{suffix}",
            dependencies=keyed_by(self.path_key),
            signature_namespace={"Shaped": self.response},
        )


def by_name_or_id(
    kind: Literal["zone", "mirror"],
    noun: str,
    by_name: bool,
    path: str,
    path_key: PathKey,
    tags: list[str],
    find: Callable[[Topology, str, bool], Grouped],
    shape: Callable[[Grouped], Shaped],
    response: type[Shaped],
) -> Playable[Grouped, Shaped]:
    """A zone or a mirror group as its by-name (``by_name``) or its by-id routes address
    it; ``find`` (``Topology.zone`` or ``Topology.mirror``) looks it up either way."""
    how = "byname" if by_name else "byid"
    return Playable(
        path,
        path_key,
        tags,
        what=f"{noun} {how}",
        prefix=f"{kind}-{how}",
        find=lambda host, key: find(host.topology, key, by_name),
        target=lambda host, obj: Target(kind, obj),
        shape=lambda host, obj: shape(obj),
        response=response,
    )


def read_route(
    p: Playable[Found, Shaped],
    summary: str,
    name: str,
    shape: Callable[[Host, Found], Read],
    response: type[Read],
) -> HTTPRouteHandler:
    """GET {path}: the resource as ``shape`` answers it."""

    @get(
        p.path,
        tags=p.tags,
        summary=summary,
        responses=errors(404),
        name=name,
        dependencies=keyed_by(p.path_key),
        signature_namespace={"Read": response},
    )
    async def read(host: Host, key: str) -> "Read":
        return shape(host, p.find(host, key))

    return read


def switch_route(
    p: Playable[Found, Shaped], what: str, missing_name: str, name: str
) -> HTTPRouteHandler:
    """PUT .../switch: the destination by query parameters or by body (version 1.3 style)."""

    @put(
        f"{p.path}/switch",
        tags=p.tags,
        summary=f"Switch {what} to a source",
        description=DESTINATION,
        # 409: a display on a video wall but in no zone plays nothing of its own
        responses=errors(404, 409),
        name=name,
        dependencies=keyed_by(p.path_key),
        signature_namespace={"Shaped": p.response},
    )
    async def switch(
        host: Host,
        key: str,
        destination_id: str | None = Parameter(
            query="destinationSourceId", default=None, required=False, description=DESTINATION
        ),
        destination_name: str | None = Parameter(
            query="destinationSourceName", default=None, required=False, description=DESTINATION
        ),
        welcome: bool = Parameter(query="isShowWelcomeScreen", default=False, required=False),
        data: SourceSelector | None = None,
    ) -> "Shaped":
        source_id = destination_id or (data.sourceId if data else "")
        source_name = destination_name or (data.sourceName if data else "")
        if not source_id and not source_name:
            raise Invalid(f"{missing_name} is required")
        target = p.resolve(host, key)
        source = host.sources.find(source_id or None, source_name or None)
        await host.playback.switch(target, source, welcome)
        return p.answer(host, key)

    return switch


def control_routes(
    p: Playable[Found, Shaped], with_stop: bool = False, not_found: str = ""
) -> list[HTTPRouteHandler]:
    """play, playVideoList, pause, resume, rewind, forward, seek, mediainfo (and stop)."""
    stop = [_stop_route(p)] if with_stop else []
    return [
        *_start_routes(p),
        *_pause_routes(p),
        *_position_routes(p),
        _mediainfo_route(p, not_found),
        *stop,
    ]


def _start_routes(p: Playable[Found, Shaped]) -> list[HTTPRouteHandler]:
    """play (the assigned source, or the one given) and playVideoList."""

    @p.operation("play", "Play the assigned source, or the given one")
    async def play(host: Host, key: str, data: SourceSelector | None = None) -> "Shaped":
        target = p.resolve(host, key)
        source = None
        if data is not None and (data.sourceId or data.sourceName):
            source = host.sources.find(data.sourceId or None, data.sourceName or None)
        await host.playback.play(target, source)
        return p.answer(host, key)

    @p.operation(
        "playVideoList",
        "Play a list of media files",
        description="Each file must be in the media library (a name does not climb out of "
        "it with '..') and be an image or a video: 400 otherwise.",
    )
    async def play_videolist(host: Host, key: str, data: VideoListBody) -> "Shaped":
        target = p.resolve(host, key)
        await host.playback.play_videolist(
            target, VideoList(data.videolist, data.queue, data.repeat, data.slideshowInterval)
        )
        return p.answer(host, key)

    return [play, play_videolist]


def _pause_routes(p: Playable[Found, Shaped]) -> list[HTTPRouteHandler]:
    @p.operation("pause", "Pause")
    async def pause(host: Host, key: str) -> "Shaped":
        await host.playback.pause(p.resolve(host, key))
        return p.answer(host, key)

    @p.operation("resume", "Resume")
    async def resume(host: Host, key: str) -> "Shaped":
        await host.playback.resume(p.resolve(host, key))
        return p.answer(host, key)

    return [pause, resume]


def _stop_route(p: Playable[Found, Shaped]) -> HTTPRouteHandler:
    @p.operation("stop", "Stop")
    async def stop(host: Host, key: str) -> "Shaped":
        await host.playback.stop(p.resolve(host, key))
        return p.answer(host, key)

    return stop


def _position_routes(p: Playable[Found, Shaped]) -> list[HTTPRouteHandler]:
    """rewind, forward and seek: each answers where the media now is."""

    @p.operation("rewind", "Rewind by time milliseconds")
    async def rewind(host: Host, key: str, data: TimeBody) -> MediaInfoBody:
        target = p.resolve(host, key)
        await host.playback.shift(target, -data.time)
        return media_info(host, target)

    @p.operation("forward", "Forward by time milliseconds")
    async def forward(host: Host, key: str, data: TimeBody) -> MediaInfoBody:
        target = p.resolve(host, key)
        await host.playback.shift(target, data.time)
        return media_info(host, target)

    @p.operation("seek", "Seek to time milliseconds")
    async def seek(host: Host, key: str, data: TimeBody) -> MediaInfoBody:
        target = p.resolve(host, key)
        await host.playback.seek(target, data.time)
        return media_info(host, target)

    return [rewind, forward, seek]


def _mediainfo_route(p: Playable[Found, Shaped], not_found: str) -> HTTPRouteHandler:
    """GET .../mediainfo; ``not_found`` rewords the refusal of an unknown key."""

    @get(
        f"{p.path}/mediainfo",
        tags=p.tags,
        summary=f"What plays and where ({p.what})",
        # 409: a display of a video wall in no zone of it plays nothing of its own
        responses={404: errors(404)[404], 409: errors(409)[409], 401: errors()[401]},
        name=f"{p.prefix}-mediainfo",
        dependencies=keyed_by(p.path_key),
    )
    async def mediainfo(host: Host, key: str) -> MediaInfoBody:
        if not not_found:
            return media_info(host, p.resolve(host, key))
        try:
            target = p.resolve(host, key)
        except Exception as exc:
            raise type(exc)(not_found.format(key=key)) from exc
        return media_info(host, target)

    return mediainfo
