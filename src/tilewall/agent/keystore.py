"""The station key the host handed this device, kept in the agent's state directory
(one file per seat, readable by the agent's user only)."""

import contextlib
import logging
import os
import re
from pathlib import Path

log = logging.getLogger(__name__)

_KEY = re.compile(r"^[A-Za-z0-9_-]{16,128}$")


def default_state_dir() -> Path:
    """systemd's StateDirectory, else the XDG state directory."""
    systemd = os.environ.get("STATE_DIRECTORY")
    if systemd:
        return Path(systemd.split(":")[0])
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "tilewall-agent"


class KeyStore:
    def __init__(self, state_dir: Path, seat: str) -> None:
        self.path = state_dir / f"{seat}.key"

    def load(self) -> str | None:
        try:
            key = self.path.read_text().strip()
        except OSError:
            return None
        return key if _KEY.match(key) else None

    def save(self, key: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(key + "\n")
            f.flush()
            os.fsync(f.fileno())  # kept through a power cut, as the host is told it is
        os.replace(temporary, self.path)
        log.info("station key kept in %s", self.path)

    def forget(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
            log.info("station key forgotten (the station was unlocked)")
