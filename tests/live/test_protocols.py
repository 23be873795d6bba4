"""Cameras and encoders of every kind through a real host: GStreamer's RTSP server
(H.264, H.265, MJPEG, with a password), and ffmpeg publishing over UDP (unicast and
multicast), RTP, HTTP, HLS and RTMP (tests/support/live_sources.py). What a viewer of
``/live/<sourceId>`` gets decodes to the frame-numbered pattern, numbered upwards."""

from __future__ import annotations

import asyncio
import contextlib
import socket as socket_module
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import av
import pytest

from tests.support import live_sources as live
from tests.support.framecode import Pattern, read_frame_number
from tests.support.http import ok
from tests.support.live_process import port_free
from tests.support.live_publish import Seen, collect, viewer
from tests.support.live_wire import picture as pattern_frame
from tests.support.server import running
from tests.support.sources import RTSP, body_of
from tests.support.topology import unique
from tests.support.waiting import wait_until

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    yield from running(tmp_path_factory, "live-protocols", in_process=True)


def _source(host, url: str, **params: str) -> str:
    body = body_of(RTSP, unique("Camera"), {"URL": url, **params})
    return str(ok(host.api.post("/sources", json=body))["sourceId"])


def _status(host, source_id: str) -> dict[str, Any]:
    return dict(ok(host.api.get(f"/sources/{source_id}/status")))


def _frames(n: int) -> Callable[[Seen], bool]:
    return lambda seen: len(seen.frames) >= n


def numbers(seen: Seen) -> list[int | None]:
    """The frame numbers the frames a viewer got decode to (a fresh decoder, as a
    receiver joining would have)."""
    config = seen.configs()[0]
    decoder = av.CodecContext.create("h264", "r")
    out: list[int | None] = []
    for frame in seen.frames:
        for picture in decoder.decode(av.Packet(frame.data)):
            assert (picture.width, picture.height) == (config["codedWidth"], config["codedHeight"])
            out.append(read_frame_number(picture.to_ndarray(format="rgb24")))
    return out


def upwards(found: list[int | None]) -> bool:
    known = [n for n in found if n is not None]
    return len(known) >= len(found) - 1 and known == sorted(known) and len(set(known)) > 5


async def _watch(host, source_id: str, count: int = 30, timeout: float = 30) -> Seen:
    async with viewer(host.url, source_id, host.api.session) as socket:
        return await collect(socket, Seen(), _frames(count), timeout=timeout)


@pytest.fixture
def camera() -> Iterator[live.RtspServer]:
    with live.RtspServer(Pattern(), user="viewer", password="s3cret-Pass") as server:
        yield server


async def test_rtsp_camera_one_connection_for_many_viewers(host, camera):
    source_id = _source(host, camera.url("h264"), Transport="tcp")
    # three viewers prove one pull for many as well as more would (each decodes its frames)
    sockets = [viewer(host.url, source_id, host.api.session) for _ in range(3)]
    opened = [await s.__aenter__() for s in sockets]
    try:
        seen = await asyncio.gather(*(collect(s, Seen(), _frames(30)) for s in opened))
        assert camera.connections == 1 and camera.total_connections == 1
        for one in seen:
            assert one.frames[0].key and upwards(numbers(one))
        status = _status(host, source_id)
        assert status["state"] == "live" and status["viewers"] == 3
        assert status["codec"] == "h264" and "s3cret" not in str(status)
    finally:
        for s in sockets:
            await s.__aexit__(None, None, None)


@pytest.mark.parametrize("transport", ["udp", "auto"])
async def test_rtsp_over_udp_and_auto(host, camera, transport):
    source_id = _source(host, camera.url("h264"), Transport=transport)
    assert upwards(numbers(await _watch(host, source_id)))


@pytest.mark.parametrize("mount", ["h265", "mjpeg"])
async def test_rtsp_h265_and_mjpeg_transcoded_once(host, camera, mount):
    source_id = _source(host, camera.url(mount), Transport="tcp")
    one, two = await asyncio.gather(_watch(host, source_id), _watch(host, source_id))
    assert upwards(numbers(one)) and upwards(numbers(two))
    assert host.app.state.live.counts[source_id].encoders == 1
    assert camera.total_connections == 1


@pytest.mark.parametrize(
    ("url", "words"),
    [
        (lambda c: c.url("h264", password="wrong"), "401 unauthorized"),
        (lambda c: c.url("h264", user="", password=""), "401 unauthorized"),
        (lambda c: c.url("no-such-mount"), "404 no such stream"),
    ],
    ids=["wrong-password", "no-password", "no-such-stream"],
)
async def test_rtsp_failures_named(host, camera, url, words):
    source_id = _source(host, url(camera), Transport="tcp")
    async with viewer(host.url, source_id, host.api.session) as socket:
        seen = await collect(socket, Seen(), lambda s: words in str(s.texts), timeout=20)
    assert seen.states()[-1] == "failed"
    status = _status(host, source_id)
    assert status["state"] == "failed" and words in status["message"]
    assert "s3cret" not in str(seen.texts) + str(status)


async def test_rtsp_picture_back_after_the_server_restarts(host, camera):
    source_id = _source(host, camera.url("h264"), Transport="tcp")
    async with viewer(host.url, source_id, host.api.session) as socket:
        seen = await collect(socket, Seen(), _frames(20))
        camera.kill()
        await collect(socket, seen, lambda s: "reconnecting" in s.states(), timeout=15)
        had = len(seen.frames)
        camera.start()
        await collect(socket, seen, lambda s: len(s.frames) > had + 20, timeout=20)
        assert seen.states()[-1] == "live"
        assert seen.frames[had].key  # it starts again on a key frame
    assert upwards(numbers(Seen(texts=seen.texts, frames=seen.frames[had:])))


