"""The media library (a tilewall extension): list, upload, read, delete files."""

from collections.abc import AsyncIterator

import msgspec
from litestar import Request, delete, get, put
from litestar.response import File

from tilewall.api.common import EXTENSION_TAG, FILE_HEADERS, Done, Extension, errors, host_of
from tilewall.host.content.media import MediaFile, from_url_path

TAGS = [EXTENSION_TAG, "Media"]
MAX_UPLOAD = 2 * 1024 * 1024 * 1024


class MediaFileBody(msgspec.Struct):
    name: str
    size: int
    kind: str
    durationInMilliseconds: int | None
    modified: int


class MediaList(msgspec.Struct):
    files: list[MediaFileBody]


def shape(f: MediaFile) -> MediaFileBody:
    return MediaFileBody(f.name, f.size, f.kind, f.duration_ms, f.modified_ms)


@get(
    "/media",
    tags=TAGS,
    summary="List the media library",
    responses=errors(),
    operation_class=Extension,
)
async def list_media(request: Request) -> MediaList:  # type: ignore[type-arg]
    return MediaList([shape(f) for f in host_of(request.app.state).media.all()])


@put(
    "/media/{name:path}",
    tags=TAGS,
    summary="Upload a media file (the body is the file)",
    responses=errors(409, 413),
    operation_class=Extension,
    request_max_body_size=MAX_UPLOAD,
)
async def upload_media(request: Request, name: str) -> MediaFileBody:  # type: ignore[type-arg]
    name = from_url_path(
        request.scope.get("raw_path") or request.scope["path"].encode(), "/api/media/"
    )

    async def chunks() -> AsyncIterator[bytes]:
        async for chunk in request.stream():
            yield chunk

    return shape(await host_of(request.app.state).media.save(name, chunks()))


@get(
    "/media/{name:path}",
    tags=TAGS,
    summary="Download a media file",
    responses=errors(404),
    operation_class=Extension,
    media_type="application/octet-stream",
    response_headers=FILE_HEADERS,
)
async def get_media(request: Request, name: str) -> File:  # type: ignore[type-arg]
    name = from_url_path(
        request.scope.get("raw_path") or request.scope["path"].encode(), "/api/media/"
    )
    media = host_of(request.app.state).media
    canonical = media.require_file(name)
    return File(
        media.path(canonical),
        filename=canonical.rsplit("/", 1)[-1],
        content_disposition_type="inline",
    )


@delete(
    "/media/{name:path}",
    status_code=200,
    tags=TAGS,
    summary="Delete a media file",
    responses=errors(404),
    operation_class=Extension,
)
async def delete_media(request: Request, name: str) -> Done:  # type: ignore[type-arg]
    name = from_url_path(
        request.scope.get("raw_path") or request.scope["path"].encode(), "/api/media/"
    )
    media = host_of(request.app.state).media
    media.delete(name)
    return Done(f"media file {name.lstrip('/')!r} deleted")


ROUTES = [list_media, upload_media, get_media, delete_media]
