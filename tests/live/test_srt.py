"""SRT sources through the system's ffmpeg (tilewall.live.srt), against a real SRT
publisher (ffmpeg listening): the frames come through numbered upwards, every failure
comes back as a reason in words without the passphrase, and no child is left behind."""

import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import av
import pytest

from tests.support import live_sources as live
from tests.support.framecode import Pattern, read_frame_number
from tests.support.http import ok
from tests.support.live_process import free_port
from tests.support.live_publish import Seen, collect, viewer
from tests.support.live_reading import all_read, frames
from tests.support.server import running
from tests.support.sources import RTSP, source_body
from tests.support.topology import unique
from tilewall.live.failure import InputFailed
from tilewall.live.srt import SrtError, SrtRemux, open_srt

pytestmark = pytest.mark.live

SECRET = "correct-horse-battery-staple"


@pytest.fixture
def publisher() -> Iterator[live.Publisher]:
    with live.srt_publisher(Pattern(), passphrase=SECRET) as publisher:
        yield publisher


def gone(pid: int | None) -> bool:
    """No process (not even a zombie) has ``pid`` any more."""
    return pid is not None and not Path(f"/proc/{pid}").exists()


def test_frames_come_through_numbered_upwards_and_no_log_has_the_passphrase(
    publisher: live.Publisher, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="tilewall.live.srt")
    container = open_srt(publisher.url, {"analyzeduration": "500000"}, (5, 3))
    try:
        numbers = []
        for frame in frames(container, container.streams.video[0]):
            numbers.append(read_frame_number(frame.to_ndarray(format="rgb24")))
            if len(numbers) == 10:
                break
        assert container.streams.video[0].codec_context.name == "h264"
    finally:
        container.close()
    read = all_read(numbers)
    assert read == sorted(read) and len(set(read)) == 10, numbers
    assert caplog.records, "the child's command is logged at debug"
    assert all(SECRET not in record.getMessage() for record in caplog.records)
    assert any("passphrase=***" in record.getMessage() for record in caplog.records)
    assert gone(container.remux.pid)


def test_a_dead_publisher_ends_the_stream_with_a_reason_and_no_child_is_left(
    publisher: live.Publisher,
) -> None:
    container = open_srt(publisher.url, {}, (5, 2))
    read = 0
    with pytest.raises(InputFailed) as failed:
        for _packet in container.demux(container.streams.video[0]):
            read += 1
            if read == 30:
                publisher.kill()
    container.close()
    assert read >= 30
    reason = str(failed.value)
    assert reason.startswith("SRT source srt://127.0.0.1:"), reason
    assert SECRET not in reason and "passphrase=***" in reason
    assert gone(container.remux.pid)


def test_a_wrong_passphrase_is_refused_in_words_without_either_passphrase(
    publisher: live.Publisher,
) -> None:
    wrong = publisher.url.replace(SECRET, "not-the-right-one-at-all")
    with pytest.raises(InputFailed) as failed:
        open_srt(wrong, {}, (3, 3))
    assert "SRT source" in str(failed.value)
    assert SECRET not in str(failed.value) and "not-the-right-one" not in str(failed.value)


def test_nothing_listening_is_a_reason_too() -> None:
    port = free_port(socket.SOCK_DGRAM)
    with pytest.raises(InputFailed) as failed:
        open_srt(f"srt://127.0.0.1:{port}", {}, (1, 1))
    assert str(failed.value).startswith(f"SRT source srt://127.0.0.1:{port}: ")
    assert not failed.value.lasting


def test_a_listening_host_gets_the_frames_of_an_encoder_that_calls_it() -> None:
    with live.srt_caller(Pattern()) as encoder:
        container = open_srt(encoder.url, {}, (8, 3))
        try:
            numbers = []
            for frame in frames(container, container.streams.video[0]):
                numbers.append(read_frame_number(frame.to_ndarray(format="rgb24")))
                if len(numbers) == 5:
                    break
        finally:
            container.close()
    assert all_read(numbers) == sorted(all_read(numbers)), numbers
    assert gone(container.remux.pid)


