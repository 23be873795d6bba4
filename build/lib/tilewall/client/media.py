"""The media library (a tilewall extension): list, upload, download, delete files.
Names are paths inside the library, such as ``slides/red.png``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from tilewall.client.base import Items, Json, Resource

CHUNK = 1024 * 1024


def _path(name: str) -> str:
    """The library path of ``name``, each segment encoded; '.' and '..' too, so that
    they reach the host (which refuses them) instead of being resolved on the way."""
    parts = [
        quote(p, safe="").replace(".", "%2E") if p in (".", "..") else quote(p, safe="")
        for p in name.lstrip("/").split("/")
    ]
    return "/media/" + "/".join(parts)


def _chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as f:
        while chunk := f.read(CHUNK):
            yield chunk


class Media(Resource):
    def list(self) -> Items:
        """Every file: name, size, kind, duration (videos) and modification time."""
        return self._t.array("GET", "/media", "files")

    def upload(self, name: str, data: bytes | Path) -> Json:
        """Store ``data`` (bytes, or a file streamed from disk) under ``name``."""
        content = data if isinstance(data, bytes) else _chunks(Path(data))
        return self._t.json(
            "PUT",
            _path(name),
            content=content,
            headers={"Content-Type": "application/octet-stream"},
        )

    def download(self, name: str) -> bytes:
        return self._t.raw("GET", _path(name))

    def delete(self, name: str) -> Json:
        return self._t.json("DELETE", _path(name))
