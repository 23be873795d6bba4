"""The session cookie, read leniently: real clients send it with other cookies,
attributes, odd spacing or quotes."""

from collections.abc import Iterable
from typing import Any

from litestar.connection import ASGIConnection, Request
from litestar.exceptions import NotAuthorizedException, PermissionDeniedException
from litestar.handlers.base import BaseRouteHandler

from tilewall.api import scoped_lists
from tilewall.api.common import provide_host
from tilewall.api.permissions import READ, required
from tilewall.api.routing import FALLBACK
from tilewall.host import audit
from tilewall.host.access.accounts import Accounts, session_handle
from tilewall.host.access.roles import refusal
from tilewall.host.access.scopes import OutsideScope, acting_as
from tilewall.host.topology.keys import held_by_a_locked_station

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
    return token_in(connection.scope["headers"])


def token_in(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The session id a request's raw Cookie headers carry (read from the raw headers:
    it is looked at on every request)."""
    cookies = [value.decode("latin-1") for name, value in headers if name.lower() == b"cookie"]
    if not cookies:
        return ""
    return session_token(",".join(cookies).replace(",", ";"))


async def require_session(request: Request[Any, Any, Any]) -> None:
    """The request carries a live session whose user's role allows the operation
    (:mod:`tilewall.api.permissions`), unless the operation is public (``opt``).

    A ``before_request`` hook of the interface's router rather than a guard (the
    framework copies the handler for every guard it runs, on every request); it runs
    where a guard would, after routing and before parameters and body are read. A
    handler that sets its own ``before_request`` must call it.

    It also says, for the audit trail, which operation the request is and who makes it
    (:mod:`tilewall.host.audit`); an operation refused for the role is recorded there."""
    scope = request.scope
    operation = operation_of(scope)
    audit.OPERATION.set(operation)
    handler = scope["route_handler"]
    token = token_of(request)
    if handler.opt.get("public"):
        # held to its permission when it comes with a session (a user starting a share)
        if token and required(operation) is not READ:
            accounts = provide_host(request.app.state).accounts
            session = accounts.session(token)
            if session is not None:
                await _authorize(request, accounts, session.user, token, operation)
        return
    if not token:
        raise NotAuthorizedException("log in first: no JSESSIONID cookie was sent")
    accounts = provide_host(request.app.state).accounts
    session = accounts.session(token)
    if session is None:
        raise NotAuthorizedException("the session is unknown, expired or logged out")
    if handler.name == FALLBACK:
        return  # no operation: answered 404 whatever the role
    await _authorize(request, accounts, session.user, token, operation)


async def _authorize(
    request: Request[Any, Any, Any], accounts: Accounts, user: str, token: str, operation: str
) -> None:
    """``user``'s role allows ``operation`` (403 otherwise, recorded in the audit trail);
    the request then acts for them."""
    actor = audit.Actor(user, address_of(request.scope), session_handle(token))
    audit.ACTOR.set(actor)
    account = accounts.account(user)
    refused = refusal(user, account, required(operation))
    if refused is not None:
        await accounts.record_refusal(actor, operation, refused)
        raise PermissionDeniedException(refused)
    if account is not None:
        acting_as(user, account)
        scoped_lists.note(request, operation)


async def scope_refused(error: Exception, scope: Any) -> None:
    """An ``after_exception`` hook: an operation refused because it reaches outside the
    operator's scope (raised by the domain, after :func:`require_session`) is recorded
    in the audit trail, as a refusal for the role is, before the 403 is answered. If the
    store cannot record it, the hook raises and the request answers 503 instead."""
    if not isinstance(error, OutsideScope):
        return
    actor = audit.ACTOR.get()
    if actor is None:  # refused to nobody's request: the host's own action
        return
    accounts = provide_host(scope["app"].state).accounts
    await accounts.record_refusal(actor, audit.OPERATION.get(), str(error), error.target)


def operation_of(scope: Any) -> str:
    """An operation as the audit trail and the permissions name it: its method and path
    template (``PUT /api/sources/{sourceId}``)."""
    return f"{scope['method']} {scope.get('path_template') or scope['path']}"


def address_of(scope: Any) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


#: cookies the receiver page sets with its station key for /media/ (one per seat)
STATION_KEY_COOKIE_PREFIX = "tilewall_key_"
#: station-key cookies looked at per request, at most
_MAX_KEY_COOKIES = 16


async def require_media_access(
    connection: ASGIConnection[Any, Any, Any, Any], _handler: BaseRouteHandler
) -> None:
    """Media go to a live session (the console, clients) or to a receiver showing the key
    of a locked station (its ``tilewall_key_*`` cookie); anyone else is answered 401."""
    host = provide_host(connection.app.state)
    if host.accounts.session(token_of(connection)) is not None:
        return
    keys = [
        value
        for name, value in connection.cookies.items()
        if name.startswith(STATION_KEY_COOKIE_PREFIX)
    ][:_MAX_KEY_COOKIES]
    stations = host.state.stations.values()
    if any(held_by_a_locked_station(stations, key) for key in keys):
        return
    raise NotAuthorizedException(
        "media are sent to a logged-in session or to a locked station's receiver"
    )
