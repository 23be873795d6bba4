"""POST /session logs in, DELETE /session logs out."""

from typing import Any

import msgspec
from litestar import Request, Response, delete, post
from litestar.datastructures import Cookie
from litestar.exceptions import NotAuthorizedException
from litestar.params import Parameter

from tilewall import INTERFACE_VERSION
from tilewall.api.auth import COOKIE, token_of
from tilewall.api.common import Done, errors
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


@delete("/session", status_code=200, tags=["Session"], summary="Log out", responses=errors())
async def logout(host: Host, request: Request[Any, Any, Any]) -> Done:
    await host.accounts.close_session(token_of(request))
    return Done("logged out")


ROUTES = [login, logout]
