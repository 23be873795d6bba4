"""Real live sources for the tests: an RTSP server and ``ffmpeg`` publishers of the
frame-numbered pattern (framecode), each a child process on ports of its own.

Every source is a context manager and a ``Child``: ``stop()`` ends it (TERM, then KILL),
``kill()`` ends it at once as a crash would, ``start()`` starts it again on the same port
(an outage and the source's return). ``url`` is what a host would be given.

- ``RtspServer``: GStreamer's RTSP server (``rtsp_server.py`` under the system's Python,
  which has ``gi``), mounts ``h264``, ``h265``, ``mjpeg``, optional user and password;
  ``connections`` counts the clients connected now.
- ``Publisher``: ``ffmpeg`` fed by ``live_pattern.py``; made by ``udp_publisher``
  (unicast or multicast MPEG-TS), ``rtp_publisher`` (MPEG-TS in RTP), ``srt_publisher``
  (a listener: the host calls it), ``srt_caller`` (it calls the host), ``http_ts_publisher`` (MPEG-TS over HTTP),
  ``hls_publisher`` (segments served by ``http_directory``) and ``rtmp_publisher`` (to
  nginx's RTMP module, ``NginxRtmp``).

Reading them: ``tests.support.live_reading`` (``probe``, ``sample``, ``read_numbers``).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import socket
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.support.framecode import Pattern
from tests.support.live_process import HERE, Child, free_port, listening, port_free

#: the system's Python 3, with python3-gi (the project's environment has no ``gi``)
SYSTEM_PYTHON = "/usr/bin/python3"
RTMP_MODULE = Path("/usr/lib/nginx/modules/ngx_rtmp_module.so")
#: the multicast group the multicast publisher sends to (on the loopback interface)
MULTICAST_GROUP = "239.255.42.42"


class RtspServer(Child):
    """GStreamer's RTSP server serving the pattern at ``/h264``, ``/h265`` and ``/mjpeg``."""

    name = "rtsp-server"

    def __init__(
        self, pattern: Pattern | None = None, *, user: str = "", password: str = "", port: int = 0
    ) -> None:
        super().__init__()
        self.pattern = pattern or Pattern()
        self.user, self.password = user, password
        self.port = port or free_port()
        self.connections = 0  # connected now
        self.total_connections = 0  # since the first start
        self._ready = False

    def command(self) -> list[str]:
        p = self.pattern
        return [
            SYSTEM_PYTHON, str(HERE / "rtsp_server.py"), "--port", str(self.port),
            "--width", str(p.width), "--height", str(p.height), "--fps", str(p.fps),
            "--origin", repr(p.origin), "--user", self.user, "--password", self.password,
        ]  # fmt: skip

    def _started(self) -> None:
        self._ready = False
        self.connections = 0
        assert self.process is not None and self.process.stdout is not None
        threading.Thread(target=self._read_events, args=(self.process.stdout,), daemon=True).start()

    def _read_events(self, stdout: Any) -> None:
        with contextlib.suppress(ValueError, OSError):
            for raw in stdout:
                word, _, value = raw.decode().strip().partition(" ")
                if word == "ready":
                    self._ready = True
                elif word in ("connected", "closed"):
                    self.total_connections += word == "connected"
                    self.connections = int(value)

    def ready(self) -> bool:
        return self._ready

    def url(
        self, mount: str = "h264", *, user: str | None = None, password: str | None = None
    ) -> str:
        """The URL of a mount, with the server's credentials (or the ones given)."""
        user = self.user if user is None else user
        password = self.password if password is None else password
        auth = f"{user}:{password}@" if user else ""
        return f"rtsp://{auth}127.0.0.1:{self.port}/{mount}"


ENCODE = {
    "h264": ["-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency"],
    "hevc": ["-c:v", "libx265", "-preset", "ultrafast", "-tune", "zerolatency"],
    "mpeg2video": ["-c:v", "mpeg2video", "-q:v", "4"],
}


