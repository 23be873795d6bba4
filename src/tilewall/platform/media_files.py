"""The media library's files in a folder of the machine (``DATA_DIR/media`` by default)."""

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

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
            if path is None or not path.is_file():
                return None
            stat = path.stat()
        except OSError:
            return None
        return StoredFile(stat.st_size, stat.st_mtime_ns)

    def is_folder(self, name: str) -> bool:
        path = self.locate(name)
        return path is not None and path.is_dir()

    def names_under(self, folder: str) -> list[str]:
        base = self.locate(folder)
        if base is None:
            return []
        names = [
            (Path(dirpath) / file).relative_to(self._root).as_posix()
            for dirpath, _dirs, files in os.walk(base)
            for file in files
        ]
        # a link to a file outside the library is no file of it
        return [name for name in names if self.locate(name) is not None]

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
