"""The OpenAPI document as served at ``/api/openapi.json``: encoded once per app, and
kept on disk between starts.

Building the document from the routes and encoding it takes a good part of a second,
and it is what a client asks first (the benchmark's start-up figure is the time to its
first answer). The served app (``tilewall.server.make_app``) keeps the encoded document
as ``openapi-<fingerprint>.json`` in the first of its cache folders (:func:`cache_dirs`)
it can write, where the fingerprint names what the document is made from: this
tilewall's version and source files (path, size, time), Python's, Litestar's and
msgspec's versions. A start that finds the file of its fingerprint in one of them serves
it; any other builds the document on the first request and writes the file (removing
those of other fingerprints). Apps without cache folders (tests) build it on first
request. The fingerprint is taken and the kept file read in a thread started with the
app (:class:`Kept`), while the rest of the server starts.
"""

import contextlib
import hashlib
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import litestar
import msgspec
from litestar import Litestar, Request, Response, get

import tilewall

log = logging.getLogger(__name__)

#: ``app.state`` keys: the document kept between starts (:class:`Kept`), the encoded one
KEPT = "openapi_kept"
ENCODED = "openapi_encoded"
PREFIX = "openapi-"


def cache_dirs(data_dir: Path, env: Mapping[str, str] = os.environ) -> list[Path]:
    """Where a host keeps the document, in order: systemd's ``CacheDirectory``
    (``$CACHE_DIRECTORY``), the user's cache (``$XDG_CACHE_HOME`` or ``~/.cache``, in
    ``tilewall/``; shared by the hosts of one user, whatever their data directory), and
    ``DATA_DIR/cache``."""
    found: list[Path] = []
    if env.get("CACHE_DIRECTORY"):
        found.append(Path(env["CACHE_DIRECTORY"].split(":")[0]))
    if env.get("XDG_CACHE_HOME"):
        found.append(Path(env["XDG_CACHE_HOME"]) / "tilewall")
    elif env.get("HOME"):
        found.append(Path(env["HOME"]) / ".cache" / "tilewall")
    found.append(data_dir / "cache")
    return found


def fingerprint() -> str:
    """What the document is made of, summed up: versions and the package's sources."""
    digest = hashlib.sha256()
    versions = (tilewall.__version__, sys.version, litestar.__version__, msgspec.__version__)
    digest.update(repr(versions).encode())
    root = Path(tilewall.__file__).parent
    for path in sorted(root.rglob("*.py")):
        with contextlib.suppress(OSError):
            stat = path.stat()
            line = f"{path.relative_to(root)} {stat.st_size} {stat.st_mtime_ns}\n"
            digest.update(line.encode())
    return digest.hexdigest()[:32]


def _build(app: Litestar) -> bytes:
    return msgspec.json.encode(app.openapi_schema.to_schema())


def _read(folders: Sequence[Path], name: str) -> bytes | None:
    for folder in folders:
        with contextlib.suppress(OSError):
            return (folder / name).read_bytes()
    return None


def _write(folders: Sequence[Path], name: str, body: bytes) -> None:
    """Write the document atomically in the first folder that takes it; remove the
    documents of other fingerprints there."""
    for folder in folders:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".openapi-")
            with os.fdopen(fd, "wb") as out:
                out.write(body)
            os.replace(tmp, folder / name)
        except OSError as error:
            log.debug("could not keep the OpenAPI document in %s: %s", folder, error)
            continue
        for old in folder.glob(PREFIX + "*.json"):
            if old.name != name:
                with contextlib.suppress(OSError):
                    old.unlink()
        return


class Kept:
    """The document kept in ``folders`` for this code, looked for in a thread of its own
    from the moment it is made."""

    def __init__(self, folders: Sequence[Path]) -> None:
        self.folders = list(folders)
        self.name = ""
        self.body: bytes | None = None
        self._thread = threading.Thread(target=self._look, name="tilewall-openapi", daemon=True)
        self._thread.start()

    def _look(self) -> None:
        try:
            self.name = f"{PREFIX}{fingerprint()}.json"
            self.body = _read(self.folders, self.name)
        except Exception:  # the document is built instead
            log.exception("could not look for the kept OpenAPI document")

    def result(self) -> tuple[str, bytes | None]:
        """The file name for this code ("" when unknown) and its bytes, if kept."""
        self._thread.join()
        return self.name, self.body


def document(app: Litestar) -> bytes:
    """The encoded OpenAPI document of ``app``, built (or read) once."""
    encoded: bytes | None = app.state.get(ENCODED)
    if encoded is not None:
        return encoded
    kept: Kept | None = app.state.get(KEPT)
    name, encoded = kept.result() if kept is not None else ("", None)
    if encoded is None:
        encoded = _build(app)
        if kept is not None and name:
            _write(kept.folders, name, encoded)
    app.state[ENCODED] = encoded
    return encoded


@get("/openapi.json", include_in_schema=False, opt={"public": True}, name="openapi-json")
async def openapi_document(request: Request[Any, Any, Any]) -> Response[bytes]:
    """The OpenAPI document at /api/openapi.json (the docs page is /api/docs)."""
    return Response(document(request.app), media_type="application/json")


ROUTES = [openapi_document]
