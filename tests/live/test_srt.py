"""SRT sources through the system's ffmpeg (tilewall.live.srt), against a real SRT
publisher (ffmpeg listening): the frames come through numbered upwards, every failure
comes back as a reason in words without the passphrase, and no child is left behind."""

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import live_sources as live
from tests.support.framecode import Pattern, read_frame_number
from tilewall.live.opening import InputFailed
from tilewall.live.srt import SrtError, SrtRemux, open_srt

pytestmark = pytest.mark.live

SECRET = "correct horse battery"


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
        for frame in live.frames(container, container.streams.video[0]):
            numbers.append(read_frame_number(frame.to_ndarray(format="rgb24")))
            if len(numbers) == 10:
                break
        assert container.streams.video[0].codec_context.name == "h264"
    finally:
        container.close()
    assert None not in numbers
    assert numbers == sorted(numbers) and len(set(numbers)) == 10, numbers
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
    wrong = publisher.url.replace(SECRET, "not the right one at all")
    with pytest.raises(InputFailed) as failed:
        open_srt(wrong, {}, (3, 3))
    assert "SRT source" in str(failed.value)
    assert SECRET not in str(failed.value) and "not the right one" not in str(failed.value)


def test_nothing_listening_is_a_reason_too() -> None:
    port = live.free_port(live.socket.SOCK_DGRAM)
    with pytest.raises(InputFailed) as failed:
        open_srt(f"srt://127.0.0.1:{port}", {}, (1, 1))
    assert str(failed.value).startswith(f"SRT source srt://127.0.0.1:{port}: ")
    assert not failed.value.lasting


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
    port = live.free_port(live.socket.SOCK_DGRAM)
    remux = SrtRemux(f"srt://127.0.0.1:{port}", connect_timeout=30)
    remux.start()
    assert remux.returncode is None  # still trying to connect
    remux.stop()
    assert remux.returncode is not None and remux.error() is None
    assert gone(remux.pid)
    with pytest.raises(SrtError):
        SrtRemux("srt://127.0.0.1:1", ffmpeg="tilewall-no-such-ffmpeg").start()
