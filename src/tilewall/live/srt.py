"""SRT input through the system's ``ffmpeg``.

PyAV's wheel carries FFmpeg without libsrt, so an ``srt://`` source is read by an
``ffmpeg`` child (Debian's has libsrt) that calls the source and copies its MPEG-TS,
untouched, to a pipe, which PyAV opens as an MPEG-TS file (``open_srt``). The child may
use no protocol but SRT, and nothing it is given or says (a passphrase, a user and
password in the URL) reaches a log or a message unredacted.
"""

from __future__ import annotations

import functools
import logging
import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Iterator
from typing import IO, Any, Self

import av

from tilewall.host.content.live import redact, redact_text
from tilewall.live.failure import InputFailed

log = logging.getLogger(__name__)


class SrtError(RuntimeError):
    """SRT cannot be read on this host (no ffmpeg, or one without libsrt)."""


@functools.cache
def _has_srt(ffmpeg: str) -> bool:
    listed = subprocess.run(
        [ffmpeg, "-hide_banner", "-protocols"], capture_output=True, text=True, timeout=10
    )
    inputs = listed.stdout.partition("Input:")[2].partition("Output:")[0]
    return "srt" in inputs.split()


def find_ffmpeg(name: str = "ffmpeg") -> str:
    """The path of an ``ffmpeg`` with SRT support, or SrtError saying what is missing."""
    path = shutil.which(name)
    if path is None:
        raise SrtError(f"SRT needs {name!r}, which is not installed (Debian: apt install ffmpeg)")
    if not _has_srt(path):
        raise SrtError(f"{path} was built without SRT (libsrt): SRT sources cannot be read")
    return path


class SrtRemux:
    """An ``ffmpeg`` child calling an SRT source and writing its MPEG-TS to ``stdout``.

    ``read_timeout`` (seconds): how long the source may send nothing before the child
    gives up, so a dead source ends the stream (EOF on ``stdout``) and ``error`` says why.
    """

    def __init__(
        self,
        url: str,
        *,
        ffmpeg: str = "ffmpeg",
        connect_timeout: float = 3.0,
        read_timeout: float = 3.0,
    ) -> None:
        if not url.startswith("srt://"):
            raise ValueError(f"not an SRT URL: {redact(url)}")
        self.url = url
        self._ffmpeg = ffmpeg
        self._connect_ms = round(connect_timeout * 1000)
        self._read_us = round(read_timeout * 1_000_000)
        self._process: subprocess.Popen[bytes] | None = None
        self._said: deque[str] = deque(maxlen=20)
        self._drain: threading.Thread | None = None
        self._stopped = False

    def command(self, ffmpeg: str) -> list[str]:
        return [
            ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error",
            "-protocol_whitelist", "srt,udp",
            # a caller gives up connecting, a listener waiting for its caller, a stream
            # going silent: each ends the child, so nothing waits on the pipe for ever
            "-connect_timeout", str(self._connect_ms),
            "-listen_timeout", str(self._connect_ms * 1000), "-timeout", str(self._read_us),
            # a copy needs little look at the stream first; what is read then is passed
            # on too (no "nobuffer", which would drop it: often the first key frame)
            "-analyzeduration", "200000",
            "-i", self.url, "-map", "0", "-c", "copy", "-f", "mpegts", "-flush_packets", "1",
            "pipe:1",
        ]  # fmt: skip

    def start(self) -> None:
        """Starts the child (SrtError if there is no ``ffmpeg`` with SRT)."""
        if self._process is not None:
            raise RuntimeError("already started")
        command = self.command(find_ffmpeg(self._ffmpeg))
        log.debug("SRT input: %s", redact_text(" ".join(command), self.url))
        # unbuffered: PyAV's read(n) gets what the pipe holds now, not a wait for n bytes
        self._process = subprocess.Popen(
            command,
            bufsize=0,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._drain = threading.Thread(target=self._read_stderr, name="srt-stderr", daemon=True)
        self._drain.start()

    def _read_stderr(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        for raw in self._process.stderr:
            line = redact_text(raw.decode(errors="replace").strip(), self.url)
            line = line.removeprefix(f"{redact(self.url)}: ")  # error() names the source
            if line:
                self._said.append(line)
                log.debug("SRT input: %s", line)

    @property
    def stdout(self) -> IO[bytes]:
        """The MPEG-TS the source sends (EOF when the child ends)."""
        if self._process is None or self._process.stdout is None:
            raise RuntimeError("not started")
        return self._process.stdout

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    @property
    def returncode(self) -> int | None:
        return None if self._process is None else self._process.poll()

    def wait(self, timeout: float) -> int | None:
        """The child's exit status once it ends within ``timeout`` s, else None."""
        if self._process is None:
            return None
        try:
            return self._process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def error(self) -> str | None:
        """Why the child ended, in words and redacted; None while it runs or if it was
        stopped. A live source has no end: one that stops sending is a failure too."""
        code = self.returncode
        if code is None or self._stopped:
            return None
        if self._drain is not None:
            self._drain.join(timeout=1)  # its last words
        said = "; ".join(self._said)
        if not said:
            said = "the source stopped sending" if code == 0 else f"ffmpeg failed ({code})"
        return f"SRT source {redact(self.url)}: {said}"

    def stop(self, timeout: float = 2.0) -> None:
        """Ends the child: TERM, then KILL after ``timeout``; reaps it and closes its pipes."""
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            self._stopped = True
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._drain is not None:
            self._drain.join(timeout=1)  # stderr is at its end now that the child is gone
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


#: FFmpeg options that mean something for the MPEG-TS on the pipe (the others are the
#: socket's, which the child has)
_DEMUX_OPTIONS = ("probesize", "analyzeduration", "fflags", "flags")


class SrtInput:
    """A PyAV input container reading an ``SrtRemux``'s pipe; ``close`` ends both. Its
    ``demux`` raises ``InputFailed`` with the child's words when the source fails."""

    def __init__(self, container: Any, remux: SrtRemux) -> None:
        self._container, self.remux = container, remux

    @property
    def streams(self) -> Any:
        return self._container.streams

    def demux(self, *streams: Any) -> Iterator[Any]:
        yield from self._container.demux(*streams)
        self.remux.wait(1.0)
        reason = self.remux.error()
        if reason is not None:
            raise InputFailed(reason)

    def close(self) -> None:
        try:
            self._container.close()
        finally:
            self.remux.stop()


def open_srt(url: str, options: dict[str, str], timeout: tuple[float, float]) -> SrtInput:
    """``url`` opened through an ``SrtRemux`` (``timeout``: to connect, to wait for data);
    ``InputFailed`` with the reason in words if it cannot be."""
    remux = SrtRemux(url, connect_timeout=timeout[0], read_timeout=timeout[1])
    try:
        remux.start()
    except SrtError as error:
        raise InputFailed(str(error), lasting=True) from None
    opts = {k: v for k, v in options.items() if k in _DEMUX_OPTIONS}
    # PyAV's timeout cannot interrupt a read of a Python file: should the child hang
    # without ending, stopping it ends the read
    watchdog = threading.Timer(sum(timeout) + 2.0, remux.stop)
    watchdog.start()
    try:
        container = av.open(remux.stdout, "r", format="mpegts", options=opts)
    except Exception:
        watchdog.cancel()
        remux.wait(1.0)
        reason = remux.error()
        remux.stop()
        if reason is not None:
            raise InputFailed(reason) from None
        raise InputFailed(f"SRT source {redact(url)}: no stream came") from None
    watchdog.cancel()
    return SrtInput(container, remux)
