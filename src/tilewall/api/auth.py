"""The session cookie, read leniently: real clients send it with other cookies,
attributes, odd spacing or quotes."""

from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.handlers.base import BaseRouteHandler

from tilewall.api.common import host_of

COOKIE = "JSESSIONID"


def session_token(cookie_header: str) -> str:
    """The value of JSESSIONID in a Cookie header (the last one wins), or ''."""
    token = ""
    for part in cookie_header.split(";"):
        name, sep, value = part.strip().partition("=")
        if sep and name.strip() == COOKIE:
            token = value.strip().strip('"')
    return token


def token_of(connection: ASGIConnection) -> str:  # type: ignore[type-arg]
    return session_token(",".join(connection.headers.getall("cookie", [])).replace(",", ";"))


async def require_session(connection: ASGIConnection, handler: BaseRouteHandler) -> None:  # type: ignore[type-arg]
    if handler.opt.get("public"):
        return
    token = token_of(connection)
    if not token:
        raise NotAuthorizedException("log in first: no JSESSIONID cookie was sent")
    if host_of(connection.app.state).accounts.session(token) is None:
        raise NotAuthorizedException("the session is unknown, expired or logged out")
