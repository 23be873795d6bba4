"""POST /session logs in, DELETE /session logs out; GET /session (an extension) says
who is logged in, with their role and scope."""

from typing import Any

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.datastructures import Cookie
from litestar.exceptions import NotAuthorizedException
from litestar.params import Parameter

from tilewall import INTERFACE_VERSION
from tilewall.api.auth import COOKIE, token_of
from tilewall.api.common import EXTENSION_TAG, Done, Extension, errors
from tilewall.api.resources.users import UserBody
from tilewall.api.resources.users import body as user_body
from tilewall.host.host import Host


class Credentials(msgspec.Struct):
    user: str
    password: str


class SessionValue(msgspec.Struct):
    name: str
    value: str
    version: str


class SessionBody(msgspec.Struct):
    session: SessionValue


@post(
    "/session",
    status_code=200,
    opt={"public": True},
    tags=["Session"],
    summary="Log in",
    responses=errors(429),
    security=[{}],  # an empty requirement: no session needed to log in
)
async def login(
    host: Host,
    request: Request[Any, Any, Any],
    data: Credentials,
    keep_logged_in: bool = Parameter(query="keepLoggedIn", default=False),
) -> Response[SessionBody]:
    address = request.client.host if request.client else "unknown"
    token = await host.accounts.login(address, data.user, data.password, keep_logged_in)
    if token is None:
        raise NotAuthorizedException("invalid user name or password")
    return Response(
        SessionBody(SessionValue(COOKIE, token, INTERFACE_VERSION)),
        cookies=[
            Cookie(
                key=COOKIE,
                value=token,
                path="/",
                httponly=True,
                samesite="lax",
                # over TLS the browser must never send it in the clear
                secure=request.scope.get("scheme") == "https",
                max_age=None,
            )
        ],
    )


@get(
    "/session",
    tags=["Session", EXTENSION_TAG],
    summary="Who is logged in: the user of the session, its role and scope",
    responses=errors(),
    operation_class=Extension,
)
async def whoami(host: Host, request: Request[Any, Any, Any]) -> UserBody:
    session = host.accounts.session(token_of(request))
    account = None if session is None else host.accounts.account(session.user)
    if session is None or account is None:
        raise NotAuthorizedException("the session is unknown, expired or logged out")
    return user_body(session.user, account)


@delete("/session", status_code=200, tags=["Session"], summary="Log out", responses=errors())
async def logout(host: Host, request: Request[Any, Any, Any]) -> Done:
    await host.accounts.close_session(token_of(request))
    return Done("logged out")


ROUTES = [login, whoami, logout]
