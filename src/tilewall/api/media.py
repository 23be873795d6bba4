"""The media library (a tilewall extension): list, upload, read, delete files."""

from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote

import msgspec
from litestar import Request, delete, get, put
from litestar.response import Stream

from tilewall.api.common import EXTENSION_TAG, Done, Extension, errors
from tilewall.host.content.media import MediaFile, from_url_path
from tilewall.host.host import Host
from tilewall.receivers.media import file_response

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
async def list_media(host: Host) -> MediaList:
    return MediaList([shape(f) for f in host.media.all()])


@put(
    "/media/{name:path}",
    tags=TAGS,
    summary="Upload a media file (the body is the file)",
    responses=errors(409, 413),
    operation_class=Extension,
    request_max_body_size=MAX_UPLOAD,
)
async def upload_media(host: Host, request: Request[Any, Any, Any], name: str) -> MediaFileBody:
    name = from_url_path(
        request.scope.get("raw_path") or request.scope["path"].encode(), "/api/media/"
    )

    async def chunks() -> AsyncIterator[bytes]:
        async for chunk in request.stream():
            yield chunk

    return shape(await host.media.save(name, chunks()))


@get(
    "/media/{name:path}",
    tags=TAGS,
    summary="Download a media file",
    responses=errors(404, 416),
    operation_class=Extension,
    media_type="application/octet-stream",
)
async def get_media(host: Host, request: Request[Any, Any, Any], name: str) -> Stream:
    """The file, or the byte range its ``Range`` header asks for (206), as ``/media/``."""
    name = from_url_path(
        request.scope.get("raw_path") or request.scope["path"].encode(), "/api/media/"
    )
    media = host.media
    canonical = media.require_file(name)
    filename = quote(canonical.rsplit("/", 1)[-1])
    return file_response(
        media.path(canonical),
        request.headers.get("range", ""),
        {"Content-Disposition": f"inline; filename*=UTF-8''{filename}"},
    )


@delete(
    "/media/{name:path}",
    status_code=200,
    tags=TAGS,
    summary="Delete a media file",
    responses=errors(404),
    operation_class=Extension,
)
async def delete_media(host: Host, request: Request[Any, Any, Any], name: str) -> Done:
    name = from_url_path(
        request.scope.get("raw_path") or request.scope["path"].encode(), "/api/media/"
    )
    media = host.media
    media.delete(name)
    return Done(f"media file {name.lstrip('/')!r} deleted")


ROUTES = [list_media, upload_media, get_media, delete_media]
