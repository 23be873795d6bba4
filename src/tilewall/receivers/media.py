"""Media files for receivers at /media/<name>, with byte ranges so videos can seek, and
an ETag (size and modification time) so that a receiver's kept copy is checked with a
conditional request (``If-None-Match``, answered 304) rather than fetched again.

Receivers hold no session: the app lets a request through with a session or with the
key of a locked station (the ``tilewall_key_*`` cookie the receiver page sets; see
``tilewall.api.auth.require_media_access``); every name is confined to the media library. Every file is sent with
``X-Content-Type-Options: nosniff`` (a browser takes its type from its name, never from
its bytes), and a file a browser could run as a document (SVG, and anything that is not
a raster image, a video or audio) with ``Content-Security-Policy: sandbox``: opened
directly it runs no script and reaches no session."""

from __future__ import annotations

import mimetypes
import re
from collections.abc import AsyncIterator, Iterable
from email.utils import formatdate
from pathlib import Path
from typing import Any

from litestar import Litestar, MediaType, Request, Response, get
from litestar.background_tasks import BackgroundTask, BackgroundTasks
from litestar.datastructures import Cookie
from litestar.exceptions import HTTPException
from litestar.response import Stream
from litestar.response.base import ASGIResponse
from litestar.types import TypeEncodersMap

from tilewall.host.content.media import from_url_path
from tilewall.host.errors import HostError
from tilewall.host.host import Host

CHUNK = 256 * 1024
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


def _byte_range(header: str, size: int) -> tuple[int, int] | None:
    """The inclusive (start, end) of a single-range header; None to send everything."""
    match = _RANGE.match(header.strip())
    if not match:
        return None
    first, last = match.groups()
    if first == "" and last == "":
        return None
    if first == "":
        start, end = max(size - int(last), 0), size - 1
    else:
        start = int(first)
        end = min(int(last), size - 1) if last else size - 1
    if start >= size or start > end:
        raise HTTPException(
            status_code=416,
            detail="range not satisfiable",
            headers={"Content-Range": f"bytes */{size}"},
        )
    return start, end


async def _read(path: Path, start: int, length: int) -> AsyncIterator[bytes]:
    with path.open("rb") as file:
        file.seek(start)
        while length > 0:
            chunk = file.read(min(CHUNK, length))
            if not chunk:
                break
            length -= len(chunk)
            yield chunk


_PASSIVE = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "video/", "audio/")


def media_headers(kind: str) -> dict[str, str]:
    """The safety headers of a file of MIME type ``kind``."""
    headers = {"X-Content-Type-Options": "nosniff"}
    if not kind.startswith(_PASSIVE):
        headers["Content-Security-Policy"] = "sandbox"
    return headers


class MediaStream(Stream):
    """A stream whose own media type wins over its route's (Litestar lets the route's win
    for streams, and a download route documents ``application/octet-stream``)."""

    def to_asgi_response(
        self,
        app: Litestar | None,
        request: Request[Any, Any, Any],
        *,
        background: BackgroundTask | BackgroundTasks | None = None,
        cookies: Iterable[Cookie] | None = None,
        encoded_headers: Iterable[tuple[bytes, bytes]] | None = None,
        headers: dict[str, str] | None = None,
        is_head_response: bool = False,
        media_type: MediaType | str | None = None,
        status_code: int | None = None,
        type_encoders: TypeEncodersMap | None = None,
    ) -> ASGIResponse:
        return super().to_asgi_response(
            app,
            request,
            background=background,
            cookies=cookies,
            encoded_headers=encoded_headers,
            headers=headers,
            is_head_response=is_head_response,
            media_type=self.media_type or media_type,
            status_code=status_code,
            type_encoders=type_encoders,
        )


def file_response(
    path: Path,
    range_header: str,
    headers: dict[str, str] | None = None,
    media_type: str | None = None,
) -> MediaStream:
    """``path`` whole, or the single byte range ``range_header`` asks for (206; 416 when
        it lies past the end), with :func:`media_headers`; sent as ``media_type`` if given,
    else as the type its name says."""
    stat = path.stat()
    size = stat.st_size
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    sent_as = media_type or kind
    headers = {
        "Accept-Ranges": "bytes",
        "Last-Modified": formatdate(stat.st_mtime, usegmt=True),
        **(headers or {}),
        **media_headers(kind),
    }
    wanted = _byte_range(range_header, size)
    if wanted is None:
        return MediaStream(
            _read(path, 0, size),
            media_type=sent_as,
            headers={**headers, "Content-Length": str(size)},
        )
    start, end = wanted
    return MediaStream(
        _read(path, start, end - start + 1),
        status_code=206,
        media_type=sent_as,
        headers={
            **headers,
            "Content-Range": f"bytes {start}-{end}/{size}",
            "Content-Length": str(end - start + 1),
        },
    )


@get("/media/{name:path}", include_in_schema=False, name="receiver-media")
async def media_file(
    request: Request[Any, Any, Any], host: Host, name: str
) -> Stream | Response[bytes]:
    name = from_url_path(request.scope.get("raw_path") or request.scope["path"].encode(), "/media/")
    library = host.media
    try:
        path = library.path(library.require_file(name))
    except HostError as exc:
        raise HTTPException(status_code=404, detail=str(exc)) from exc
    stat = path.stat()
    headers = {
        "Cache-Control": "public, max-age=60",
        "ETag": f'"{stat.st_size:x}-{stat.st_mtime_ns:x}"',
    }
    if headers["ETag"] in {
        tag.strip() for tag in request.headers.get("if-none-match", "").split(",")
    }:
        return Response(b"", status_code=304, headers=headers)
    return file_response(path, request.headers.get("range", ""), headers)
