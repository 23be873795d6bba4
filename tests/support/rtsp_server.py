"""A real RTSP server for the tests: GStreamer's RTSP server (python3-gi), serving the
frame-numbered pattern (framecode) as H.264, H.265 and MJPEG.

Run it with the system's Python 3, which has ``gi`` (the project's virtual environment
does not): ``python3 rtsp_server.py --port P [--user U --password W]``. Mount points:
``/h264`` (x264, zero latency, a key frame a second), ``/h265`` (x265) and ``/mjpeg``.
Each mount is shared: one encoder however many clients. Clients may ask for RTP over TCP
(interleaved) or UDP. It prints one line an event on stdout, for the tests to read:
``ready PORT``, ``connected N`` and ``closed N`` (N = connections open now).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a program
from tests.support.framecode import FrameMaker, Pattern  # noqa: E402

ENCODERS = {
    "h264": "x264enc tune=zerolatency speed-preset=ultrafast key-int-max={fps} bitrate={kbps}"
    " ! video/x-h264,profile=constrained-baseline ! rtph264pay name=pay0 pt=96 config-interval=1",
    "h265": "x265enc tune=zerolatency speed-preset=ultrafast key-int-max={fps} bitrate={kbps}"
    " ! rtph265pay name=pay0 pt=96 config-interval=1",
    "mjpeg": "jpegenc quality=90 ! rtpjpegpay name=pay0 pt=26",
}


def say(line: str) -> None:
    print(line, flush=True)


class Feeder:
    """Pushes the pattern's frames into one media's appsrc, each when it is due."""

    def __init__(self, maker: FrameMaker, src: Gst.Element) -> None:
        self.maker, self.src = maker, src
        self.next = maker.pattern.number_at()
        src.connect("need-data", self.need_data)

    def need_data(self, src: Gst.Element, _length: int) -> None:
        pattern = self.maker.pattern
        # a late source drops frames, as a camera does, rather than falling behind
        number = max(self.next, pattern.number_at())
        delay = pattern.origin + number / pattern.fps - time.time()
        if delay > 0:
            time.sleep(delay)
        self.next = number + 1
        data = self.maker.frame(number)
        buffer = Gst.Buffer.new_allocate(None, len(data), None)
        buffer.fill(0, data)
        src.emit("push-buffer", buffer)


def factory(
    kind: str, maker: FrameMaker, args: argparse.Namespace
) -> GstRtspServer.RTSPMediaFactory:
    pattern = maker.pattern
    caps = (
        f"video/x-raw,format=I420,width={pattern.width},height={pattern.height},"
        f"framerate={pattern.fps}/1"
    )
    launch = (
        f"( appsrc name=src is-live=true do-timestamp=true format=time caps={caps} "
        f"! queue max-size-buffers=2 leaky=downstream "
        f"! {ENCODERS[kind].format(fps=pattern.fps, kbps=args.kbps)} )"
    )
    made = GstRtspServer.RTSPMediaFactory()
    made.set_launch(launch)
    made.set_shared(True)
    feeders: list[Feeder] = []

    def configure(_factory: object, media: GstRtspServer.RTSPMedia) -> None:
        src = media.get_element().get_child_by_name("src")
        feeders.append(Feeder(maker, src))

    made.connect("media-configure", configure)
    if args.user:
        permissions = GstRtspServer.RTSPPermissions()
        permissions.add_permission_for_role("viewer", "media.factory.access", True)
        permissions.add_permission_for_role("viewer", "media.factory.construct", True)
        made.set_permissions(permissions)
    return made


def serve(args: argparse.Namespace) -> int:
    Gst.init(None)
    pattern = Pattern(args.width, args.height, args.fps, args.origin)
    maker = FrameMaker(pattern)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(str(args.port))
    if args.user:
        auth = GstRtspServer.RTSPAuth()
        token = GstRtspServer.RTSPToken()
        token.set_string("media.factory.role", "viewer")
        auth.add_basic(GstRtspServer.RTSPAuth.make_basic(args.user, args.password), token)
        server.set_auth(auth)
    mounts = server.get_mount_points()
    for kind in ENCODERS:
        mounts.add_factory(f"/{kind}", factory(kind, maker, args))
    open_clients = [0]
    lock = threading.Lock()

    def closed(_client: object) -> None:
        with lock:
            open_clients[0] -= 1
            say(f"closed {open_clients[0]}")

    def connected(_server: object, client: GstRtspServer.RTSPClient) -> None:
        with lock:
            open_clients[0] += 1
            say(f"connected {open_clients[0]}")
        client.connect("closed", closed)

    server.connect("client-connected", connected)
    if server.attach(None) == 0:
        say(f"error: cannot listen on port {args.port}")
        return 1
    say(f"ready {server.get_bound_port()}")
    GLib.MainLoop().run()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=360)
    parser.add_argument("--fps", type=int, default=30)
    parser.add_argument("--origin", type=float, default=time.time())
    parser.add_argument("--kbps", type=int, default=2000)
    parser.add_argument("--user", default="")
    parser.add_argument("--password", default="")
    return serve(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