async def test_a_cold_viewer_starts_on_the_first_key_frame_the_host_reads(host):
    """An encoder that starts sending once the host listens (as one started after the
    wall shows it), a key frame every 6 s: the first picture a viewer gets is the
    stream's first, not the one a GOP later (the host's opening of the input reads it)."""
    pattern = Pattern()
    gop = 6 * pattern.fps  # longer than the publisher takes to start on a busy machine
    publisher = live.udp_publisher(pattern, gop=gop)
    port = urlsplit(publisher.url).port
    assert port is not None
    source_id = _source(host, publisher.url)
    async with viewer(host.url, source_id, host.api.session) as socket:
        wait_until(
            lambda: not port_free(port, socket_module.SOCK_DGRAM), 10, what="the host listening"
        )
        started = pattern.number_at()
        with publisher:
            seen = await collect(socket, Seen(), _frames(10), timeout=20)
    assert seen.frames[0].key
    first = next(n for n in numbers(seen) if n is not None)
    assert 0 <= pattern.unwrap(first) - started < gop, (started, first)


def _udp() -> Any:
    return live.udp_publisher(Pattern())


def _multicast() -> Any:
    return live.udp_publisher(Pattern(), multicast=True)


def _rtp() -> Any:
    return live.rtp_publisher(Pattern())


def _http() -> Any:
    return live.http_ts_publisher(Pattern())


def _hls() -> Any:
    return live.hls_publisher(Pattern())


def _rtmp() -> Any:
    reason = live.NginxRtmp.unavailable()
    if reason:
        pytest.skip(reason)
    return live.rtmp_publisher(Pattern())


@pytest.mark.parametrize(
    "publisher", [_udp, _multicast, _rtp, _http, _hls, _rtmp],
    ids=["udp", "udp-multicast", "rtp", "http-ts", "hls", "rtmp"],
)  # fmt: skip
async def test_every_kind_of_stream(host, publisher):
    with publisher() as source:
        source_id = _source(host, source.url)
        seen = await _watch(host, source_id, count=40, timeout=40)
        assert seen.configs()[0]["codec"].startswith("avc1.")
        assert upwards(numbers(seen))
        wait_until(lambda: _status(host, source_id)["viewers"] == 0, 10)


async def test_a_viewer_that_stops_reading_never_holds_up_the_others(host):
    with live.udp_publisher(Pattern(), kbps=8000) as source:
        source_id = _source(host, source.url)
        counts = host.app.state.live.counts
        stuck = socket_module.socket()
        stuck.setsockopt(socket_module.SOL_SOCKET, socket_module.SO_RCVBUF, 4096)
        stuck.connect(("127.0.0.1", host.port))
        async with (
            viewer(host.url, source_id, host.api.session, sock=stuck) as slow,
            viewer(host.url, source_id, host.api.session) as fast,
        ):
            # the slow one reads nothing more: its TCP buffers fill, then its queue
            # (reading the fast one all the while)
            seen = await collect(
                fast, Seen(), lambda _: counts[source_id].frames_dropped > 0, timeout=60
            )
            start_in, start_seen = counts[source_id].frames_in, len(seen.frames)
            await collect(fast, seen, _frames(start_seen + 90), timeout=20)
            came = counts[source_id].frames_in - start_in
            # every frame the host read meanwhile reaches the fast viewer
            await collect(fast, seen, _frames(start_seen + came), timeout=10)
            # the slow one is still served (dropping to key frames), not cut off
            assert slow.state.name == "OPEN" and _status(host, source_id)["viewers"] == 2
        assert upwards(numbers(seen))


def _segment(path: Any, frames: int = 60) -> None:
    """Two seconds of the pattern as an MPEG-TS file, as an HLS segment."""
    with av.open(str(path), "w", format="mpegts") as container:
        stream = container.add_stream("libx264", rate=30)
        stream.width, stream.height, stream.pix_fmt = 640, 360, "yuv420p"
        stream.codec_context.options = {"preset": "ultrafast", "tune": "zerolatency"}
        for n in range(frames):
            frame = pattern_frame(n)
            frame.pts = n
            container.mux(stream.encode(frame))
        container.mux(stream.encode(None))


def _playlist(segment: str) -> str:
    """A live playlist (no end) of one segment."""
    return (
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
        f"#EXTINF:2.0,\n{segment}\n"
    )


async def test_a_playlist_naming_a_file_of_the_host_is_never_read(host, tmp_path):
    """FFmpeg's protocol whitelist: a URL can make the host read nothing but its own
    protocols. An HLS playlist over HTTP naming its segment as a ``file:`` URL (a file the
    host could read) gives no picture; the same segment named over HTTP plays."""
    _segment(tmp_path / "segment.ts")
    (tmp_path / "web.m3u8").write_text(_playlist("segment.ts"))
    (tmp_path / "local.m3u8").write_text(_playlist((tmp_path / "segment.ts").as_uri()))
    with live.http_directory(tmp_path) as web:
        played = await _watch(host, _source(host, f"{web.url}/web.m3u8"), count=20)
        assert upwards(numbers(played))

        source_id = _source(host, f"{web.url}/local.m3u8")
        async with viewer(host.url, source_id, host.api.session) as socket:
            seen = await collect(
                socket, Seen(), lambda s: "failed" in s.states() or bool(s.frames), timeout=20
            )
            with contextlib.suppress(TimeoutError):  # nor a frame a second later
                await collect(socket, seen, lambda s: bool(s.frames), timeout=1)
        assert not seen.frames, f"the host read the file: {len(seen.frames)} frames"
        status = _status(host, source_id)
        assert status["state"] == "failed" and status["codec"] == "", status
        assert host.app.state.live.counts[source_id].frames_in == 0
