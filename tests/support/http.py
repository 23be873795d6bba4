"""Every request the tests make goes through here: one ``login``, one ``Api.request``.

``Api`` wraps whatever carries the requests (a Litestar ``TestClient`` for the app in
this process, an ``httpx.Client`` for a server on a port), so the whole suite can move to
another client by changing this module only. ``ok`` and ``error`` check answers.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import quote

import httpx

#: what a request raises when it gets no answer (the server went away)
TransportError = httpx.TransportError

ADMIN = "admin"
PASSWORD = "correct horse battery"
SESSION_COOKIE = "JSESSIONID"


class Api:
    """A client of the interface (paths relative to ``/api``, or to ``root``)."""

    def __init__(
        self,
        transport: Any,
        *,
        user: str = ADMIN,
        password: str = PASSWORD,
        relogin: bool = False,
        root: str = "",
    ) -> None:
        #: a ``litestar.testing.TestClient`` or an ``httpx.Client``, with its base URL
        self.transport = transport
        #: the interface's path under that base URL ("" when the base URL ends in /api)
        self.root = root
        self.user = user
        self.password = password
        #: log in again and repeat a request answered 401 (a server that restarted)
        self.relogin = relogin
        #: the session id sent, if any
        self.session: str | None = None

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        """The one request helper: ``kwargs`` as httpx takes them (params, json, content,
        headers); answers the response."""
        response = self.transport.request(method, path, **kwargs)
        if response.status_code == 401 and self.relogin and path != f"{self.root}/session":
            login(self)
            response = self.transport.request(method, path, **kwargs)
        return response

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> Any:
        return self.request("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> Any:
        return self.request("PUT", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Any:
        return self.request("DELETE", path, **kwargs)

    def options(self, path: str, **kwargs: Any) -> Any:
        return self.request("OPTIONS", path, **kwargs)

    @property
    def cookies(self) -> Any:
        return self.transport.cookies

    def use_session(self, token: str) -> None:
        """Send ``token`` as the session cookie from now on."""
        self.transport.cookies.set(SESSION_COOKIE, token)
        self.session = token

    def forget_session(self) -> None:
        """Send no session cookie (the session itself stays open on the host)."""
        self.transport.cookies.clear()
        self.session = None

    def close(self) -> None:
        self.transport.close()


#: how long a login answered 503 is tried again
LOGIN_RETRY_S = 30.0


def login(
    api: Api, keep: bool = False, *, user: str | None = None, password: str | None = None
) -> str:
    """Log in (as the admin unless told otherwise); the client sends the new session from
    now on. Answers the session id. A 503 is tried again for a while, as its message asks:
    a host on PostgreSQL answers so while its lease is late (a machine so loaded that its
    event loop stalled) or its database link is being made again."""
    deadline = time.monotonic() + LOGIN_RETRY_S
    while True:
        response = api.request(
            "POST",
            f"{api.root}/session",
            params={"keepLoggedIn": keep},
            json={"user": user or api.user, "password": password or api.password},
        )
        if response.status_code != 503 or time.monotonic() > deadline:
            break
        time.sleep(0.25)
    assert response.status_code == 200, response.text
    token: str = response.json()["session"]["value"]
    api.use_session(token)
    return token


def url(*parts: str) -> str:
    """A path from segments, each percent-encoded (names with spaces, slashes, Unicode)."""
    return "/" + "/".join(quote(str(p), safe="") for p in parts)


def ok(response: Any, status: int = 200) -> Any:
    """Assert the status; the JSON body (or the text of another body)."""
    assert response.status_code == status, f"{response.status_code}: {response.text}"
    if response.headers.get("content-type", "").startswith("application/json"):
        return response.json()
    return response.text


def error(response: Any, status: int, *words: str) -> str:
    """Assert an error answer: the status, a JSON ``{status, message}`` body naming ``words``."""
    assert response.status_code == status, (
        f"expected {status}, got {response.status_code}: {response.text}"
    )
    assert response.headers.get("content-type", "").startswith("application/json"), response.headers
    body = response.json()
    assert set(body) >= {"status", "message"}, body
    assert body["status"] == status, body
    assert isinstance(body["message"], str) and body["message"], body
    for word in words:
        assert word.casefold() in body["message"].casefold(), (word, body["message"])
    return str(body["message"])
