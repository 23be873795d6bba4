"""The media library (a tilewall extension): list, upload, read, delete files."""

import mimetypes
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import msgspec
from litestar import Request, delete, get, put
from litestar.response import Stream

from tilewall.api.common import FILE_HEADERS, Done, Extension, extension
from tilewall.api.resources.playback import MEDIA_NAME
from tilewall.host.content.media import MEDIA_SUFFIXES, MediaFile, from_url_path
from tilewall.host.host import Host
from tilewall.receivers.media import file_response

TAGS = ["Media"]
MAX_UPLOAD = 2 * 1024 * 1024 * 1024

_START = r"^(?:[^/\s\x00-\x1f\\]|[^\S\x00-\x1f]+[^\s\x00-\x1f\\])"
_SUFFIX = "|".join(
    "".join(f"[{c.upper()}{c}]" if c.isalpha() else c for c in suffix[1:])
    for suffix in sorted(MEDIA_SUFFIXES)
)
#: an upload's name: a media library path ending in an image or video suffix (any case)
UPLOAD_NAME = {
    **MEDIA_NAME,
    "pattern": _START
    + r"(?:[^\x00-\x1f\\]*[^/\x00-\x1f\\])?\.(?:"
    + _SUFFIX
    + r")[^\S\x00-\x1f]*$",
    "description": str(MEDIA_NAME["description"])
    + f" It ends in one of {', '.join(sorted(MEDIA_SUFFIXES))} (any case).",
}


#: what a download is sent as: the file's own type, as its suffix says
DOWNLOAD_TYPES = sorted(
    {
        mimetypes.guess_type("file" + suffix)[0] or "application/octet-stream"
        for suffix in MEDIA_SUFFIXES
    }
    | {"application/octet-stream"}
)


def _named(name_schema: dict[str, Any], downloads: bool = False) -> type[Extension]:
    """An extension operation whose path parameter ``name`` has ``name_schema``; with
    ``downloads``, its answer is documented in every media type a file is sent as."""

    @dataclass
    class NamedMedia(Extension):
        def to_schema(self) -> dict[str, Any]:
            schema = super().to_schema()
            for parameter in schema.get("parameters", []):
                if parameter.get("in") == "path" and parameter.get("name") == "name":
                    parameter["schema"] = dict(name_schema)
            answer = schema.get("responses", {}).get("200")
            if downloads and answer and answer.get("content"):
                body = next(iter(answer["content"].values()))
                answer["content"] = {kind: dict(body) for kind in DOWNLOAD_TYPES}
            return schema

    return NamedMedia


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


@extension(get, "/media", TAGS, "List the media library")
async def list_media(host: Host) -> MediaList:
    return MediaList([shape(f) for f in host.media.all()])


@extension(
    put,
    "/media/{name:path}",
    TAGS,
    "Upload a media file (the body is the file)",
    409,
    413,
    operation_class=_named(UPLOAD_NAME),
    description="A media name stays in the library (no '..' segments): 400 otherwise.",
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


@extension(
    get,
    "/media/{name:path}",
    TAGS,
    "Download a media file",
    404,
    416,
    operation_class=_named(MEDIA_NAME, downloads=True),
    description="A media name stays in the library (no '..' segments): 400 otherwise.",
    media_type="application/octet-stream",
    response_headers=FILE_HEADERS,
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


@extension(
    delete,
    "/media/{name:path}",
    TAGS,
    "Delete a media file",
    404,
    operation_class=_named(MEDIA_NAME),
    description="A media name stays in the library (no '..' segments): 400 otherwise.",
)
async def delete_media(host: Host, request: Request[Any, Any, Any], name: str) -> Done:
    name = from_url_path(
        request.scope.get("raw_path") or request.scope["path"].encode(), "/api/media/"
    )
    media = host.media
    media.delete(name)
    return Done(f"media file {name.lstrip('/')!r} deleted")


ROUTES = [list_media, upload_media, get_media, delete_media]
