"""Opening a live input with FFmpeg (through PyAV): the options each scheme needs, its
protocol whitelist (a URL can reach nothing but its own protocols: never a local file),
and FFmpeg's failures put in words a person acts on."""

import errno
import logging
from typing import Any

import av
import av.error

from tilewall.host.content import live, screens
from tilewall.host.content.live import LiveInput
from tilewall.live import capture
from tilewall.live.failure import InputFailed

#: seconds to open an input, and to wait for its next packet before giving it up
OPEN_TIMEOUT_S = 5.0
READ_TIMEOUT_S = 3.0

#: FFmpeg protocols each scheme may use, nested ones included (RTSP's RTP over UDP,
#: TLS under rtsps/https, HLS playlists naming their segments over http(s))
_WHITELISTS = {
    "rtsp": "rtsp,rtp,udp,tcp,tls,crypto,srtp",
    "rtsps": "rtsp,rtsps,rtp,udp,tcp,tls,crypto,srtp",
    "rtmp": "rtmp,tcp",
    "rtmps": "rtmps,rtmp,tcp,tls",
    "udp": "udp",
    "rtp": "rtp,udp",
    "http": "http,https,tcp,tls,crypto,hls",
    "https": "http,https,tcp,tls,crypto,hls",
    # SRT comes through a child process's pipe (tilewall.live.srt)
    "srt": "pipe",
}


def quiet_ffmpeg() -> None:
    """FFmpeg's own log off: it would print URLs (and their passwords) and a line for
    every late packet; failures reach us as exceptions."""
    av.logging.set_level(av.logging.PANIC)
    logging.getLogger("libav").setLevel(logging.CRITICAL)


def options(source: LiveInput) -> dict[str, str]:
    """The FFmpeg options to open ``source`` with: its whitelist, low-delay demuxing, a
    socket timeout, and for RTSP the transport."""
    scheme = live.scheme_of(source.url)
    opts = {
        "protocol_whitelist": _WHITELISTS.get(scheme, "none"),
        # open without probing the stream's packets: the container (RTSP's SDP,
        # MPEG-TS's tables, FLV's header) names the codec, and the picture's size is read
        # from the first key frame (coding.Passthrough); a probe would hold a switch to a
        # camera up for a second. No "nobuffer": it drops the packets read while opening,
        # and the one read then is often the key frame (an encoder's tables come just
        # before it, a camera starts on one), so a cold viewer would wait a whole GOP
        "flags": "low_delay",
        "probesize": "32",
        "analyzeduration": "0",
        "rw_timeout": str(int(READ_TIMEOUT_S * 1_000_000)),
    }
    if scheme in ("rtsp", "rtsps"):
        opts["timeout"] = str(int(READ_TIMEOUT_S * 1_000_000))
        # auto: FFmpeg's own way, UDP first and TCP when UDP is refused or stays silent
        if source.transport in ("tcp", "udp"):
            opts["rtsp_transport"] = source.transport
    if scheme in ("udp", "rtp"):
        opts["overrun_nonfatal"] = "1"
        opts["fifo_size"] = "1000000"
        opts["buffer_size"] = "4000000"
    if scheme == "rtp":
        # MPEG-TS in RTP names its streams' codecs only in its tables, which the first
        # packets read may not hold yet (then its one stream is of no known type, 1 open
        # in 2 right after the sender starts): read on until they came. The packets read
        # meanwhile are kept for the demuxer, so the first picture comes no later.
        opts["probesize"] = "500000"
        opts["analyzeduration"] = "500000"
    if scheme in ("http", "https"):
        opts["reconnect"] = "0"
        # an HLS playlist's streams are found in its first segment: probe that much
        opts["probesize"] = "500000"
        opts["analyzeduration"] = "500000"
    return opts


def open_input(source: LiveInput) -> Any:
    """The opened container of ``source`` (a PyAV ``InputContainer``).

    Raises :class:`InputFailed` with the reason in words."""
    scheme = live.scheme_of(source.url)
    if scheme == screens.CAPTURE_SCHEME:
        return capture.open_device(source)
    url = live.input_url(source.url)
    try:
        if scheme == "srt":
            return _open_srt(url, options(source))
        return av.open(url, "r", options=options(source), timeout=(OPEN_TIMEOUT_S, READ_TIMEOUT_S))
    except Exception as error:
        raise failure(error, source) from None


def _open_srt(url: str, opts: dict[str, str]) -> Any:
    """SRT through Debian's ffmpeg (PyAV's FFmpeg has no libsrt), remuxed to MPEG-TS on
    a pipe (``tilewall.live.srt``)."""
    from tilewall.live.srt import open_srt  # it imports this module

    return open_srt(url, opts, (OPEN_TIMEOUT_S, READ_TIMEOUT_S))


_REASONS: list[tuple[type[BaseException], str, bool]] = [
    (
        av.error.HTTPUnauthorizedError,
        "401 unauthorized: wrong or missing user name or password",
        True,
    ),
    (av.error.HTTPForbiddenError, "403 forbidden: the user may not read this stream", True),
    (av.error.HTTPNotFoundError, "404 no such stream at that address", True),
    (av.error.HTTPClientError, "the server refused the request", True),
    (av.error.HTTPServerError, "the server failed to answer (5xx)", False),
    (av.error.ConnectionRefusedError, "connection refused: nothing listens at that address", False),
    (av.error.ConnectionResetError, "connection reset by the server", False),
    (av.error.TimeoutError, "timeout: no answer from the source", False),
    (av.error.ExitError, "timeout: no answer from the source", False),
    (av.error.DecoderNotFoundError, "unsupported codec", True),
    (av.error.ProtocolNotFoundError, "unsupported protocol", True),
    (av.error.EOFError, "the stream ended", False),
    (av.error.InvalidDataError, "the source sent no stream that can be read", False),
]
_ERRNO = {
    errno.ECONNREFUSED: "connection refused: nothing listens at that address",
    errno.EHOSTUNREACH: "host unreachable",
    errno.ENETUNREACH: "network unreachable",
    errno.ETIMEDOUT: "timeout: no answer from the source",
    errno.ECONNRESET: "connection reset by the server",
    errno.EIO: "input/output error",
}


def failure(error: BaseException, source: LiveInput) -> InputFailed:
    """``error`` from FFmpeg or a socket as an :class:`InputFailed`, its words free of the
    URL's secrets."""
    if isinstance(error, InputFailed):
        return error
    for kind, reason, lasting in _REASONS:
        if isinstance(error, kind):
            return InputFailed(reason, lasting)
    if isinstance(error, OSError) and error.errno in _ERRNO:
        return InputFailed(_ERRNO[error.errno])
    text = str(error) or type(error).__name__
    if "resolve" in text.lower() or "name or service" in text.lower():
        return InputFailed("host name not found", False)
    return InputFailed(live.redact_text(text, source.url)[:200])
