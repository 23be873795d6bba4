"""The host's own files in its data directory: the interface log (``logs/api.log`` and
its rotated files, written by the server's log handler) and the troubleshooting report
archive (``troubleshooting/tilewall-troubleshooting-report.tar.bz2``)."""

import asyncio
import io
import tarfile
from collections.abc import Mapping
from pathlib import Path

LOGS_DIR = "logs"
API_LOG = "api.log"
REPORT_DIR = "troubleshooting"
REPORT_FILE = "tilewall-troubleshooting-report.tar.bz2"
#: the newest part of each log file that goes into a report
MAX_LOG_BYTES = 8 * 1024 * 1024


class DataDirectory:
    def __init__(self, folder: Path) -> None:
        self._folder = folder

    @property
    def folder(self) -> Path:
        return self._folder

    def api_log_files(self) -> list[Path]:
        """The interface log and its rotated predecessors, oldest first."""
        path = self._folder / LOGS_DIR / API_LOG
        rotated = sorted(
            (p for p in path.parent.glob(API_LOG + ".*") if p.suffix.lstrip(".").isdigit()),
            key=lambda p: int(p.suffix.lstrip(".")),
            reverse=True,
        )
        return [*rotated, *([path] if path.exists() else [])]

    async def api_log_tail(self, max_bytes: int) -> str:
        path = self._folder / LOGS_DIR / API_LOG
        if not path.exists():
            return ""
        tail = await asyncio.to_thread(_tail, path, max_bytes)
        return tail.decode("utf-8", errors="replace")

    async def write_report(self, documents: Mapping[str, bytes], created_s: float) -> Path:
        target = self._folder / REPORT_DIR / REPORT_FILE
        logs = self.api_log_files()
        return await asyncio.to_thread(_write_report, target, documents, logs, created_s)

    def report(self) -> Path | None:
        path = self._folder / REPORT_DIR / REPORT_FILE
        return path if path.is_file() else None


def _tail(path: Path, max_bytes: int) -> bytes:
    with path.open("rb") as f:
        f.seek(0, 2)
        size = f.tell()
        f.seek(max(0, size - max_bytes))
        return f.read()


def _add(archive: tarfile.TarFile, name: str, data: bytes, mtime: float) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = int(mtime)
    info.mode = 0o644
    archive.addfile(info, io.BytesIO(data))


def _write_report(
    target: Path, documents: Mapping[str, bytes], logs: list[Path], created_s: float
) -> Path:
    """Write the archive under a partial name, then give it its own: a reader never finds
    half an archive."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    with tarfile.open(partial, "w:bz2") as archive:
        for name, body in documents.items():
            _add(archive, name, body, created_s)
        for path in logs:
            try:
                _add(archive, f"logs/{path.name}", _tail(path, MAX_LOG_BYTES), path.stat().st_mtime)
            except OSError:  # rotated away meanwhile
                continue
    partial.replace(target)
    return target
