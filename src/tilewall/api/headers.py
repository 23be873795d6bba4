"""Security headers on every answer, and no CORS grants ever.

Every HTTP answer says ``X-Content-Type-Options: nosniff`` and
``Referrer-Policy: no-referrer``. The console and the receiver page get a
Content-Security-Policy that allows only what each uses:

- the console (and its screen-share page ``/share/``): its own scripts and styles and
  ``/api`` (and the share's WebSocket, on the same origin); no inline code; its live
  previews show what displays show (media and web pages from any HTTP(S) address); it
  may not be framed (``frame-ancestors 'none'``);
- the receiver: its own scripts and styles; images, video and frames from anywhere over
  HTTP(S), since a Web Browser source shows any page in an iframe and a Network Streamer
  plays any URL; WebSockets to any host (the members of a host group).

No ``Access-Control-Allow-*`` header ever leaves the host: browsers refuse other
origins' scripts the interface.
"""

from litestar.enums import ScopeType
from litestar.types import Message, Scope

CONSOLE_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        # live previews show what displays show: media and web pages from anywhere
        "img-src 'self' data: blob: http: https:",
        "media-src 'self' blob: http: https:",
        "frame-src http: https:",
        "connect-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
    ]
)

RECEIVER_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob: http: https:",
        "media-src 'self' data: blob: http: https:",
        "connect-src 'self' ws: wss:",
        "font-src 'self' data:",
        "worker-src 'self'",
        "manifest-src 'self'",
        "frame-src http: https:",
        "base-uri 'none'",
        "form-action 'none'",
        "object-src 'none'",
        "frame-ancestors 'self'",
    ]
)

COMMON = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]
_CONSOLE = [
    *COMMON,
    (b"content-security-policy", CONSOLE_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
]
_RECEIVER = [
    *COMMON,
    (b"content-security-policy", RECEIVER_POLICY.encode()),
    (b"x-frame-options", b"SAMEORIGIN"),
]
_CONSOLE_PATHS = ("/", "/console.css")
#: the screen-share page is a page of the console's (its scripts, the interface)
_SHARE_PAGE = "/share/"


def headers_for(path: str) -> list[tuple[bytes, bytes]]:
    """The headers an answer on ``path`` gets."""
    if path.startswith("/receiver"):
        return _RECEIVER
    if path in _CONSOLE_PATHS or path.startswith(("/js/", _SHARE_PAGE)):
        return _CONSOLE
    return COMMON


async def security_headers(message: Message, scope: Scope) -> None:
    """A ``before_send`` hook (so it also sees answers no route handled): adds
    :func:`headers_for` to every HTTP answer, keeping any the handler set (such as a
    media file's own policy), and drops CORS grants."""
    if scope["type"] != ScopeType.HTTP or message["type"] != "http.response.start":
        return
    headers = [
        (name, value)
        for name, value in message.get("headers", [])
        if not name.lower().startswith(b"access-control-allow-")
    ]
    present = {name.lower() for name, _ in headers}
    headers += [(name, value) for name, value in headers_for(scope["path"]) if name not in present]
    message["headers"] = headers