def test_a_listening_host_that_no_one_calls_gives_up_in_time() -> None:
    port = free_port(socket.SOCK_DGRAM)
    with pytest.raises(InputFailed) as failed:
        open_srt(f"srt://127.0.0.1:{port}?mode=listener", {}, (1, 1))
    assert str(failed.value).startswith(f"SRT source srt://127.0.0.1:{port}?mode=listener: ")


def test_no_ffmpeg_is_a_lasting_failure_that_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(InputFailed) as failed:
        open_srt("srt://127.0.0.1:9000", {}, (1, 1))
    assert failed.value.lasting
    assert "'ffmpeg', which is not installed" in str(failed.value)


def test_an_ffmpeg_built_without_libsrt_is_a_lasting_failure_that_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # what `ffmpeg -protocols` prints when built without libsrt (shortened)
    ffmpeg = tmp_path / "ffmpeg"
    ffmpeg.write_text(
        "#!/bin/sh\nprintf 'Supported file protocols:\\nInput:\\n  file\\n  http\\n"
        "  udp\\nOutput:\\n  file\\n  udp\\n'\n"
    )
    ffmpeg.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(InputFailed) as failed:
        open_srt("srt://127.0.0.1:9000", {}, (1, 1))
    assert failed.value.lasting
    assert "built without SRT (libsrt)" in str(failed.value)


def test_only_srt_urls_and_the_child_is_stopped_and_reaped() -> None:
    with pytest.raises(ValueError, match=r"not an SRT URL: udp://\*\*\*@"):
        SrtRemux("udp://user:pw@127.0.0.1:5000")
    port = free_port(socket.SOCK_DGRAM)
    remux = SrtRemux(f"srt://127.0.0.1:{port}", connect_timeout=30)
    remux.start()
    assert remux.returncode is None  # still trying to connect
    remux.stop()
    assert remux.returncode is not None and remux.error() is None
    assert gone(remux.pid)
    with pytest.raises(SrtError):
        SrtRemux("srt://127.0.0.1:1", ffmpeg="tilewall-no-such-ffmpeg").start()


# --- through the host: an SRT camera relayed to a viewer ---------------------------------


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from running(tmp_path_factory, "srt", in_process=True)


def numbers_of(seen: Seen) -> list[int | None]:
    """The frame numbers of the H.264 access units a viewer got, decoded from its first
    key frame on, as a receiver decodes them."""
    codec = av.CodecContext.create("h264", "r")
    first_key = next(i for i, f in enumerate(seen.frames) if f.key)
    numbers = []
    for frame in seen.frames[first_key:]:
        for picture in codec.decode(av.Packet(frame.data)):
            numbers.append(read_frame_number(picture.to_ndarray(format="rgb24")))
    return numbers


async def test_the_host_relays_an_srt_camera_and_comes_back_after_an_outage(
    host: Any, publisher: live.Publisher
) -> None:
    body = source_body(RTSP, unique("SRT camera"), URL=publisher.url)
    source_id = str(ok(host.api.post("/sources", json=body))["sourceId"])
    async with viewer(host.url, source_id, str(host.api.session)) as socket:
        seen = await collect(socket, Seen(), lambda s: len(s.frames) >= 30, timeout=30)
        status = ok(host.api.get(f"/sources/{source_id}/status"))
        assert status["state"] == "live" and status["codec"] == "h264"
        assert (status["width"], status["height"]) == (640, 360)
        numbers = all_read(numbers_of(seen))
        assert len(numbers) >= 20
        assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)

        publisher.kill()
        await collect(socket, seen, lambda s: "reconnecting" in s.states(), timeout=15)
        status = ok(host.api.get(f"/sources/{source_id}/status"))
        assert status["message"].startswith("SRT source srt://127.0.0.1:"), status
        assert SECRET not in str(status) + str(seen.texts)

        stopped_at = len(seen.frames)
        publisher.start()
        await collect(socket, seen, lambda s: len(s.frames) > stopped_at + 30, timeout=30)
        after = numbers_of(Seen(frames=seen.frames[stopped_at:]))
        assert None not in after and after[0] > numbers[-1]  # type: ignore[operator]
        assert seen.states()[-1] == "live"
