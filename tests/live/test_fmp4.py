"""The fragmented MP4 of a live stream (tilewall.live.fmp4): H.264 from libx264 in,
remuxed and never re-encoded; what a viewer joining gets is a file FFmpeg plays from a
key frame, frame by frame, with the picture of each frame; a real host sends it at
``/live/<sourceId>?format=fmp4`` to many viewers from one pull of the camera."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import av
import pytest
from websockets.asyncio.client import connect

from tests.support.live_reading import all_read
from tests.support.live_wire import UdpPattern, picture, read_number
from tests.support.server import free_port, running
from tests.support.sharer import VP9_CODEC, Sharer
from tests.support.sources import RTSP, source_body
from tilewall.live.fmp4 import Fmp4Stream

pytestmark = pytest.mark.live

FPS = 30


def encoded(count: int, gop: int = 10) -> list[tuple[bytes, bool]]:
    encoder = av.CodecContext.create("libx264", "w")
    encoder.width, encoder.height, encoder.pix_fmt = 640, 360, "yuv420p"
    encoder.time_base, encoder.framerate = Fraction(1, FPS), Fraction(FPS, 1)
    encoder.gop_size = gop
    encoder.options = {"preset": "ultrafast", "tune": "zerolatency"}
    encoder.open()
    units = []
    for n in range(count):
        frame = picture(n)
        frame.pts = n
        units += [(bytes(p), bool(p.is_keyframe)) for p in encoder.encode(frame)]
    return units


def numbers_in(data: bytes, codec: str = "h264") -> list[int | None]:
    with av.open(io.BytesIO(data), mode="r") as container:
        assert container.streams.video[0].codec_context.name == codec
        return [read_number(f.to_image()) for f in container.decode(video=0)]


def test_a_viewer_joining_gets_a_playable_file_from_the_last_key_frame() -> None:
    stream = Fmp4Stream(fps=FPS)
    units = encoded(25)
    sent = []
    for n, (unit, key) in enumerate(units):
        fragment = stream.push(unit, key, 1_000_000.0 + n * 1000 / FPS)
        if fragment:
            sent.append(fragment)
    # one fragment per frame, a frame behind; key frames at 0, 10 and 20
    assert len(sent) == 24
    assert [n for n, f in enumerate(sent) if f.key] == [0, 10, 20]
    assert stream.init.startswith(b"\x00\x00\x00") and b"ftyp" in stream.init[:8]

    # from the start: every frame, in order
    assert numbers_in(stream.init + b"".join(f.data for f in sent)) == list(range(24))
    # a viewer joining after frame 24 was pushed: from the key frame of frame 20
    assert numbers_in(b"".join(stream.joining())) == [20, 21, 22, 23]
    stream.close()


def test_a_screen_shares_vp9_is_remuxed_as_well() -> None:
    sharer = Sharer("http://unused", codec="vp9", gop=10)
    frames = [sharer.encode(n, n == 0) for n in range(15)]
    stream = Fmp4Stream(fps=FPS, codec=VP9_CODEC, width=sharer.width, height=sharer.height)
    sent = [f for n, (key, data) in enumerate(frames) if (f := stream.push(data, key, n * 33.3))]
    assert [n for n, f in enumerate(sent) if f.key] == [0, 10]
    assert b"vp09" in stream.init and b"vpcC" in stream.init
    assert numbers_in(stream.init + b"".join(f.data for f in sent), "vp9") == list(range(14))
    assert numbers_in(b"".join(stream.joining()), "vp9") == [10, 11, 12, 13]
    stream.close()


def test_nothing_is_written_before_the_first_key_frame() -> None:
    units = encoded(12, gop=10)
    stream = Fmp4Stream(fps=FPS)
    # the stream is joined after its first key frame: frames 1..9 have no key before them
    for n, (unit, key) in enumerate(units[1:10], start=1):
        assert not key
        assert stream.push(unit, key, n * 33.3) is None
    assert stream.joining() == []
    unit, key = units[10]
    assert key and stream.push(unit, key, 333.0) is None  # written with the next frame
    assert stream.joining() == [stream.init]
    stream.close()


# --- through a real host: /live/<sourceId>?format=fmp4 ------------------------------------


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from running(tmp_path_factory, "live-fmp4", in_process=True)


async def mp4_of(host: Any, source_id: str, frames: int) -> tuple[list[dict[str, Any]], bytes]:
    """The texts and the MP4 a viewer of ``?format=fmp4`` is sent, until ``frames``
    fragments came."""
    texts: list[dict[str, Any]] = []
    parts: list[bytes] = []
    async with _live(host, source_id, "?format=fmp4") as socket:
        while len(parts) < frames + 1:
            message = await asyncio.wait_for(socket.recv(), 20)
            if isinstance(message, bytes):
                parts.append(message)
            else:
                texts.append(json.loads(message))
    return texts, b"".join(parts)


@contextlib.contextmanager
def _camera(host: Any, name: str) -> Iterator[str]:
    """A camera (MPEG-TS over UDP) pushing to the host, as the live source ``name``:
    its id."""
    camera = UdpPattern(free_port()).start()
    try:
        body = source_body(RTSP, name, URL=camera.url)
        yield host.ok("POST", "/sources", json=body)["sourceId"]
    finally:
        camera.stop()


def _live(host: Any, source_id: str, query: str = "") -> Any:
    """A connection to ``/live/<source_id>`` with the host's session."""
    headers = {"Cookie": f"JSESSIONID={host.api.session}"}
    url = host.url.replace("http://", "ws://") + f"/live/{source_id}{query}"
    return connect(url, additional_headers=headers, max_size=1 << 24)


