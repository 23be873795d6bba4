"""The session cookie, read leniently: real clients send it with other cookies,
attributes, odd spacing or quotes."""

from typing import Any

from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException
from litestar.handlers.base import BaseRouteHandler

from tilewall.api.common import provide_host

COOKIE = "JSESSIONID"


def session_token(cookie_header: str) -> str:
    """The value of JSESSIONID in a Cookie header (the last one wins), or ''."""
    token = ""
    for part in cookie_header.split(";"):
        name, sep, value = part.strip().partition("=")
        if sep and name.strip() == COOKIE:
            token = value.strip().strip('"')
    return token


def token_of(connection: ASGIConnection[Any, Any, Any, Any]) -> str:
    return session_token(",".join(connection.headers.getall("cookie", [])).replace(",", ";"))


async def require_session(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    if handler.opt.get("public"):
        return
    token = token_of(connection)
    if not token:
        raise NotAuthorizedException("log in first: no JSESSIONID cookie was sent")
    if provide_host(connection.app.state).accounts.session(token) is None:
        raise NotAuthorizedException("the session is unknown, expired or logged out")
