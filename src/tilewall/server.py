"""Assembles a running host: store, domain, receiver hub, demo, and the ASGI server."""

import asyncio
import logging
from pathlib import Path

from litestar import Litestar

from tilewall.app import create_app
from tilewall.host.host import Host
from tilewall.receivers.bridge import HostBridge
from tilewall.receivers.hub import Hub
from tilewall.receivers.routes import receiver_websocket
from tilewall.receivers.virtual import VirtualReceiver

log = logging.getLogger(__name__)


def make_app(data_dir: Path, demo: bool = False, session_idle_seconds: float = 1800.0) -> Litestar:
    """An app that opens the host in ``data_dir`` on startup and closes it on shutdown."""
    bridge = HostBridge()
    hub = Hub(bridge)
    virtual: list[VirtualReceiver] = []

    async def startup(app: Litestar) -> None:
        from tilewall.cli import ensure_admin

        host = await Host.open(data_dir, idle_timeout_s=session_idle_seconds)
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

    app = create_app(
        None,
        extra_routes=[receiver_websocket(hub)],
        on_startup=[startup],
        on_shutdown=[shutdown],
    )
    app.state.hub = hub
    return app


def run(
    bind: str, port: int, data_dir: Path, demo: bool, server: str, session_idle_seconds: float
) -> None:
    app = make_app(data_dir, demo, session_idle_seconds)
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
