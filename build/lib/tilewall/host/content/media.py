"""The media library: files under ``DATA_DIR/media`` that sources and video lists name.

Names are relative POSIX paths inside the library; anything that resolves outside it
is refused. Durations are probed from the files themselves and cached by mtime.
"""

import os
import re
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

import mutagen

from tilewall.host.errors import Conflict, Invalid, NotFound

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".svg"})
VIDEO_SUFFIXES = frozenset({".mp4", ".m4v", ".webm", ".mkv", ".mov", ".ogv", ".ogg"})
MEDIA_SUFFIXES = IMAGE_SUFFIXES | VIDEO_SUFFIXES
_BAD_NAME = re.compile(r"[\x00-\x1f\\]")


@dataclass(frozen=True, slots=True)
class MediaFile:
    name: str
    size: int
    kind: str  # "image" or "video"
    duration_ms: int | None
    modified_ms: int


def from_url_path(raw_path: bytes, prefix: str) -> str:
    """The library name in a request's raw path after ``prefix`` (e.g. "/media/"),
    percent-decoded; read raw so "//etc/x" and "%2Fetc" stay absolute (and refused)."""
    text = raw_path.decode("latin-1")
    tail = text[len(prefix) :] if text.startswith(prefix) else text
    try:
        return unquote(tail, errors="strict")
    except UnicodeDecodeError:
        raise Invalid("media file names are UTF-8") from None


def kind_of(name: str) -> str | None:
    suffix = PurePosixPath(name).suffix.lower()
    if suffix in IMAGE_SUFFIXES:
        return "image"
    if suffix in VIDEO_SUFFIXES:
        return "video"
    return None


class MediaLibrary:
    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.root = root.resolve()
        self._durations: dict[str, tuple[float, int | None]] = {}

    def normalise(self, name: str) -> str:
        """The canonical library name of ``name``, refusing anything outside the library."""
        if not isinstance(name, str) or not name.strip() or _BAD_NAME.search(name):
            raise Invalid(f"invalid media file name {name!r}")
        if name.startswith("/"):
            raise Invalid(f"media file name {name!r} must be relative to the media library")
        parts = [p for p in PurePosixPath(name.strip()).parts if p not in ("", ".")]
        if not parts or any(p == ".." for p in parts):
            raise Invalid(f"media file name {name!r} is outside the media library")
        return "/".join(parts)

    def path(self, name: str) -> Path:
        relative = self.normalise(name)
        path = (self.root / relative).resolve()
        if path != self.root and self.root not in path.parents:
            raise Invalid(f"media file name {name!r} is outside the media library")
        return path

    def exists(self, name: str) -> bool:
        return self.path(name).is_file()

    def is_dir(self, name: str) -> bool:
        return self.path(name).is_dir()

    def require_file(self, name: str) -> str:
        canonical = self.normalise(name)
        path = self.path(canonical)
        if not path.is_file():
            raise NotFound(f"media file {name!r} not found in the media library")
        if kind_of(canonical) is None:
            raise Invalid(f"media file {name!r} is neither an image nor a video")
        return canonical

    def files_in(self, name: str) -> list[str]:
        """Media files under directory ``name`` (recursively), in name order."""
        base = self.path(name) if name.strip() else self.root
        if not base.is_dir():
            raise NotFound(f"media directory {name!r} not found in the media library")
        out = []
        for dirpath, _dirs, files in os.walk(base):
            for file in files:
                rel = (Path(dirpath) / file).relative_to(self.root).as_posix()
                if kind_of(rel) is not None:
                    out.append(rel)
        return sorted(out)

    def duration_ms(self, name: str) -> int | None:
        """The probed duration of a video, None for an image or a file that won't probe."""
        if kind_of(name) != "video":
            return None
        path = self.path(name)
        try:
            mtime = path.stat().st_mtime
        except OSError:
            return None
        cached = self._durations.get(name)
        if cached and cached[0] == mtime:
            return cached[1]
        duration: int | None = None
        try:
            info = mutagen.File(path)
            if info is not None and info.info is not None and info.info.length:
                duration = round(float(info.info.length) * 1000)
        except Exception:
            duration = None
        self._durations[name] = (mtime, duration)
        return duration

    def describe(self, name: str) -> MediaFile:
        canonical = self.require_file(name)
        stat = self.path(canonical).stat()
        return MediaFile(
            name=canonical,
            size=stat.st_size,
            kind=kind_of(canonical) or "video",
            duration_ms=self.duration_ms(canonical),
            modified_ms=int(stat.st_mtime * 1000),
        )

    def all(self) -> list[MediaFile]:
        return [self.describe(name) for name in self.files_in("")]

    async def save(
        self, name: str, chunks: AsyncIterator[bytes], overwrite: bool = True
    ) -> MediaFile:
        canonical = self.normalise(name)
        if kind_of(canonical) is None:
            raise Invalid(
                f"media file {name!r} must end in one of {', '.join(sorted(MEDIA_SUFFIXES))}"
            )
        target = self.path(canonical)
        if target.is_dir():
            raise Conflict(f"{name!r} is a directory")
        if target.exists() and not overwrite:
            raise Conflict(f"media file {name!r} already exists")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.partial")
        try:
            with partial.open("wb") as out:
                async for chunk in chunks:
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            partial.replace(target)
        finally:
            partial.unlink(missing_ok=True)
        self._durations.pop(canonical, None)
        return self.describe(canonical)

    def delete(self, name: str) -> None:
        path = self.path(name)
        if path.is_file():
            path.unlink()
        elif path.is_dir() and path != self.root:
            shutil.rmtree(path)
        else:
            raise NotFound(f"media file {name!r} not found in the media library")
        self._durations.pop(self.normalise(name), None)