class Publisher(Child):
    """``ffmpeg`` publishing the pattern to ``output`` (its muxer and URL arguments), a key
    frame every ``gop`` frames (one a second by default), the first frame one."""

    name = "publisher"

    def __init__(
        self,
        url: str,
        output: list[str],
        pattern: Pattern | None = None,
        *,
        codec: str = "h264",
        kbps: int = 2000,
        respawn: bool = False,
        ready: Any = None,
        gop: int = 0,
    ) -> None:
        super().__init__()
        self.url, self.output = url, output
        self.pattern = pattern or Pattern()
        self.codec, self.kbps, self.respawn = codec, kbps, respawn
        self.gop = gop or self.pattern.fps
        self._ready_check = ready

    def command(self) -> list[str]:
        p = self.pattern
        feeder = [
            sys.executable, str(HERE / "live_pattern.py"), "--width", str(p.width),
            "--height", str(p.height), "--fps", str(p.fps), "--origin", repr(p.origin),
        ]  # fmt: skip
        if self.respawn:
            feeder.append("--respawn")
        ffmpeg = [
            "ffmpeg", "-hide_banner", "-loglevel", "error",
            "-probesize", "32", "-analyzeduration", "0", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", f"{p.width}x{p.height}",
            "-framerate", str(p.fps), "-i", "pipe:0",
            *ENCODE[self.codec], "-g", str(self.gop), "-sc_threshold", "0", "-b:v", f"{self.kbps}k",
            "-maxrate", f"{self.kbps}k", "-bufsize", f"{self.kbps // 2}k", "-pix_fmt", "yuv420p",
            "-flush_packets", "1",
        ]  # fmt: skip
        return [*feeder, "--", *ffmpeg, *self.output]

    def ready(self) -> bool:
        return self._ready_check is None or bool(self._ready_check())


def udp_publisher(
    pattern: Pattern | None = None, *, multicast: bool = False, **kw: Any
) -> Publisher:
    """MPEG-TS over UDP to 127.0.0.1, or to ``MULTICAST_GROUP`` on the loopback interface."""
    port = free_port(socket.SOCK_DGRAM)
    if multicast:
        target = f"udp://{MULTICAST_GROUP}:{port}?pkt_size=1316&ttl=1&localaddr=127.0.0.1"
        url = f"udp://{MULTICAST_GROUP}:{port}?localaddr=127.0.0.1"
    else:
        target = url = f"udp://127.0.0.1:{port}?pkt_size=1316"
    return Publisher(url, ["-f", "mpegts", target], pattern, **kw)


def rtp_publisher(pattern: Pattern | None = None, **kw: Any) -> Publisher:
    """MPEG-TS in RTP (payload type 33, so a reader needs no SDP) to 127.0.0.1."""
    port = free_port(socket.SOCK_DGRAM, pair=True)
    url = f"rtp://127.0.0.1:{port}"
    return Publisher(url, ["-f", "rtp_mpegts", f"{url}?pkt_size=1316"], pattern, **kw)


def srt_publisher(
    pattern: Pattern | None = None, *, passphrase: str = "", latency_ms: int = 60, **kw: Any
) -> Publisher:
    """MPEG-TS over SRT, ffmpeg listening (the host calls it); after each caller leaves,
    ffmpeg listens again. ``url`` carries the passphrase if there is one."""
    port = free_port(socket.SOCK_DGRAM)
    query = f"latency={latency_ms * 1000}" + (f"&passphrase={passphrase}" if passphrase else "")
    url = f"srt://127.0.0.1:{port}?{query}"
    return Publisher(
        url,
        ["-f", "mpegts", f"{url}&mode=listener"],
        pattern,
        respawn=True,
        ready=lambda: not port_free(port, socket.SOCK_DGRAM),
        **kw,
    )


