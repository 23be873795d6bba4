"""A real VNC server for the tests: TigerVNC's ``Xvnc`` (an X server that serves its
screen over RFB) with a VNC password, its desktop drawn by ``vnc_painter.py`` in four
quarters of known colours. Killed and started again on the same port, it draws the same
desktop again; ``paint`` changes the colours and says when the X server had them."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from types import TracebackType

from tests.support.live_process import HERE, Child, free_port, listening

RED, GREEN, BLUE, YELLOW = (220, 30, 30), (30, 200, 60), (40, 60, 220), (230, 210, 40)
QUARTERS = (RED, GREEN, BLUE, YELLOW)
PASSWORD = "wall-pw1"
Rgb = tuple[int, int, int]


def _spec(quarters: tuple[Rgb, ...]) -> str:
    return " ".join(",".join(str(c) for c in rgb) for rgb in quarters)


def _accepts(path: str) -> bool:
    with socket.socket(socket.AF_UNIX) as sock:
        try:
            sock.connect(path)
        except OSError:
            return False
    return True


def _free_display() -> int:
    for n in range(40, 99):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            return n
    raise RuntimeError("no free X display number")


class VncDesktop(Child):
    """``Xvnc`` on a free display and port, 640x360, password :data:`PASSWORD`."""

    name = "xvnc"

    def __init__(self, width: int = 640, height: int = 360) -> None:
        super().__init__()
        self.width, self.height = width, height
        self.port = free_port()
        self.display = _free_display()
        self.quarters: tuple[Rgb, ...] = QUARTERS
        self._dir = tempfile.TemporaryDirectory(prefix="tilewall-vnc-")
        self._passwd = Path(self._dir.name) / "passwd"
        self._passwd.write_bytes(
            subprocess.run(
                ["vncpasswd", "-f"], input=PASSWORD.encode(), capture_output=True, check=True
            ).stdout
        )
        self._painter: subprocess.Popen[str] | None = None

    def command(self) -> list[str]:
        return [
            "Xvnc",
            f":{self.display}",
            "-geometry",
            f"{self.width}x{self.height}",
            "-depth",
            "24",
            "-rfbport",
            str(self.port),
            "-localhost",
            "-nolisten",
            "tcp",
            "-SecurityTypes",
            "VncAuth",
            "-rfbauth",
            str(self._passwd),
            "-AlwaysShared",
            # a test logs in with a wrong password on purpose: no blacklisting after it
            "-BlacklistThreshold",
            "1000",
        ]

    def ready(self) -> bool:
        # both checked on live sockets: after a kill, the X socket's file stays behind and
        # the RFB port is held by connections in TIME_WAIT, and the painter started on
        # those would find no X server
        return listening(self.port) and _accepts(f"/tmp/.X11-unix/X{self.display}")

    def _started(self) -> None:
        pass

    def start(self, timeout: float = 15) -> None:
        if self.running:
            return
        super().start(timeout)
        self._paint_process()

    def _paint_process(self) -> None:
        env = {**os.environ, "DISPLAY": f":{self.display}"}
        self._painter = subprocess.Popen(
            [
                sys.executable,
                str(HERE / "vnc_painter.py"),
                str(self.width),
                str(self.height),
                _spec(self.quarters),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=HERE,
        )
        self._drawn()

    def _drawn(self) -> float:
        """The instant (epoch seconds) the painter's last paint was in the X server."""
        assert self._painter is not None and self._painter.stdout is not None
        line = self._painter.stdout.readline()
        if not line.startswith("drawn "):
            raise RuntimeError(f"the painter did not draw: {line!r} {self.log()}")
        return float(line.split()[1])

    def paint(self, quarters: tuple[Rgb, ...]) -> float:
        """Repaint the quarters; the instant the X server had the new picture."""
        assert self._painter is not None and self._painter.stdin is not None
        self.quarters = quarters
        self._painter.stdin.write(_spec(quarters) + "\n")
        self._painter.stdin.flush()
        return self._drawn()

    def _end_painter(self) -> None:
        if self._painter is None:
            return
        with contextlib.suppress(ProcessLookupError):
            self._painter.kill()
        self._painter.wait()
        for stream in (self._painter.stdin, self._painter.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._painter = None

    def stop(self, timeout: float = 5) -> None:
        super().stop(timeout)
        self._end_painter()

    def kill(self) -> None:
        """The VNC server (and its desktop) gone at once, as a crash. The painter goes
        after it: gone first, its window would leave the desktop black, and that picture
        would be the last one sent."""
        super().kill()
        self._end_painter()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        super().__exit__(kind, exc, tb)
        self._dir.cleanup()
