"""The ASGI application: the interface under /api, receivers and console beside it."""

import inspect
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import msgspec
from litestar import Litestar, MediaType, get
from litestar.datastructures import CacheControlHeader
from litestar.di import Provide
from litestar.enums import ScopeType
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, Operation, Schema, SecurityScheme
from litestar.response import File
from litestar.static_files import create_static_files_router
from litestar.types import ASGIApp, ControllerRouterHandler, Message, Receive, Scope, Send

from tilewall import __version__
from tilewall.api import accesslog, console_events, openapi, read_cache, routing, scoped_lists
from tilewall.api.accesslog import access_log
from tilewall.api.auth import COOKIE, require_media_access, require_session, scope_refused, token_in
from tilewall.api.common import Extension, host_of_scope
from tilewall.api.errors import HANDLERS
from tilewall.api.forwarding import group_forwarding
from tilewall.api.headers import security_headers
from tilewall.api.resources import (
    audit,
    capture,
    controlroom,
    displays,
    failover,
    hostgroup,
    licence,
    live,
    media,
    mirrorgroups,
    network,
    overlays,
    playlog,
    presets,
    printprofiles,
    refusals,
    render,
    schedule,
    serial,
    session,
    settings,
    share,
    sharecodes,
    sources,
    sourcetypes,
    system,
    troubleshooting,
    users,
    videowalls,
    zones,
)
from tilewall.api.routing import allowed_methods
from tilewall.host.access.roles import limits_reads
from tilewall.host.host import Host
from tilewall.metrics import Metrics, metrics_page
from tilewall.reaches.litestar_router import AppRouter
from tilewall.receivers.media import media_file

#: the interface log (``tilewall.api.accesslog`` writes it off the request path)
log = logging.getLogger("tilewall.access")


def openapi_cache_dirs(data_dir: Path) -> list[Path]:
    """Where a served host keeps its OpenAPI document between starts."""
    return openapi.cache_dirs(data_dir)


def access_log_formatter() -> logging.Formatter:
    """The format of the interface log file: ``%(asctime)s %(message)s``."""
    return accesslog.LineFormatter()


def flush_access_log() -> None:
    """Wait until the interface log has every request answered so far."""
    accesslog.flush()


WEB = Path(__file__).parent / "web"

API_MODULES: list[ModuleType] = [
    session,
    presets,
    sources,
    live,
    share,
    sharecodes,
    network,
    refusals,
    displays,
    zones,
    videowalls,
    mirrorgroups,
    system,
    licence,
    settings,
    troubleshooting,
    media,
    overlays,
    failover,
    printprofiles,
    serial,
    controlroom,
    sourcetypes,
    schedule,
    playlog,
    audit,
    routing,
    openapi,
    render,
    hostgroup,
    console_events,
    users,
]