async def _until_a_frame(socket: Any) -> None:
    """Read until the first frame or fragment (past the texts before it)."""
    while isinstance(await asyncio.wait_for(socket.recv(), 20), str):
        pass


async def test_the_host_sends_a_camera_as_fragmented_mp4_to_many_viewers(host: Any) -> None:
    with _camera(host, "Lobby camera") as source_id:
        (texts, first), (_, second) = await asyncio.gather(
            mp4_of(host, source_id, 45), mp4_of(host, source_id, 45)
        )
    config = next(t for t in texts if t["type"] == "config")
    assert config["codec"].startswith("avc1.") and config["codedWidth"] == 640, texts
    assert "live" in [t.get("state") for t in texts], texts
    for data in (first, second):
        numbers = all_read(numbers_in(data))
        assert len(numbers) >= 40
        # frame after frame, from a key frame on
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), numbers
    # one pull of the camera, one remux, for both viewers (a first try that timed out
    # while the publisher started would be a connection that never opened)
    assert host.app.state.live.counts[source_id].opened == 1


async def test_each_viewer_of_the_mp4_counts_in_the_status(host: Any) -> None:
    async def status() -> dict[str, Any]:
        return dict(await asyncio.to_thread(host.ok, "GET", f"/sources/{source_id}/status"))

    with _camera(host, "Yard camera") as source_id:
        async with _live(host, source_id) as frames:
            await _until_a_frame(frames)
            async with (
                _live(host, source_id, "?format=fmp4") as one,
                _live(host, source_id, "?format=fmp4") as two,
            ):
                for socket in (one, two):
                    await _until_a_frame(socket)
                now = await status()
                assert now["viewers"] == 3, now
                # the operator learns that two of them run late, and why
                assert "2 of 3 viewers without a secure context" in now["message"], now
            for _ in range(50):  # the two gone: only the WebCodecs viewer is left
                if (now := await status())["viewers"] == 1:
                    break
                await asyncio.sleep(0.1)
            assert now["viewers"] == 1 and now["state"] == "live", now
            assert "secure context" not in now["message"], now


async def test_an_mp4_viewer_joining_a_stream_that_plays_is_told_its_status(host: Any) -> None:
    with _camera(host, "Dock camera") as source_id:
        async with _live(host, source_id) as frames:
            await _until_a_frame(frames)  # the stream plays
            texts, _ = await mp4_of(host, source_id, 3)
    # the config and the status, as on joining any stream; not the frames' own word
    # that they are current (which would take the status' place)
    assert [t["type"] for t in texts] == ["config", "status"], texts
    assert texts[1]["state"] == "live", texts
