"""Playback operations shared by displays, zones and mirror groups.

Each resource declares how a request names its target (by id or by name) and how its
answers are shaped; the operations themselves are written once here.
"""

from collections.abc import Callable
from typing import Annotated, TypeVar

import msgspec
from litestar import get, put
from litestar.handlers import HTTPRouteHandler
from litestar.params import Parameter

from tilewall.api.common import PathKey, errors, keyed_by
from tilewall.host.errors import Invalid
from tilewall.host.host import Host
from tilewall.host.playback.control import Target, VideoList

Resolve = Callable[[Host, str], Target]
#: the answer about the object the client named, looked up by its path key; the
#: handlers below are annotated ``-> "Shaped"`` and each route's ``signature_namespace``
#: names the resource's answer type, so the OpenAPI document shows the real schema
Shaped = TypeVar("Shaped")


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


def switch_route(
    path: str,
    path_key: PathKey,
    tags: list[str],
    what: str,
    resolve: Resolve,
    shape: Callable[[Host, str], Shaped],
    missing_name: str,
    response: type[Shaped],
    name: str,
) -> HTTPRouteHandler:
    """PUT .../switch: the destination by query parameters or by body (version 1.3 style)."""

    @put(
        f"{path}/switch",
        tags=tags,
        summary=f"Switch {what} to a source",
        description=DESTINATION,
        # 409: a display on a video wall but in no zone plays nothing of its own
        responses=errors(404, 409),
        name=name,
        dependencies=keyed_by(path_key),
        signature_namespace={"Shaped": response},
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
        target = resolve(host, key)
        source = host.sources.find(source_id or None, source_name or None)
        await host.playback.switch(target, source, welcome)
        return shape(host, key)

    return switch


def control_routes(
    path: str,
    path_key: PathKey,
    tags: list[str],
    what: str,
    resolve: Resolve,
    shape: Callable[[Host, str], Shaped],
    response: type[Shaped],
    prefix: str,
    with_stop: bool = False,
    not_found: str = "",
) -> list[HTTPRouteHandler]:
    """play, playVideoList, pause, resume, rewind, forward, seek, mediainfo (and stop)."""
    out: list[HTTPRouteHandler] = []

    def op(
        suffix: str,
        summary: str,
        extra_codes: tuple[int, ...] = (404, 409),
        description: str | None = None,
    ) -> HTTPRouteHandler:
        return put(
            f"{path}/{suffix}",
            tags=tags,
            summary=f"{summary} ({what})",
            description=description,
            responses=errors(*extra_codes),
            name=f"{prefix}-{suffix}",
            dependencies=keyed_by(path_key),
            signature_namespace={"Shaped": response},
        )

    @op("play", "Play the assigned source, or the given one")
    async def play(host: Host, key: str, data: SourceSelector | None = None) -> "Shaped":
        target = resolve(host, key)
        source = None
        if data is not None and (data.sourceId or data.sourceName):
            source = host.sources.find(data.sourceId or None, data.sourceName or None)
        await host.playback.play(target, source)
        return shape(host, key)

    @op(
        "playVideoList",
        "Play a list of media files",
        description="Each file must be in the media library (a name does not climb out of "
        "it with '..') and be an image or a video: 400 otherwise.",
    )
    async def play_videolist(host: Host, key: str, data: VideoListBody) -> "Shaped":
        target = resolve(host, key)
        await host.playback.play_videolist(
            target, VideoList(data.videolist, data.queue, data.repeat, data.slideshowInterval)
        )
        return shape(host, key)

    @op("pause", "Pause")
    async def pause(host: Host, key: str) -> "Shaped":
        target = resolve(host, key)
        await host.playback.pause(target)
        return shape(host, key)

    @op("resume", "Resume")
    async def resume(host: Host, key: str) -> "Shaped":
        target = resolve(host, key)
        await host.playback.resume(target)
        return shape(host, key)

    @op("rewind", "Rewind by time milliseconds")
    async def rewind(host: Host, key: str, data: TimeBody) -> MediaInfoBody:
        target = resolve(host, key)
        if data.time < 0:
            raise Invalid("time must not be negative")
        await host.playback.shift(target, -data.time)
        return media_info(host, target)

    @op("forward", "Forward by time milliseconds")
    async def forward(host: Host, key: str, data: TimeBody) -> MediaInfoBody:
        target = resolve(host, key)
        if data.time < 0:
            raise Invalid("time must not be negative")
        await host.playback.shift(target, data.time)
        return media_info(host, target)

    @op("seek", "Seek to time milliseconds")
    async def seek(host: Host, key: str, data: TimeBody) -> MediaInfoBody:
        target = resolve(host, key)
        await host.playback.seek(target, data.time)
        return media_info(host, target)

    @get(
        f"{path}/mediainfo",
        tags=tags,
        summary=f"What plays and where ({what})",
        # 409: a display of a video wall in no zone of it plays nothing of its own
        responses={404: errors(404)[404], 409: errors(409)[409], 401: errors()[401]},
        name=f"{prefix}-mediainfo",
        dependencies=keyed_by(path_key),
    )
    async def mediainfo(host: Host, key: str) -> MediaInfoBody:
        if not_found:
            try:
                target = resolve(host, key)
            except Exception as exc:
                raise type(exc)(not_found.format(key=key)) from exc
        else:
            target = resolve(host, key)
        return media_info(host, target)

    out += [play, play_videolist, pause, resume, rewind, forward, seek, mediainfo]

    if with_stop:

        @op("stop", "Stop")
        async def stop(host: Host, key: str) -> "Shaped":
            target = resolve(host, key)
            await host.playback.stop(target)
            return shape(host, key)

        out.append(stop)
    return out