def options_allow(app: ASGIApp) -> ASGIApp:
    """``Allow`` on OPTIONS answers lists exactly the methods of the path (the framework's
    own OPTIONS handler can miss those of operations registered after the first)."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP or scope.get("method") != "OPTIONS":
            await app(scope, receive, send)
            return

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 204:
                allowed = allowed_methods(Litestar.from_scope(scope), scope["path"])
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"allow"]
                headers.append((b"allow", ", ".join(allowed).encode()))
                message = {**message, "headers": headers}
            await send(message)

        await app(scope, receive, send_wrapper)

    return middleware


def _body_optional(schema: dict[str, Any]) -> dict[str, Any]:
    if "requestBody" in schema:
        schema["requestBody"]["required"] = False
    return schema


@dataclass
class OptionalBodyOperation(Operation):
    """An operation whose request body is optional (the framework marks every body
    required)."""

    optional_body: ClassVar[bool] = True

    def to_schema(self) -> dict[str, Any]:
        return _body_optional(super().to_schema())


@dataclass
class OptionalBodyExtension(Extension):
    """A tilewall extension whose request body is optional."""

    optional_body: ClassVar[bool] = True

    def to_schema(self) -> dict[str, Any]:
        return _body_optional(super().to_schema())


def optional_body(operation_class: type[Operation]) -> type[Operation]:
    """The operation class documenting the request body as optional."""
    if issubclass(operation_class, Extension):
        return OptionalBodyExtension
    return OptionalBodyOperation


def document_optional_bodies(handlers: Sequence[Any]) -> None:
    """A handler whose ``data`` has a default takes a request without a body: say so."""
    for handler in handlers:
        data = inspect.signature(handler.fn).parameters.get("data")
        optional = data is not None and data.default is not inspect.Parameter.empty
        if optional and not getattr(handler.operation_class, "optional_body", False):
            handler.operation_class = optional_body(handler.operation_class)


def strict_structs() -> dict[str, list[frozenset[str]]]:
    """The Structs that refuse unknown fields: schema name -> the field names of each."""
    found: dict[str, list[frozenset[str]]] = {}
    todo = list(msgspec.Struct.__subclasses__())
    while todo:
        struct = todo.pop()
        todo += struct.__subclasses__()
        if not struct.__struct_config__.forbid_unknown_fields:
            continue
        names = {field.encode_name for field in msgspec.structs.fields(struct)}
        tag_field = struct.__struct_config__.tag_field
        if tag_field is not None:
            names.add(tag_field)
        name = getattr(struct, "__schema_name__", None) or struct.__name__
        found.setdefault(name, []).append(frozenset(names))
    return found


@dataclass
class StrictStructComponents(Components):
    """The document's components, where the schema of a Struct that refuses unknown
    fields says so (``additionalProperties: false``; Litestar's schema of a Struct does
    not). A Struct's schema is known by its title (the Struct's schema name) and its
    properties (the Struct's fields)."""

    def to_schema(self) -> dict[str, Any]:
        strict = strict_structs()
        for schema in (self.schemas or {}).values():
            if not isinstance(schema, Schema) or schema.title not in strict:
                continue
            if frozenset(schema.properties or ()) in strict[schema.title]:
                schema.additional_properties = False
        return super().to_schema()


CONSOLE = WEB / "console"


@get("/", include_in_schema=False, name="console-page", media_type=MediaType.HTML)
async def console_page() -> File:
    return File(CONSOLE / "index.html", content_disposition_type="inline")


@get("/console.css", include_in_schema=False, name="console-css", media_type="text/css")
async def console_css() -> File:
    return File(CONSOLE / "console.css", content_disposition_type="inline")


@get(
    "/receiver/version.js",
    include_in_schema=False,
    name="receiver-version",
    media_type="text/javascript",
    cache_control=CacheControlHeader(no_cache=True),
)
async def receiver_version() -> str:
    """The host's version as a module for the pages (``tilewall.__version__`` is the one
    place it is written)."""
    return f"export const VERSION = {json.dumps(__version__)};\n"


def console_routes() -> list[ControllerRouterHandler]:
    """The console at / (only its own files, so unknown paths elsewhere stay 404s)."""
    if not CONSOLE.is_dir():
        return []
    scripts = create_static_files_router(
        path="/js", directories=[CONSOLE / "js"], name="console-js"
    )
    return [console_page, console_css, scripts]


API = "/api"


class App(Litestar):
    """The app. A read registered with :func:`tilewall.api.read_cache.answer_early` whose
    bytes are current is answered here, before routing, when the request is a ``GET``
    under ``/api`` without a query string and carries a live session: with the same
    status, headers (the ``before_send`` hooks run as for any answer) and body as its
    route would give, the same interface log line and metrics. Anything else, and any
    read whose bytes must be built first, is routed as usual."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (
            scope["type"] == ScopeType.HTTP
            and scope["method"] == "GET"
            and not scope.get("query_string")
            and scope["path"].startswith(API)
            and await self._answer_early(scope, send)
        ):
            return
        await super().__call__(scope, receive, send)

    async def _answer_early(self, scope: Scope, send: Send) -> bool:
        early = read_cache.ANSWERED_EARLY.get(scope["path"][len(API) :])
        host: Host | None = self.state.get("host")
        if early is None or host is None:
            return False
        token = token_in(scope["headers"])
        session = host.accounts.session(token) if token else None
        if session is None or limits_reads(host.accounts.account(session.user)):
            return False
        view, args = early
        body = view.current(host, *args)
        if body is None:
            return False
        started = time.perf_counter()
        scope["app"] = scope["litestar_app"] = self
        scope["path_template"] = scope["path"]  # the route's: it has no parameters
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        start: Message = {"type": "http.response.start", "status": 200, "headers": headers}
        end: Message = {"type": "http.response.body", "body": body, "more_body": False}
        for message in (start, end):
            for hook in self.before_send:  # as for any answer the app gives
                await hook(message, scope)
            await send(message)
        metrics: Metrics = self.state.metrics
        metrics.observe(scope, time.perf_counter() - started)
        accesslog.record(scope, 200, started)
        return True


def _host_of(scope: Scope) -> Host | None:
    host: Host | None = getattr(scope["app"].state, "host", None)
    return host


def _openapi_config() -> OpenAPIConfig:
    """The OpenAPI document (at /api/openapi.json) and its docs page (/api/docs)."""
    return OpenAPIConfig(
        title="tilewall: display and video wall control interface",
        version=__version__,
        description=(
            "The display and video wall control REST interface, version 1.9, as served by "
            "tilewall. Operations tagged 'tilewall extensions' (and marked "
            "x-tilewall-extension) are tilewall's own management operations."
        ),
        path="/api/docs",
        render_plugins=[SwaggerRenderPlugin(path="/")],
        components=StrictStructComponents(
            security_schemes={
                "session": SecurityScheme(type="apiKey", name=COOKIE, security_scheme_in="cookie")
            }
        ),
        security=[{"session": []}],
        use_handler_docstrings=False,
    )


def create_app(
    host: Host | None,
    extra_routes: Sequence[ControllerRouterHandler] = (),
    on_startup: Sequence[Callable[..., Any]] = (),
    on_shutdown: Sequence[Callable[..., Any]] = (),
    openapi_cache: Sequence[Path] = (),
) -> Litestar:
    """The app serving ``host`` (set later by a startup hook when None).

    ``openapi_cache``: folders where the encoded OpenAPI document may be kept between
    starts (``tilewall.api.openapi``)."""
    # looked for while the app is built
    kept = openapi.Kept(openapi_cache) if openapi_cache else None
    handlers: list[ControllerRouterHandler] = []
    for module in API_MODULES:
        handlers += module.ROUTES
    document_optional_bodies(handlers)
    api = AppRouter(
        path=API,
        route_handlers=handlers,
        before_request=require_session,
        after_request=scoped_lists.only_the_scope,
        middleware=[playlog.client_trigger],
    )
    metrics = Metrics()
    media = AppRouter(path="/", route_handlers=[media_file], guards=[require_media_access])
    # a live source's frames, taken as media are (app.state.live holds the relays)
    live_ws = live.live_websocket()
    # a screen share's frames, sent by the sharer's browser (app.state.shares)
    share_ws = share.share_websocket()
    # kiosk agents' capture devices' frames (app.state.agent_captures)
    capture_ws = capture.capture_websocket()
    routes: list[ControllerRouterHandler] = [
        api,
        media,
        live_ws,
        share_ws,
        capture_ws,
        metrics_page,
        *extra_routes,
    ]
    routes.append(receiver_version)
    receiver_dir = WEB / "receiver"
    if receiver_dir.is_dir():
        routes.append(
            create_static_files_router(
                path="/receiver", directories=[receiver_dir], html_mode=True, name="receiver"
            )
        )
    share_dir = WEB / "share"
    if share_dir.is_dir():
        routes.append(
            create_static_files_router(
                path="/share", directories=[share_dir], html_mode=True, name="share-page"
            )
        )
    routes += console_routes()
    app = App(
        route_handlers=routes,
        exception_handlers=HANDLERS,
        after_exception=[scope_refused],
        dependencies={"host": Provide(host_of_scope, sync_to_thread=False)},
        middleware=[access_log, options_allow, metrics.middleware, group_forwarding(_host_of)],
        before_send=[security_headers, metrics.count],
        openapi_config=_openapi_config(),
        on_startup=list(on_startup),
        on_shutdown=list(on_shutdown),
        request_max_body_size=10 * 1024 * 1024,
        debug=False,
    )
    app.state.host = host
    app.state.metrics = metrics
    app.state[openapi.KEPT] = kept
    if host is not None:
        metrics.attach(host)
    return app
