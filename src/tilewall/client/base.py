"""The transport under every resource of the client: one HTTP session with the host,
login by cookie as the interface says, and one error type for everything that fails.

Paths given to :class:`Transport` are relative to the interface root (``/api``):
``/displays``, ``/zones/byname/Lobby``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal
from urllib.parse import quote

import httpx

DEFAULT_URL = "http://localhost:9000"
COOKIE = "JSESSIONID"

Json = dict[str, Any]
#: the items of a list answer
Items = list[Json]
#: how a zone, mirror group, preset, source, wall or layout is named in a call
By = Literal["auto", "id", "name"]
Params = Mapping[str, str | int | bool]

_NO_BODY: Any = object()


class ApiError(Exception):
    """The host answered with an error, or could not be asked at all.

    ``status`` is the HTTP status (0 when the host could not be reached) and
    ``message`` the host's own message from its ``{"status", "message"}`` body.
    """

    def __init__(self, status: int, message: str, *, method: str = "", path: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.method = method
        self.path = path

    def __str__(self) -> str:
        return f"{self.message} (HTTP {self.status})" if self.status else self.message


class HostUnreachable(ApiError):
    """No answer from the host: nothing listens there, a network failure, or a timeout."""

    def __init__(self, message: str, *, method: str = "", path: str = "") -> None:
        super().__init__(0, message, method=method, path=path)


def api_root(url: str) -> str:
    """``http://host:9000``, ``http://host:9000/`` and ``http://host:9000/api`` all name
    the interface root ``http://host:9000/api``."""
    root = url.strip().rstrip("/")
    if "://" not in root:
        root = "http://" + root
    return root if root.endswith("/api") else root + "/api"


def seg(*parts: str | int) -> str:
    """A path of percent-encoded segments: names may hold spaces, '?', '#' or Unicode."""
    return "".join("/" + quote(str(p), safe="") for p in parts)


class Transport:
    """One session with one host. Logs in on first use when it has credentials, and
    once more when the host says the session has expired."""

    def __init__(
        self,
        url: str | None,
        user: str | None,
        password: str | None,
        http: httpx.Client | None,
        timeout: float,
    ) -> None:
        self.user = user
        self.password = password
        self.token: str | None = None
        self._owns_http = http is None
        if http is None:
            self.url = api_root(url or DEFAULT_URL)
            self.http = httpx.Client(base_url=self.url, timeout=timeout)
            self._prefix = ""
        else:
            self.http = http
            if url is None:
                # relative to the given client's base URL, with or without /api in it
                base = str(http.base_url).rstrip("/")
                self.url = api_root(base)
                self._prefix = "" if base.endswith("/api") else "/api"
            else:
                self.url = api_root(url)
                self._prefix = self.url

    # session

    def login(self, keep_logged_in: bool = False) -> Json:
        if self.user is None:
            raise ValueError("no user to log in as: give user and password")
        self.token = None
        jar = self.http.cookies.jar
        kept = list(jar)
        try:
            body = self.json(
                "POST",
                "/session",
                params={"keepLoggedIn": keep_logged_in},
                json={"user": self.user, "password": self.password or ""},
                public=True,
            )
        finally:
            # the session is this client's (sent explicitly), not the HTTP client's:
            # leave a given client's cookies as they were
            jar.clear()
            for cookie in kept:
                jar.set_cookie(cookie)
        session = body.get("session")
        if not isinstance(session, dict) or not isinstance(session.get("value"), str):
            raise ApiError(200, f"the login answer holds no session: {body!r}")
        self.token = session["value"]
        return body

    def logout(self) -> Json:
        try:
            return self.json("DELETE", "/session", public=True)
        finally:
            self.token = None

    def close(self) -> None:
        if self._owns_http:
            self.http.close()

    # requests

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Params | None = None,
        json: Any = _NO_BODY,
        content: bytes | Iterable[bytes] | None = None,
        headers: Mapping[str, str] | None = None,
        public: bool = False,
    ) -> httpx.Response:
        """The host's answer to one operation; an error answer raises :class:`ApiError`."""
        logged_in_now = False
        if not public and self.token is None and self.user is not None:
            self.login()
            logged_in_now = True
        response = self._send(method, path, params, json, content, headers)
        replayable = content is None or isinstance(content, bytes)
        if (
            response.status_code == 401
            and not public
            and not logged_in_now
            and self.user is not None
            and replayable
        ):
            # the session expired or was ended elsewhere: log in again, once
            self.login()
            response = self._send(method, path, params, json, content, headers)
        if response.status_code >= 400:
            raise self._error(method, path, response)
        return response

    def _send(
        self,
        method: str,
        path: str,
        params: Params | None,
        json: Any,
        content: bytes | Iterable[bytes] | None,
        headers: Mapping[str, str] | None,
    ) -> httpx.Response:
        sent = dict(headers or {})
        if self.token is not None:
            sent["Cookie"] = f"{COOKIE}={self.token}"
        kwargs: dict[str, Any] = {"params": dict(params) if params else None, "headers": sent}
        if json is not _NO_BODY:
            kwargs["json"] = json
        elif content is not None:
            kwargs["content"] = content
        try:
            return self.http.request(method, self._prefix + path, **kwargs)
        except httpx.TimeoutException as exc:
            raise HostUnreachable(
                f"the host at {self.url} did not answer in time ({type(exc).__name__})",
                method=method,
                path=path,
            ) from exc
        except httpx.TransportError as exc:
            reason = str(exc) or type(exc).__name__
            raise HostUnreachable(
                f"cannot reach the host at {self.url}: {reason}", method=method, path=path
            ) from exc

    @staticmethod
    def _error(method: str, path: str, response: httpx.Response) -> ApiError:
        message = ""
        try:
            body = response.json()
        except ValueError:
            body = None
        if isinstance(body, dict):
            message = str(body.get("message") or body.get("detail") or "")
        if not message:
            message = response.text.strip()[:500] or response.reason_phrase
        return ApiError(response.status_code, message, method=method, path=path)

    # decoded answers

    def json(self, method: str, path: str, **kwargs: Any) -> Json:
        """An operation answering a JSON object."""
        response = self.request(method, path, **kwargs)
        if response.status_code == 204 or not response.content:
            return {}
        body = self._decode(method, path, response)
        if not isinstance(body, dict):
            raise ApiError(
                response.status_code,
                f"expected a JSON object from {method} {path}, got {type(body).__name__}",
            )
        return body

    def array(self, method: str, path: str, key: str | None = None, **kwargs: Any) -> Items:
        """An operation answering a JSON array, or an object holding one under ``key``."""
        response = self.request(method, path, **kwargs)
        body = self._decode(method, path, response)
        if key is not None and isinstance(body, dict):
            body = body.get(key)
        if not isinstance(body, list):
            raise ApiError(
                response.status_code,
                f"expected a list{f' under {key!r}' if key else ''} from {method} {path}",
            )
        return body

    def text(self, method: str, path: str, **kwargs: Any) -> str:
        return self.request(method, path, **kwargs).text

    def raw(self, method: str, path: str, **kwargs: Any) -> bytes:
        return self.request(method, path, **kwargs).content

    def exists(self, path: str) -> bool:
        """True when GET ``path`` answers, False when it answers 404; other errors raise."""
        try:
            self.request("GET", path)
        except ApiError as error:
            if error.status == 404:
                return False
            raise
        return True

    @staticmethod
    def _decode(method: str, path: str, response: httpx.Response) -> Any:
        try:
            return response.json()
        except ValueError as exc:
            raise ApiError(
                response.status_code, f"the answer to {method} {path} is not JSON"
            ) from exc


