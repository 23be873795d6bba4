"""The ASGI application: the interface under /api, receivers and console beside it."""

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from litestar import Litestar, MediaType, Router, get
from litestar.di import Provide
from litestar.enums import ScopeType
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme
from litestar.response import File
from litestar.static_files import create_static_files_router
from litestar.types import ASGIApp, ControllerRouterHandler, Message, Receive, Scope, Send

from tilewall import __version__
from tilewall.api import (
    controlroom,
    displays,
    failover,
    fallback,
    licence,
    media,
    mirrorgroups,
    network,
    overlays,
    playlog,
    presets,
    printprofiles,
    render,
    schedule,
    serial,
    session,
    settings,
    sources,
    sourcetypes,
    system,
    troubleshooting,
    videowalls,
    zones,
)
from tilewall.api.auth import COOKIE, require_session
from tilewall.api.common import provide_host
from tilewall.api.errors import HANDLERS
from tilewall.host.host import Host
from tilewall.receivers.media import media_file

log = logging.getLogger("tilewall.access")
WEB = Path(__file__).parent / "web"

API_MODULES: list[ModuleType] = [
    session,
    presets,
    sources,
    network,
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
    fallback,
    render,
]


def access_log(app: ASGIApp) -> ASGIApp:
    """One line per request: method, path, status, milliseconds."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 0

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await app(scope, receive, send_wrapper)
        finally:
            client = scope.get("client") or ("-", 0)
            log.info(
                '%s "%s %s" %s %.1fms',
                client[0],
                scope.get("method", "-"),
                scope["path"],
                status,
                (time.perf_counter() - started) * 1000,
            )

    return middleware


CONSOLE = WEB / "console"


@get("/", include_in_schema=False, name="console-page", media_type=MediaType.HTML)
async def console_page() -> File:
    return File(CONSOLE / "index.html", content_disposition_type="inline")


@get("/console.css", include_in_schema=False, name="console-css", media_type="text/css")
async def console_css() -> File:
    return File(CONSOLE / "console.css", content_disposition_type="inline")


def console_routes() -> list[ControllerRouterHandler]:
    """The console at / (only its own files, so unknown paths elsewhere stay 404s)."""
    if not CONSOLE.is_dir():
        return []
    scripts = create_static_files_router(
        path="/js", directories=[CONSOLE / "js"], name="console-js"
    )
    return [console_page, console_css, scripts]


def create_app(
    host: Host | None,
    extra_routes: Sequence[ControllerRouterHandler] = (),
    on_startup: Sequence[Callable[..., Any]] = (),
    on_shutdown: Sequence[Callable[..., Any]] = (),
) -> Litestar:
    handlers: list[ControllerRouterHandler] = []
    for module in API_MODULES:
        handlers += module.ROUTES
    api = Router(
        path="/api",
        route_handlers=handlers,
        guards=[require_session],
        middleware=[playlog.client_trigger],
    )
    routes: list[ControllerRouterHandler] = [api, media_file, *extra_routes]
    receiver_dir = WEB / "receiver"
    if receiver_dir.is_dir():
        routes.append(
            create_static_files_router(
                path="/receiver", directories=[receiver_dir], html_mode=True, name="receiver"
            )
        )
    routes += console_routes()
    app = Litestar(
        route_handlers=routes,
        exception_handlers=HANDLERS,
        dependencies={"host": Provide(provide_host, sync_to_thread=False)},
        middleware=[access_log],
        openapi_config=OpenAPIConfig(
            title="tilewall: display and video wall control interface",
            version=__version__,
            description=(
                "The display and video wall control REST interface, version 1.9, as served by "
                "tilewall. Operations tagged 'tilewall extensions' (and marked "
                "x-tilewall-extension) are tilewall's own management operations."
            ),
            path="/api/docs",
            render_plugins=[SwaggerRenderPlugin(path="/")],
            components=Components(
                security_schemes={
                    "session": SecurityScheme(
                        type="apiKey", name=COOKIE, security_scheme_in="cookie"
                    )
                }
            ),
            security=[{"session": []}],
            use_handler_docstrings=False,
        ),
        on_startup=list(on_startup),
        on_shutdown=list(on_shutdown),
        request_max_body_size=10 * 1024 * 1024,
        debug=False,
    )
    app.state.host = host
    return app
