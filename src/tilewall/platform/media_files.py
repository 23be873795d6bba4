"""The media library's files in a folder of the machine (``DATA_DIR/media`` by default)."""

import os
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from stat import S_ISREG

import mutagen

from tilewall.host.errors import Invalid
from tilewall.host.ports import StoredFile

#: an upload in progress is kept under this name beside its target (a backup leaves it out)
PARTIAL_SUFFIX = ".partial"


class FolderMediaFiles:
    """Media files under ``root`` (made if missing); names are relative POSIX paths."""

    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self._root = root.resolve()

    @property
    def root(self) -> Path:
        return self._root

    def locate(self, name: str) -> Path | None:
        path = (self._root / name).resolve()
        if path != self._root and self._root not in path.parents:
            return None
        return path

    def stat(self, name: str) -> StoredFile | None:
        path = self.locate(name)
        try:
            stat = path.stat() if path is not None else None
        except OSError:
            return None
        if stat is None or not S_ISREG(stat.st_mode):
            return None
        return StoredFile(stat.st_size, stat.st_mtime_ns)

    def is_folder(self, name: str) -> bool:
        path = self.locate(name)
        return path is not None and path.is_dir()

    def names_under(self, folder: str) -> list[str]:
        base = self.locate(folder)
        if base is None:
            return []
        names = []
        for entry in _files_under(base):
            name = Path(entry.path).relative_to(self._root).as_posix()
            # a link to a file outside the library is no file of it
            if not entry.is_symlink() or self.locate(name) is not None:
                names.append(name)
        return names

    def duration_s(self, name: str) -> float | None:
        path = self.locate(name)
        if path is None:
            return None
        try:
            info = mutagen.File(path)
            if info is not None and info.info is not None and info.info.length:
                return float(info.info.length)
        except Exception:  # a file mutagen cannot read has no duration, whatever the cause
            return None
        return None

    async def save(self, name: str, chunks: AsyncIterator[bytes]) -> None:
        target = self.locate(name)
        if target is None:
            raise Invalid(f"media file name {name!r} is outside the media library")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}{PARTIAL_SUFFIX}")
        try:
            with partial.open("wb") as out:
                async for chunk in chunks:
                    out.write(chunk)
                out.flush()
                # on disk before it takes the name: a crash leaves the old file or the new
                os.fsync(out.fileno())
            partial.replace(target)
        finally:
            partial.unlink(missing_ok=True)

    def delete(self, name: str) -> bool:
        path = self.locate(name)
        if path is None:
            return False
        if path.is_file():
            path.unlink()
        elif path.is_dir() and path != self._root:
            shutil.rmtree(path)
        else:
            return False
        return True


def _files_under(folder: Path) -> Iterator[os.DirEntry[str]]:
    """Every entry under ``folder`` that is not a folder, at any depth; links to folders
    are not followed (a library cannot hold itself)."""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir():
                if not entry.is_symlink():
                    yield from _files_under(Path(entry.path))
            else:
                yield entry
