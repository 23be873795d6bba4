"""Assembles a running host: store, domain, receivers hub, demo, and the ASGI server."""

import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path

from litestar import Litestar

from tilewall.app import create_app
from tilewall.app import log as access_logger
from tilewall.config import Config
from tilewall.host.host import Host
from tilewall.host.machine import API_LOG, LOGS_DIR

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
    holder: dict[str, Host] = {}
    handlers: list[logging.Handler] = []

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
        holder["host"] = host
        app.state.host = host
        await ensure_admin(host, data_dir)
        if demo:
            from tilewall.demo import seed_demo

            await seed_demo(host)

    async def shutdown(app: Litestar) -> None:
        host = holder.pop("host", None)
        if host is not None:
            await host.close()
        while handlers:
            handler = handlers.pop()
            access_logger.removeHandler(handler)
            handler.close()

    app = create_app(None, on_startup=[startup], on_shutdown=[shutdown])
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
        import asyncio

        from granian.constants import Interfaces
        from granian.server.embed import Server as Granian

        asyncio.run(Granian(app, address=bind, port=port, interface=Interfaces.ASGI).serve())
        return
    import uvicorn

    uvicorn.run(
        app, host=bind, port=port, log_level="warning", proxy_headers=False, ws_max_size=1024 * 1024
    )
