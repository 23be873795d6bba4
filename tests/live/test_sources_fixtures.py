"""The live sources the live tests use are real and behave as cameras and encoders do:
each URL opens in PyAV (FFmpeg) and gives frames of the pattern, numbered upwards."""

import itertools
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import av
import pytest

from tests.support import live_reading as reading
from tests.support import live_sources as live
from tests.support.framecode import Pattern
from tests.support.live_process import wait_for
from tests.support.live_reading import all_read
from tests.support.live_sources import RtspServer

pytestmark = pytest.mark.live


def assert_counting(numbers: list[int | None], pattern: Pattern) -> None:
    """Every frame read, the numbers going up, and the newest near the pattern's clock (a
    live source: a few seconds at most on this loaded machine, through SRT's handshake)."""
    read = [n for n in numbers if n is not None]
    assert read == numbers, numbers
    assert all(b > a for a, b in itertools.pairwise(read)), numbers
    newest = pattern.unwrap(read[-1])
    assert abs(newest - pattern.number_at()) < 8 * pattern.fps, (newest, pattern.number_at())


@pytest.fixture(scope="module")
def camera() -> Iterator[RtspServer]:
    with RtspServer(Pattern(), user="viewer", password="s3cret-pass") as server:
        yield server


@pytest.mark.parametrize("transport", ["tcp", "udp"])
@pytest.mark.parametrize(
    ("mount", "codec"), [("h264", "h264"), ("h265", "hevc"), ("mjpeg", "mjpeg")]
)
def test_rtsp_server_serves_each_codec_over_tcp_and_udp(
    camera: RtspServer, mount: str, codec: str, transport: str
) -> None:
    found, numbers = reading.sample(camera.url(mount), 8, transport)
    assert found == reading.Probe(codec, 640, 360, 30.0)
    assert_counting(numbers, camera.pattern)


@pytest.mark.parametrize(("user", "password"), [("viewer", "wrong"), ("", "")])
def test_rtsp_server_refuses_a_wrong_or_missing_password_with_401(
    camera: RtspServer, user: str, password: str
) -> None:
    with pytest.raises(av.error.HTTPUnauthorizedError):
        reading.probe(camera.url(user=user, password=password))


def test_rtsp_server_counts_connections_and_comes_back_on_the_same_port(
    rtsp_server: RtspServer,
) -> None:
    url = rtsp_server.url()
    with reading.opened(url, "tcp") as container:
        next(reading.frames(container, container.streams.video[0]))
        wait_for(lambda: rtsp_server.connections == 1, 5, "one connection")
    before = reading.read_numbers(url, 3)
    rtsp_server.kill()
    with pytest.raises(ConnectionRefusedError):
        reading.probe(url)
    rtsp_server.start()
    after = reading.read_numbers(url, 5)
    assert_counting(after, rtsp_server.pattern)
    assert all_read(after)[0] > all_read(before)[-1]
    assert rtsp_server.total_connections >= 3


PUBLISHERS: dict[str, Callable[[Pattern], AbstractContextManager[Any]]] = {
    "udp": live.udp_publisher,
    "udp multicast": lambda p: live.udp_publisher(p, multicast=True),
    "rtp": live.rtp_publisher,
    "srt": lambda p: live.srt_publisher(p, passphrase="correct-horse-battery-staple"),
    "http mpeg-ts": live.http_ts_publisher,
    "hls": live.hls_publisher,
    "rtmp": live.rtmp_publisher,
}


@pytest.mark.parametrize("kind", PUBLISHERS)
def test_ffmpeg_publishes_the_pattern(kind: str) -> None:
    if kind == "rtmp" and (why := live.NginxRtmp.unavailable()):
        pytest.skip(why)
    pattern = Pattern()
    with PUBLISHERS[kind](pattern) as publisher:
        found, numbers = reading.sample(publisher.url, 8)
    assert found == reading.Probe("h264", 640, 360, 30.0)
    assert_counting(numbers, pattern)


@pytest.mark.parametrize("codec", ["hevc", "mpeg2video"])
def test_a_publisher_sends_other_codecs(codec: str) -> None:
    pattern = Pattern()
    with live.udp_publisher(pattern, codec=codec) as publisher:
        found, numbers = reading.sample(publisher.url, 8)
    assert found.codec == codec
    assert_counting(numbers, pattern)


def test_a_publisher_killed_and_started_again_sends_on_the_same_port() -> None:
    pattern = Pattern()
    with live.rtp_publisher(pattern) as publisher:
        before = reading.read_numbers(publisher.url, 3)
        publisher.kill()
        assert not publisher.running
        publisher.start()
        after = reading.read_numbers(publisher.url, 5)
    assert_counting(after, pattern)
    assert all_read(after)[0] > all_read(before)[-1]
