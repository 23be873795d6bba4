"""The one rule for a stream source's URL: which URLs a "Network Streamer" or
"RTSP Streamer" may name, which of them the host relays live, and how a URL is written
where people read it (logs, status) without its credentials.

- Played by the receiver's ``<video>`` directly: a ``/media/`` path, and an
  ``http(s)`` URL of a file.
- Relayed live by the host (opened once, frames sent to receivers over
  ``/live/<sourceId>``): ``rtsp``, ``rtsps``, ``srt``, ``rtmp``, ``rtmps``, ``udp`` and
  ``rtp`` URLs, and an ``http(s)`` URL of an HLS playlist (``.m3u8``/``.m3u``), of an
  MPEG-TS stream (``.ts``), or ending in the hint ``#live``.

Only the form is checked, never whether the address answers. Every other scheme
(``file:``, ``concat:``, ``data:``, ``subfile:``, ``pipe:``, ...) is refused: those would
make FFmpeg read the host's own files or processes.
"""

import re
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import SplitResult, parse_qsl, urlencode, urlsplit, urlunsplit

from tilewall.host.errors import Invalid

MEDIA_PREFIX = "/media/"
#: schemes the host opens itself, never a receiver
LIVE_SCHEMES = ("rtsp", "rtsps", "srt", "rtmp", "rtmps", "udp", "rtp")
#: schemes whose address may be a bare port on every interface (a listener)
_DATAGRAM = ("udp", "rtp", "srt")
WEB_SCHEMES = ("http", "https")
#: an http(s) path ending so is a live stream (HLS playlist, MPEG-TS)
_LIVE_SUFFIXES = (".m3u8", ".m3u", ".ts")
#: the fragment that marks any http(s) URL as live (never sent to the server)
LIVE_HINT = "live"
TRANSPORTS = ("auto", "tcp", "udp")
#: query keys whose values are secrets (SRT's passphrase, cameras' ?password=)
_SECRET_KEYS = re.compile(r"pass|pwd|secret|token|key|auth|sig", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x20\x7f]")
HIDDEN = "***"

#: the scheme of a screen share's input (``share:<sourceId>``): frames the sharer's
#: browser sends to the host, not a URL the host opens
SHARE_SCHEME = "share"

LiveState = Literal["idle", "connecting", "live", "reconnecting", "failed"]


@dataclass(frozen=True)
class LiveStatus:
    """A live source as its relay sees it. ``message``: the state in words, with the
    reason of a failure (never the URL's secrets); the picture's facts are 0/"" until
    known. ``bitrate`` in bits per second of the input, ``viewers`` connections."""

    state: LiveState = "idle"
    message: str = "not shown anywhere: opened when a display shows it"
    codec: str = ""
    width: int = 0
    height: int = 0
    fps: float = 0.0
    bitrate: int = 0
    viewers: int = 0


@dataclass(frozen=True)
class LiveInput:
    """What the host opens for a live source: its URL (with its secrets: never log it;
    :func:`redact` it) and the RTSP transport (auto, tcp or udp). A desktop's or a
    capture device's input (``tilewall.host.content.screens``) also has a ``secret``
    (a VNC password, kept out of the URL and of ``repr``) or the picture asked for."""

    url: str
    transport: str = "auto"
    secret: str = field(default="", repr=False)
    width: int = 0
    height: int = 0
    fps: float = 0.0


def _refuse(name: str, value: str, why: str) -> Invalid:
    return Invalid(f"param {name!r} {why}, not {redact(value)!r}")


def check_stream_url(name: str, value: str) -> str:
    """``value`` (param ``name``) stripped, if it is a URL a stream source may play;
    else :class:`Invalid` saying what is accepted."""
    value = value.strip()
    if value.startswith(MEDIA_PREFIX) and not _CONTROL.search(value):
        return value
    if _CONTROL.search(value):
        raise _refuse(name, value, "must not contain spaces or control characters")
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        raise _refuse(name, value, "has a malformed address or port") from None
    scheme = parts.scheme.lower()
    if scheme in WEB_SCHEMES:
        if not parts.hostname:
            raise _refuse(name, value, "must name a host")
        return value
    if scheme not in LIVE_SCHEMES:
        accepted = ", ".join(f"{s}://" for s in (*LIVE_SCHEMES, *WEB_SCHEMES))
        raise _refuse(name, value, f"must be a {accepted} URL or a /media/ path")
    if not parts.hostname and not (scheme in _DATAGRAM and port):
        raise _refuse(name, value, f"must name a host ({scheme}://HOST:PORT)")
    if scheme in _DATAGRAM and not port:
        raise _refuse(name, value, f"must name a port ({scheme}://HOST:PORT)")
    return value


def check_page_url(name: str, value: str) -> str:
    """``value`` stripped, if it is an http(s) URL or a /media/ path (a web page)."""
    value = value.strip()
    parts = urlsplit(value)
    if value.startswith(MEDIA_PREFIX) or (parts.scheme in WEB_SCHEMES and parts.netloc):
        return value
    raise _refuse(name, value, "must be an http(s) URL or a /media/ path")


def is_live(url: str) -> bool:
    """Whether the host relays ``url`` (see the module's rules) rather than a receiver
    playing it as a file."""
    url = url.strip()
    if url.startswith(MEDIA_PREFIX):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    scheme = parts.scheme.lower()
    if scheme in LIVE_SCHEMES:
        return True
    if scheme not in WEB_SCHEMES:
        return False
    return parts.fragment == LIVE_HINT or parts.path.lower().endswith(_LIVE_SUFFIXES)


def share_input(source_id: str) -> LiveInput:
    """The input of the screen share ``source_id``: its sharer's frames."""
    return LiveInput(f"{SHARE_SCHEME}:{source_id}")


def scheme_of(url: str) -> str:
    return urlsplit(url.strip()).scheme.lower()


def input_url(url: str) -> str:
    """The URL to open: without the ``#live`` hint, which is ours, not the server's."""
    parts = urlsplit(url.strip())
    return urlunsplit(parts._replace(fragment="")) if parts.fragment else url.strip()


def _netloc(parts: SplitResult) -> str:
    netloc = parts.netloc
    if "@" not in netloc:
        return netloc
    userinfo, _, hostport = netloc.rpartition("@")
    if not userinfo:
        return netloc
    return f"{HIDDEN}@{hostport}"


def redact(url: str) -> str:
    """``url`` as it may be shown or logged: user and password, and query values that
    look secret, replaced by ``***``. Anything that is not a URL is returned as it is
    up to its first ``@`` or ``?`` (which could start a secret)."""
    try:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:
        return re.split(r"[@?]", url, maxsplit=1)[0]
    if query:
        hidden = [(k, HIDDEN if _SECRET_KEYS.search(k) else v) for k, v in query]
        parts = parts._replace(query=urlencode(hidden, safe="*"))
    return urlunsplit(parts._replace(netloc=_netloc(parts)))


def redact_text(text: str, url: str) -> str:
    """``text`` (an error message, say) with every secret of ``url`` taken out."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return text
    secrets = [parts.password, parts.username, url]
    secrets += [v for k, v in parse_qsl(parts.query) if _SECRET_KEYS.search(k)]
    for secret in sorted((s for s in secrets if s and len(s) > 1), key=len, reverse=True):
        text = text.replace(secret, redact(secret) if secret == url else HIDDEN)
    return text
