"""Assembles a running host: store, domain, receiver hub, demo, and the ASGI server."""

import asyncio
import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path

from litestar import Litestar

from tilewall.app import create_app
from tilewall.app import log as access_logger
from tilewall.config import Config
from tilewall.host.host import Host
from tilewall.host.system.machine import API_LOG, LOGS_DIR
from tilewall.receivers.bridge import HostBridge
from tilewall.receivers.hub import Hub
from tilewall.receivers.routes import receiver_websocket
from tilewall.receivers.virtual import VirtualReceiver

log = logging.getLogger(__name__)

#: the interface log rotates at this size, keeping this many older files
API_LOG_BYTES = 5 * 1024 * 1024
API_LOG_BACKUPS = 3


def api_log_handler(data_dir: Path) -> RotatingFileHandler:
    """A handler writing the access log to ``DATA_DIR/logs/api.log``, rotated."""
    folder = data_dir / LOGS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    handler = RotatingFileHandler(
        folder / API_LOG, maxBytes=API_LOG_BYTES, backupCount=API_LOG_BACKUPS, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    handler.setLevel(logging.INFO)
    return handler


def make_app(
    data_dir: Path,
    demo: bool = False,
    session_idle_seconds: float = 1800.0,
    config: Config | None = None,
) -> Litestar:
    """An app that opens the host in ``data_dir`` on startup and closes it on shutdown.

    ``config`` defaults to :meth:`Config.load` (environment and ``data_dir``).
    """
    handlers: list[logging.Handler] = []
    bridge = HostBridge()
    hub = Hub(bridge)
    virtual: list[VirtualReceiver] = []

    async def startup(app: Litestar) -> None:
        from tilewall.cli import ensure_admin

        handler = api_log_handler(data_dir)
        handlers.append(handler)
        access_logger.addHandler(handler)
        if access_logger.level == logging.NOTSET or access_logger.level > logging.INFO:
            access_logger.setLevel(logging.INFO)
        host = await Host.open(
            data_dir,
            idle_timeout_s=session_idle_seconds,
            config=config or Config.load(data_dir),
        )
        app.state.host = host
        bridge.attach(host, hub)
        await hub.start()
        await ensure_admin(host, data_dir)
        if demo:
            from tilewall.demo import SEATS, seed_demo

            for n, seat in enumerate(SEATS, start=1):
                receiver = VirtualReceiver(hub, seat, name=f"Demo {n}")
                await receiver.connect()
                virtual.append(receiver)
            await seed_demo(host)

    async def shutdown(app: Litestar) -> None:
        for receiver in virtual:
            await receiver.disconnect()
        virtual.clear()
        await hub.stop()
        host: Host | None = getattr(app.state, "host", None)
        if host is not None:
            await host.close()
        while handlers:
            handler = handlers.pop()
            access_logger.removeHandler(handler)
            handler.close()

    app = create_app(
        None,
        extra_routes=[receiver_websocket(hub)],
        on_startup=[startup],
        on_shutdown=[shutdown],
    )
    app.state.hub = hub
    return app


def run(
    bind: str,
    port: int,
    data_dir: Path,
    demo: bool,
    server: str,
    session_idle_seconds: float,
    config: Config | None = None,
) -> None:
    app = make_app(data_dir, demo, session_idle_seconds, config)
    if server == "granian":
        from granian.constants import Interfaces
        from granian.server.embed import Server as Granian

        asyncio.run(Granian(app, address=bind, port=port, interface=Interfaces.ASGI).serve())
        return
    import uvicorn

    uvicorn.run(
        app,
        host=bind,
        port=port,
        log_level="warning",
        proxy_headers=False,
        ws_max_size=1024 * 1024,
    )
