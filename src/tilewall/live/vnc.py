"""A desktop over VNC as a live input: one view-only RFB connection for every viewer,
the desktop encoded once to H.264 (``tilewall.live.encoding``) when it changes.

The RFB protocol is vncdotool's (``VNCDoToolClient``, a Twisted protocol, with its
framebuffer kept as a Pillow image); it is driven here on a plain blocking socket in
the reader's thread, as Twisted protocols may be driven by any transport, so no reactor
runs in the host. The client asks for RAW and CopyRect updates: vncdotool decodes them
without per-pixel Python (its ZRLE and Hextile decoders loop over pixels in Python, far
too slow for a full desktop; docs/live.md has the figures).

A frame is encoded when the desktop changed (at most :data:`MAX_FPS` a second) and, when
it did not, every :data:`IDLE_S` seconds, so receivers see a source that is alive (they
mark a picture that has had no frame for a second) and a joining receiver's key frame
(every :data:`KEY_S` seconds) is never far back. The password goes to the VNC server
and nowhere else. No input is ever sent: no key, pointer or clipboard event."""

from __future__ import annotations

import socket
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any
from urllib.parse import urlsplit

from PIL import Image
from vncdotool import client as vnc_client
from vncdotool import rfb

from tilewall.host.content.live import LiveInput
from tilewall.host.ports import Clock
from tilewall.live.encoding import H264Encoder
from tilewall.live.failure import InputFailed
from tilewall.live.latency import Latency
from tilewall.live.opening import OPEN_TIMEOUT_S, READ_TIMEOUT_S, failure
from tilewall.live.units import Picture, Sink

# RFB's password check is single DES, which cryptography now files as decrepit; it is
# what the protocol is, nothing to warn an operator about at every login
warnings.filterwarnings("ignore", message="TripleDES has been moved", module="vncdotool")

MAX_FPS = 30.0
IDLE_S = 0.5
KEY_S = 2.0
#: with nothing heard for this long, ask for one pixel: a server must answer that
PROBE_S = 1.0
CODEC = "rfb"
_MS = Fraction(1, 1000)
#: what the client offers; CopyRect first, as servers take the first they can
_ENCODINGS = [
    rfb.Encoding.COPY_RECTANGLE,
    rfb.Encoding.RAW,
    rfb.Encoding.PSEUDO_DESKTOP_SIZE,
    rfb.Encoding.PSEUDO_LAST_RECT,
]


class _Transport:
    """The little of a Twisted transport the RFB protocol uses, over a socket."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self.lost = False

    def write(self, data: bytes) -> None:
        if not self.lost:
            self._sock.sendall(data)

    def writeSequence(self, data: list[bytes]) -> None:
        self.write(b"".join(data))

    def loseConnection(self) -> None:
        self.lost = True


class _Factory(vnc_client.VNCDoToolFactory):  # type: ignore[misc]
    """The connection's settings and what became of it (no Deferreds: no reactor)."""

    shared = True  # other viewers of the desktop stay connected
    pseudocursor = False  # the server draws the pointer into the picture
    nocursor = False

    def __init__(self, password: str) -> None:
        self.password = password or None
        self.username = None
        self.ready = False
        self.failure: InputFailed | None = None

    def clientConnectionFailed(self, connector: Any, reason: Any) -> None:
        error = getattr(reason, "value", reason)
        self.failure = _auth_failure(error)

    def clientConnectionMade(self, protocol: Any) -> None:
        self.ready = True

    def clientConnectionLost(self, connector: Any, reason: Any) -> None:
        pass


def _auth_failure(error: BaseException) -> InputFailed:
    text = str(error)
    if isinstance(error, vnc_client.AuthenticationError):
        if "none provided" in text:
            return InputFailed("the VNC server asks for a password and the source has none", True)
        if "too many" in text.lower():
            return InputFailed("the VNC server refuses: too many failed logins, waiting", True)
        return InputFailed(f"wrong password: the VNC server refused it ({text[:80]})", True)
    if "security types" in text:
        return InputFailed(
            "the VNC server offers no security type this client has (VNC password or none)",
            True,
        )
    return InputFailed(f"the server does not speak VNC as expected: {text[:120]}")


class _Desktop(vnc_client.VNCDoToolClient):  # type: ignore[misc]
    """The RFB client: keeps the picture, says when it changed, asks for the next change."""

    def __init__(self) -> None:
        super().__init__()
        self.changed = False
        self.updates = 0

    def vncConnectionMade(self) -> None:
        # the whole desktop from the start (vncdotool would take the first rectangle
        # for it, and grow it rectangle by rectangle)
        self.screen = Image.new("RGB", (self.width, self.height), "black")
        self.setImageMode()
        self.setEncodings(_ENCODINGS)
        self.framebufferUpdateRequest(incremental=False)
        self.factory.clientConnectionMade(self)

    def copyRectangle(self, srcx: int, srcy: int, x: int, y: int, width: int, height: int) -> None:
        if self.screen is not None:
            part = self.screen.crop((srcx, srcy, srcx + width, srcy + height))
            self.screen.paste(part, (x, y))

    def commitUpdate(self, rectangles: list[Any] | None = None) -> None:
        self.updates += 1
        if rectangles:
            self.changed = True
        self.framebufferUpdateRequest(incremental=True)