def srt_caller(pattern: Pattern | None = None, *, latency_ms: int = 60, **kw: Any) -> Publisher:
    """MPEG-TS over SRT, ffmpeg calling a listener on a free port (until one answers:
    ffmpeg gives up after 3 s and is started again); ``url`` is the listener's, the one
    the host is given (``mode=listener``)."""
    port = free_port(socket.SOCK_DGRAM)
    url = f"srt://127.0.0.1:{port}?mode=listener&latency={latency_ms * 1000}"
    target = f"srt://127.0.0.1:{port}?mode=caller&latency={latency_ms * 1000}"
    return Publisher(url, ["-f", "mpegts", target], pattern, respawn=True, **kw)


def http_ts_publisher(pattern: Pattern | None = None, **kw: Any) -> Publisher:
    """MPEG-TS over HTTP, ffmpeg serving one client at a time at ``/live.ts``."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/live.ts"
    return Publisher(
        url,
        ["-f", "mpegts", "-listen", "1", url],
        pattern,
        respawn=True,
        ready=lambda: listening(port),
        **kw,
    )


class HttpServer:
    """A small HTTP server on 127.0.0.1 (a thread) answering with ``handler``."""

    def __init__(self, handler: Any) -> None:
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> HttpServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files and logs nothing."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


def http_directory(root: Path) -> HttpServer:
    """A server of one directory, as a CDN would serve HLS."""
    return HttpServer(functools.partial(QuietHandler, directory=str(root)))


@contextlib.contextmanager
def hls_publisher(pattern: Pattern | None = None, **kw: Any) -> Iterator[Publisher]:
    """Live HLS (one-second segments, a rolling playlist) served over HTTP."""
    with (
        tempfile.TemporaryDirectory(prefix="tilewall-hls-") as tmp,
        http_directory(Path(tmp)) as web,
    ):
        playlist = Path(tmp) / "live.m3u8"
        output = [
            "-f", "hls", "-hls_time", "1", "-hls_list_size", "6",
            "-hls_flags", "delete_segments+omit_endlist", str(playlist),
        ]  # fmt: skip
        url = f"http://127.0.0.1:{web.port}/live.m3u8"
        with Publisher(url, output, pattern, ready=playlist.exists, **kw) as publisher:
            yield publisher


class NginxRtmp(Child):
    """nginx with its RTMP module (libnginx-mod-rtmp), an application ``live``, run as
    this user from a configuration and paths of its own."""

    name = "nginx-rtmp"

    def __init__(self) -> None:
        super().__init__()
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="tilewall-nginx-"))
        (self.dir / "nginx.conf").write_text(
            f"load_module {RTMP_MODULE};\n"
            f"daemon off;\nmaster_process off;\npid {self.dir}/nginx.pid;\n"
            f"error_log {self.dir}/error.log warn;\n"
            "events { worker_connections 256; }\n"
            f"rtmp {{ server {{ listen 127.0.0.1:{self.port}; chunk_size 4096;\n"
            "  application live { live on; record off; } } }\n"
        )

    @staticmethod
    def unavailable() -> str | None:
        """Why nginx's RTMP server cannot run here, or None if it can."""
        if shutil.which("nginx") is None:
            return "nginx is not installed"
        if not RTMP_MODULE.exists():
            return "nginx's RTMP module (libnginx-mod-rtmp) is not installed"
        return None

    def command(self) -> list[str]:
        return ["nginx", "-e", "stderr", "-p", str(self.dir), "-c", str(self.dir / "nginx.conf")]

    def ready(self) -> bool:
        return listening(self.port)

    def __exit__(self, *exc: Any) -> None:
        super().__exit__(*exc)
        shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def rtmp_publisher(pattern: Pattern | None = None, **kw: Any) -> Iterator[Publisher]:
    """FLV over RTMP, published to nginx (``NginxRtmp``); ``url`` is the one to play."""
    with NginxRtmp() as nginx:
        url = f"rtmp://127.0.0.1:{nginx.port}/live/pattern"
        with Publisher(url, ["-f", "flv", url], pattern, **kw) as publisher:
            yield publisher
