"""Reads encoded once per revision.

The lists and host facts clients poll (``GET /displays``, ``/zones``, ``/sources``,
``/mirrorgroups``, ``/videowalls``, ``/presets``, ``/system`` ...) are built and
encoded to JSON once for each revision of what they read, and served as those bytes
until the revision moves. One rule decides when a view is stale, here and nowhere
else: a view is keyed by :func:`state_revision` (plus, for host facts, the version of
the facts it reads), and :class:`~tilewall.host.state.Core` moves its ``revision`` on
every change installed or taken back and on every announcement (``Core.notify``),
which is also how liveness that is not stored is told (a receiver coming online or
going away, a kiosk agent connecting). So the next read after any change is rebuilt.

A view must read only what moves such a key: stored state, liveness that is announced,
and facts whose version it includes. Anything that changes with time alone (playback
positions, the clock) does not belong in one.

The route of a view builds it (through the framework: parameters, errors, documentation).
A read registered with :func:`answer_early` is also answered by the app before routing
when its bytes are current, the request is a ``GET`` without a query string and carries
a live session: the same status, headers and body, the same interface log line and
metrics, without the framework's per-request work (``tilewall.app.App``). Any other
request, and any read whose bytes are not current, goes to the route.
A read with no parameters of its own takes both, at one path, from
:func:`encoded_route`.
"""

import inspect
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar, cast, overload
from weakref import WeakKeyDictionary

import msgspec
from litestar import MediaType, Response, get
from litestar.handlers import HTTPRouteHandler

from tilewall.api.common import errors
from tilewall.host.host import Host

T = TypeVar("T")
#: the response of :func:`encoded_route` (given to the framework by name)
Read = TypeVar("Read")
#: what a view's bytes are valid for; compared with ``==``
Key = Hashable


def state_revision(host: Host) -> Key:
    """The revision of everything a view of the host's state reads: the shared state
    and, in a group, this member's own settings (host name, failover, system id)."""
    member = host.member_core
    if member is host.core:
        return host.core.revision
    return (host.core.revision, member.revision)


_encode = msgspec.json.Encoder().encode

#: reads the app may answer before routing when their bytes are current (see
#: ``tilewall.app``): path under ``/api`` -> (view, the arguments of a request without a
#: query string). The route stays what builds them and what every other request takes.
ANSWERED_EARLY: dict[str, tuple["EncodedOnce[Any]", tuple[Any, ...]]] = {}


def answer_early(path: str, view: "EncodedOnce[Any]", *args: Any) -> None:
    """Let the app answer ``GET /api{path}`` (no query string, a live session) with the
    current bytes of ``view(*args)`` before routing."""
    ANSWERED_EARLY[path] = (view, args)


def encoded_route(
    path: str,
    view: "EncodedOnce[Any]",
    response: type[Any],
    name: str,
    summary: str,
    tags: list[str],
) -> HTTPRouteHandler:
    """``GET /api{path}``: the bytes of ``view``, answered early too (:func:`answer_early`),
    so the path routed and the path answered early are one. ``name`` is the handler's
    (the operation id is made of it)."""

    async def read(host: Host) -> "Response[Read]":
        return await view.response(host)

    read.__name__ = read.__qualname__ = name
    answer_early(path, view)
    return get(
        path,
        tags=tags,
        summary=summary,
        responses=errors(),
        signature_namespace={"Read": response},
    )(read)


class EncodedOnce(Generic[T]):
    """One read of the interface, built by ``build(host, *args)`` (a struct or any
    value msgspec encodes; a coroutine function is awaited) and encoded once per
    ``key(host)``; ``args`` select one of a few variants (say, a boolean filter).

    The key is taken before the view is built, so a change that happens while an
    awaiting build runs leaves bytes keyed to the revision before it: the next read
    rebuilds them.
    """

    @overload
    def __init__(
        self, build: Callable[..., Awaitable[T]], key: Callable[[Host], Key] = ...
    ) -> None: ...

    @overload
    def __init__(self, build: Callable[..., T], key: Callable[[Host], Key] = ...) -> None: ...

    def __init__(
        self,
        build: Callable[..., T] | Callable[..., Awaitable[T]],
        key: Callable[[Host], Key] = state_revision,
    ) -> None:
        self._build = build
        self._key = key
        self._awaits = inspect.iscoroutinefunction(build)
        #: per host (tests run many), per variant: (key, bytes)
        self._views: WeakKeyDictionary[Host, dict[tuple[Any, ...], tuple[Key, bytes]]] = (
            WeakKeyDictionary()
        )

    async def encoded(self, host: Host, *args: Any) -> bytes:
        key = self._key(host)
        views = self._views.get(host)
        if views is None:
            views = self._views[host] = {}
        else:
            hit = views.get(args)
            if hit is not None and hit[0] == key:
                return hit[1]
        value = self._build(host, *args)
        if self._awaits:
            value = await cast("Awaitable[T]", value)
        body = _encode(value)
        views[args] = (key, body)
        return body

    def current(self, host: Host, *args: Any) -> bytes | None:
        """The bytes of the view if they are current (None: build them through
        :meth:`encoded`)."""
        views = self._views.get(host)
        hit = views.get(args) if views is not None else None
        if hit is not None and hit[0] == self._key(host):
            return hit[1]
        return None

    async def response(self, host: Host, *args: Any) -> Response[T]:
        """The view as a JSON answer (documented as ``T`` by the route's annotation)."""
        body = await self.encoded(host, *args)
        return cast("Response[T]", Response(body, media_type=MediaType.JSON))