def given(**params: Any) -> dict[str, Any]:
    """Query parameters: those given (None leaves one out)."""
    return {name: value for name, value in params.items() if value is not None}


class Resource:
    """A group of operations of the interface, sharing the client's transport."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport


class Named(Resource):
    """Objects with an id and a unique name, read at ``{collection}/{id}``.

    Calls take the name or the id. ``by="id"`` or ``by="name"`` says which; ``by="auto"``
    (the default) asks the host for an object with that id first (one GET) and takes the
    key as a name when there is none, so an id wins over an equal name.
    """

    collection = ""
    list_key = ""
    id_field = "id"
    name_field = "name"
    what = "object"
    #: True when the interface has ``{collection}/byname/{name}`` paths
    has_byname = False

    def list(self) -> Items:
        """Every object of the collection, as its listing gives them."""
        return self._t.array("GET", self.collection, self.list_key)

    def _prefix(self, key: str | int, by: By) -> str:
        """The path of the object: by id, or under /byname/ when the interface has it."""
        key = str(key)
        if by not in ("auto", "id", "name"):
            raise ValueError(f"by must be 'auto', 'id' or 'name', not {by!r}")
        if by == "id" or (by == "auto" and self._t.exists(self.collection + seg(key))):
            return self.collection + seg(key)
        if self.has_byname:
            return f"{self.collection}/byname{seg(key)}"
        return self.collection + seg(self._id_by_name(key))

    def _read(self, key: str | int, by: By) -> Json:
        """The object itself, in one GET when the key is an id."""
        key = str(key)
        if by in ("auto", "id"):
            try:
                return self._t.json("GET", self.collection + seg(key))
            except ApiError as error:
                if by == "id" or error.status != 404:
                    raise
        elif by != "name":
            raise ValueError(f"by must be 'auto', 'id' or 'name', not {by!r}")
        if self.has_byname:
            return self._t.json("GET", f"{self.collection}/byname{seg(key)}")
        return self._t.json("GET", self.collection + seg(self._id_by_name(key)))

    def _id(self, key: str | int, by: By) -> str:
        """The id of the object (for the operations that exist by id only)."""
        key = str(key)
        if by == "id" or (by == "auto" and self._t.exists(self.collection + seg(key))):
            return key
        if by not in ("auto", "name"):
            raise ValueError(f"by must be 'auto', 'id' or 'name', not {by!r}")
        if self.has_byname:
            return str(self._t.json("GET", f"{self.collection}/byname{seg(key)}")[self.id_field])
        return self._id_by_name(key)

    def _id_path(self, key: str | int, by: By) -> str:
        """The path of the object by its id (the operations that exist by id only)."""
        return self.collection + seg(self._id(key, by))

    def _id_by_name(self, name: str) -> str:
        for item in self._t.array("GET", self.collection, self.list_key):
            if item.get(self.name_field) == name:
                return str(item[self.id_field])
        raise ApiError(404, f"{self.what} {name!r} not found", method="GET", path=self.collection)
