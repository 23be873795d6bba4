"""Playback operations shared by displays, zones and mirror groups.

Each resource declares how a request names its target (by id or by name) and how its
answers are shaped; the operations themselves are written once here.
"""

from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from litestar import Request, get, put
from litestar.handlers import HTTPRouteHandler
from litestar.params import Parameter

from tilewall.api.common import errors, host_of
from tilewall.host.errors import Invalid
from tilewall.host.host import Host
from tilewall.host.playback.control import Target, VideoList

Resolve = Callable[[Host, str], Target]
#: the answer about the object the client named, looked up by its path key
Shape = Callable[[Host, str], Any]


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
    param: str,
    tags: list[str],
    what: str,
    resolve: Resolve,
    shape: Shape,
    missing_name: str,
    response: type,
    name: str,
) -> Any:
    """PUT .../switch: the destination by query parameters or by body (version 1.3 style)."""

    @put(
        f"{path}/switch",
        tags=tags,
        summary=f"Switch {what} to a source",
        responses=errors(404),
        name=name,
    )
    async def switch(
        request: Request,  # type: ignore[type-arg]
        destination_id: str | None = Parameter(
            query="destinationSourceId", default=None, required=False, description=DESTINATION
        ),
        destination_name: str | None = Parameter(
            query="destinationSourceName", default=None, required=False, description=DESTINATION
        ),
        welcome: bool = Parameter(query="isShowWelcomeScreen", default=False, required=False),
        data: SourceSelector | None = None,
    ) -> Any:
        host = host_of(request.app.state)
        source_id = destination_id or (data.sourceId if data else "")
        source_name = destination_name or (data.sourceName if data else "")
        if not source_id and not source_name:
            raise Invalid(f"{missing_name} is required")
        target = resolve(host, request.path_params[param])
        source = host.sources.find(source_id or None, source_name or None)
        await host.playback.switch(target, source, welcome)
        return shape(host, request.path_params[param])

    switch.fn.__annotations__["return"] = response
    return switch


def control_routes(
    path: str,
    param: str,
    tags: list[str],
    what: str,
    resolve: Resolve,
    shape: Shape,
    response: type,
    prefix: str,
    with_stop: bool = False,
    not_found: str = "",
) -> list[Any]:
    """play, playVideoList, pause, resume, rewind, forward, seek, mediainfo (and stop)."""
    out: list[Any] = []

    def op(
        suffix: str, summary: str, extra_codes: tuple[int, ...] = (404, 409)
    ) -> HTTPRouteHandler:
        return put(
            f"{path}/{suffix}",
            tags=tags,
            summary=f"{summary} ({what})",
            responses=errors(*extra_codes),
            name=f"{prefix}-{suffix}",
        )

    @op("play", "Play the assigned source, or the given one")
    async def play(request: Request, data: SourceSelector | None = None) -> Any:  # type: ignore[type-arg]
        host = host_of(request.app.state)
        target = resolve(host, request.path_params[param])
        source = None
        if data is not None and (data.sourceId or data.sourceName):
            source = host.sources.find(data.sourceId or None, data.sourceName or None)
        await host.playback.play(target, source)
        return shape(host, request.path_params[param])

    @op("playVideoList", "Play a list of media files")
    async def play_videolist(request: Request, data: VideoListBody) -> Any:  # type: ignore[type-arg]
        host = host_of(request.app.state)
        target = resolve(host, request.path_params[param])
        await host.playback.play_videolist(
            target, VideoList(data.videolist, data.queue, data.repeat, data.slideshowInterval)
        )
        return shape(host, request.path_params[param])

    @op("pause", "Pause")
    async def pause(request: Request) -> Any:  # type: ignore[type-arg]
        host = host_of(request.app.state)
        target = resolve(host, request.path_params[param])
        await host.playback.pause(target)
        return shape(host, request.path_params[param])

    @op("resume", "Resume")
    async def resume(request: Request) -> Any:  # type: ignore[type-arg]
        host = host_of(request.app.state)
        target = resolve(host, request.path_params[param])
        await host.playback.resume(target)
        return shape(host, request.path_params[param])

    @op("rewind", "Rewind by time milliseconds")
    async def rewind(request: Request, data: TimeBody) -> Any:  # type: ignore[type-arg]
        host = host_of(request.app.state)
        target = resolve(host, request.path_params[param])
        if data.time < 0:
            raise Invalid("time must not be negative")
        await host.playback.shift(target, -data.time)
        return media_info(host, target)

    @op("forward", "Forward by time milliseconds")
    async def forward(request: Request, data: TimeBody) -> Any:  # type: ignore[type-arg]
        host = host_of(request.app.state)
        target = resolve(host, request.path_params[param])
        if data.time < 0:
            raise Invalid("time must not be negative")
        await host.playback.shift(target, data.time)
        return media_info(host, target)

    @op("seek", "Seek to time milliseconds")
    async def seek(request: Request, data: TimeBody) -> Any:  # type: ignore[type-arg]
        host = host_of(request.app.state)
        target = resolve(host, request.path_params[param])
        await host.playback.seek(target, data.time)
        return media_info(host, target)

    @get(
        f"{path}/mediainfo",
        tags=tags,
        summary=f"What plays and where ({what})",
        responses={404: errors(404)[404], 401: errors()[401]},
        name=f"{prefix}-mediainfo",
    )
    async def mediainfo(request: Request) -> MediaInfoBody:  # type: ignore[type-arg]
        host = host_of(request.app.state)
        if not_found:
            try:
                target = resolve(host, request.path_params[param])
            except Exception as exc:
                raise type(exc)(not_found.format(key=request.path_params[param])) from exc
        else:
            target = resolve(host, request.path_params[param])
        return media_info(host, target)

    for handler in (play, play_videolist, pause, resume):
        handler.fn.__annotations__["return"] = response
    for handler in (rewind, forward, seek):
        handler.fn.__annotations__["return"] = MediaInfoBody
    out += [play, play_videolist, pause, resume, rewind, forward, seek, mediainfo]

    if with_stop:

        @op("stop", "Stop")
        async def stop(request: Request) -> Any:  # type: ignore[type-arg]
            host = host_of(request.app.state)
            target = resolve(host, request.path_params[param])
            await host.playback.stop(target)
            return shape(host, request.path_params[param])

        stop.fn.__annotations__["return"] = response
        out.append(stop)
    return out
