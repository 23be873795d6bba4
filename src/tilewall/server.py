"""Assembles a running host: store, domain, receivers hub, demo, and the ASGI server."""

import logging
from pathlib import Path

from litestar import Litestar

from tilewall.app import create_app
from tilewall.host.host import Host

log = logging.getLogger(__name__)


def make_app(data_dir: Path, demo: bool = False, session_idle_seconds: float = 1800.0) -> Litestar:
    """An app that opens the host in ``data_dir`` on startup and closes it on shutdown."""
    holder: dict[str, Host] = {}

    async def startup(app: Litestar) -> None:
        from tilewall.cli import ensure_admin

        host = await Host.open(data_dir, idle_timeout_s=session_idle_seconds)
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

    app = create_app(None, on_startup=[startup], on_shutdown=[shutdown])
    return app


def run(
    bind: str, port: int, data_dir: Path, demo: bool, server: str, session_idle_seconds: float
) -> None:
    app = make_app(data_dir, demo, session_idle_seconds)
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
