"""SRT input through the system's ``ffmpeg``.

PyAV's wheel carries FFmpeg without libsrt, so an ``srt://`` source is read by an
``ffmpeg`` child (Debian's has libsrt) that calls the source and copies its MPEG-TS,
untouched, to a pipe; PyAV opens the pipe as an MPEG-TS file (``av.open(remux.stdout,
format="mpegts")``). The child may use no protocol but SRT, and nothing it is given or
says (a passphrase, a user and password in the URL) reaches a log unredacted.
"""

from __future__ import annotations

import functools
import logging
import re
import shutil
import subprocess
import threading
from collections import deque
from typing import IO, Self

log = logging.getLogger(__name__)

_SECRETS = (
    (re.compile(r"(passphrase=)[^&\s'\"]*", re.IGNORECASE), r"\1***"),
    (re.compile(r"(://)[^/@\s'\"]+@"), r"\1***@"),
)


def redact(text: str) -> str:
    """``text`` with SRT passphrases and URL credentials replaced by ``***``."""
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class SrtError(RuntimeError):
    """The SRT input cannot be read; the message says why, with no secret in it."""


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
        raise SrtError(f"{path} was built without SRT (libsrt); SRT sources cannot be read")
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
        self._stderr: deque[str] = deque(maxlen=20)
        self._drain: threading.Thread | None = None

    def command(self, ffmpeg: str) -> list[str]:
        return [
            ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error",
            "-protocol_whitelist", "srt,udp",
            "-connect_timeout", str(self._connect_ms), "-timeout", str(self._read_us),
            # a copy needs no look at the stream first: start passing it on at once
            "-fflags", "nobuffer", "-analyzeduration", "200000",
            "-i", self.url, "-map", "0", "-c", "copy", "-f", "mpegts", "-flush_packets", "1",
            "pipe:1",
        ]  # fmt: skip

    def start(self) -> None:
        """Starts the child (SrtError if there is no ``ffmpeg`` with SRT)."""
        if self._process is not None:
            raise RuntimeError("already started")
        command = self.command(find_ffmpeg(self._ffmpeg))
        log.debug("SRT input: %s", redact(" ".join(command)))
        self._process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self._drain = threading.Thread(target=self._read_stderr, name="srt-stderr", daemon=True)
        self._drain.start()

    def _read_stderr(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        for raw in self._process.stderr:
            line = redact(raw.decode(errors="replace").strip())
            if line:
                self._stderr.append(line)
                log.debug("SRT input: %s", line)

    @property
    def stdout(self) -> IO[bytes]:
        """The MPEG-TS the source sends (EOF when the child ends)."""
        if self._process is None or self._process.stdout is None:
            raise RuntimeError("not started")
        return self._process.stdout

    @property
    def returncode(self) -> int | None:
        return None if self._process is None else self._process.poll()

    def error(self) -> str | None:
        """Why the child ended, in words (redacted), or None while it runs or if it ended
        because it was stopped."""
        code = self.returncode
        if code is None or code == 0 or self._process is None or self._stopped:
            return None
        if self._drain is not None:
            self._drain.join(timeout=1)
        said = "; ".join(self._stderr) or f"ffmpeg exited with status {code}"
        return f"SRT source {redact(self.url)}: {said}"

    _stopped = False

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
