"""The media library: files under ``DATA_DIR/media`` that sources and video lists name.

Names are relative POSIX paths inside the library; anything that resolves outside it
is refused. The files are the :class:`~tilewall.host.ports.MediaFiles` port's; the
durations it probes are cached by modification time.
"""

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from tilewall.host.errors import Conflict, Invalid, NotFound
from tilewall.host.ports import MediaFiles, StoredFile

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
    """The library's rules (names, kinds, what may be overwritten) over its files."""

    def __init__(self, files: MediaFiles) -> None:
        self._files = files
        #: probed durations by name, with the modification time they were probed at
        self._durations: dict[str, tuple[int, int | None]] = {}

    @property
    def root(self) -> Path:
        return self._files.root

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

    def _outside(self, name: str) -> Invalid:
        return Invalid(f"media file name {name!r} is outside the media library")

    def _confined(self, name: str) -> str:
        canonical = self.normalise(name)
        if self._files.locate(canonical) is None:
            raise self._outside(name)
        return canonical

    def _stat(self, name: str, canonical: str) -> StoredFile | None:
        # a name found nowhere is looked at again only to say why (outside, or missing)
        stored = self._files.stat(canonical)
        if stored is None and self._files.locate(canonical) is None:
            raise self._outside(name)
        return stored

    def path(self, name: str) -> Path:
        path = self._files.locate(self.normalise(name))
        if path is None:
            raise self._outside(name)
        return path

    def exists(self, name: str) -> bool:
        return self._stat(name, self.normalise(name)) is not None

    def is_dir(self, name: str) -> bool:
        if self._files.is_folder(self.normalise(name)):
            return True
        self._confined(name)  # a name outside the library is refused, not merely absent
        return False

    def _require(self, name: str) -> tuple[str, StoredFile]:
        canonical = self.normalise(name)
        stored = self._stat(name, canonical)
        if stored is None:
            raise NotFound(f"media file {name!r} not found in the media library")
        if kind_of(canonical) is None:
            raise Invalid(f"media file {name!r} is neither an image nor a video")
        return canonical, stored

    def require_file(self, name: str) -> str:
        return self._require(name)[0]

    def files_in(self, name: str) -> list[str]:
        """Media files under directory ``name`` (recursively), in name order."""
        folder = self.normalise(name) if name.strip() else ""
        if not self._files.is_folder(folder):
            if folder:
                self._confined(name)  # outside the library: refused, not merely absent
            raise NotFound(f"media directory {name!r} not found in the media library")
        return sorted(n for n in self._files.names_under(folder) if kind_of(n) is not None)

    def duration_ms(self, name: str) -> int | None:
        """The probed duration of a video, None for an image or a file that won't probe."""
        if kind_of(name) != "video":
            return None
        stored = self._stat(name, self.normalise(name))
        return None if stored is None else self._duration(name, stored)

    def _duration(self, name: str, stored: StoredFile) -> int | None:
        if kind_of(name) != "video":
            return None
        cached = self._durations.get(name)
        if cached and cached[0] == stored.modified_ns:
            return cached[1]
        seconds = self._files.duration_s(name)
        duration = round(seconds * 1000) if seconds else None
        self._durations[name] = (stored.modified_ns, duration)
        return duration

    def describe(self, name: str) -> MediaFile:
        canonical, stored = self._require(name)
        return MediaFile(
            name=canonical,
            size=stored.size,
            kind=kind_of(canonical) or "video",
            duration_ms=self._duration(canonical, stored),
            modified_ms=stored.modified_ns // 1_000_000,
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
        canonical = self._confined(canonical)
        if self._files.is_folder(canonical):
            raise Conflict(f"{name!r} is a directory")
        if self._files.stat(canonical) is not None and not overwrite:
            raise Conflict(f"media file {name!r} already exists")
        await self._files.save(canonical, chunks)
        self._durations.pop(canonical, None)
        return self.describe(canonical)

    def delete(self, name: str) -> None:
        canonical = self._confined(name)
        if not self._files.delete(canonical):
            raise NotFound(f"media file {name!r} not found in the media library")
        self._durations.pop(canonical, None)