def address(source: LiveInput) -> tuple[str, int]:
    parts = urlsplit(source.url)
    return parts.hostname or "", parts.port or 5900


class _Session:
    """One connection to the VNC server, from greeting to failure."""

    def __init__(self, source: LiveInput) -> None:
        self._source = source
        try:
            self._sock = socket.create_connection(address(source), timeout=OPEN_TIMEOUT_S)
        except OSError as error:
            raise failure(error, source) from None
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.factory = _Factory(source.secret)
        self.desktop = _Desktop()
        self.desktop.factory = self.factory
        self._transport = _Transport(self._sock)
        self.desktop.makeConnection(self._transport)
        self.bytes_in = 0
        self._heard = time.monotonic()
        self._probed = 0.0

    def close(self) -> None:
        self._sock.close()

    def read(self, wait_s: float) -> None:
        """Take what the server sent within ``wait_s``; raises :class:`InputFailed`."""
        self._sock.settimeout(max(wait_s, 0.001))
        try:
            data = self._sock.recv(1 << 20)
        except TimeoutError:
            data = None
        except OSError as error:
            raise failure(error, self._source) from None
        now = time.monotonic()
        if data == b"":
            raise self.factory.failure or InputFailed("the VNC server closed the connection")
        if data:
            self._heard = now
            self.bytes_in += len(data)
            try:
                self.desktop.dataReceived(data)
            except OSError as error:
                raise failure(error, self._source) from None
        if self.factory.failure is not None:
            raise self.factory.failure
        if self._transport.lost:
            raise InputFailed("the VNC server ended the session")
        self._probe(now)

    def _probe(self, now: float) -> None:
        silent = now - self._heard
        if silent > READ_TIMEOUT_S:
            what = "no answer from the VNC server" if self.factory.ready else "no VNC greeting"
            raise InputFailed(f"timeout: {what}")
        if self.factory.ready and silent > PROBE_S and now - self._probed > PROBE_S:
            self._probed = now
            self.desktop.framebufferUpdateRequest(0, 0, 1, 1, incremental=False)


def pull(
    source: LiveInput,
    sink: Sink,
    clock: Clock,
    latency: Latency,
    stopped: threading.Event,
    on_encoder: Callable[[], None],
) -> bool:
    """Show the desktop of ``source`` until it fails or ``stopped``; whether any frame
    was sent. Raises :class:`InputFailed`."""
    session = _Session(source)
    ran = False
    encoder: H264Encoder | None = None
    started = time.monotonic()
    sent_at = last_key = 0.0
    size_in = 0
    shown: Picture | None = None
    try:
        while not stopped.is_set():
            now = time.monotonic()
            due = sent_at + (1 / MAX_FPS if session.desktop.changed else IDLE_S)
            session.read(min(max(due - now, 0.0), 0.1) if encoder else 0.1)
            screen = session.desktop.screen
            now = time.monotonic()
            if screen is None or not session.desktop.updates:
                continue  # nothing until the first whole picture came
            if not (session.desktop.changed and now - sent_at >= 1 / MAX_FPS) and (
                now - sent_at < IDLE_S
            ):
                continue
            session.desktop.changed = False
            size = (screen.width & ~1, screen.height & ~1)
            if encoder is None or encoder.size != size:
                encoder = H264Encoder(size, MAX_FPS, _MS)
                on_encoder()
                last_key = 0.0
            key = now - last_key >= KEY_S
            last_key = now if key else last_key
            units = encoder.encode_image(screen, int((now - started) * 1000), 0.0, key)
            # shown the delay after it is ready: the picture's instant is the host's own
            # (no source clock whose rhythm to keep, as timing.Presenter keeps a camera's,
            # and with frames seconds apart a stall of the host would be caught up slowly)
            at = clock.exact_ms() + latency.ms
            units = [replace(unit, at=at) for unit in units]
            sent_at = now
            size_in, session.bytes_in = session.bytes_in, 0
            for unit in units:
                if unit.key:
                    picture = encoder.picture()
                    if picture is not None and picture != shown:
                        shown = picture
                        sink.picture(picture, CODEC, True)
                ran = True
                sink.unit(unit, size_in)
                size_in = 0
        return ran
    finally:
        session.close()
