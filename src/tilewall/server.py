"""The served host: the app around the host ``tilewall.assembly`` opens (the
interface log, the receivers' hub, the live relays, the first administrator, the demo)
and the HTTP server that runs it (uvicorn or granian, HTTP or HTTPS)."""

import asyncio
import gc
import logging
import os
import secrets
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import TYPE_CHECKING

from litestar import Litestar

from tilewall.app import access_log_formatter, create_app, flush_access_log, openapi_cache_dirs
from tilewall.app import log as access_logger
from tilewall.assembly import open_member_host
from tilewall.config import Config
from tilewall.host.host import Host
from tilewall.live.feeds import LiveRelays
from tilewall.live.latency import DelayPolicy
from tilewall.live.services import live_services
from tilewall.metrics import Metrics
from tilewall.platform.data_files import API_LOG, LOGS_DIR
from tilewall.reaches.uvicorn_connection import keeping_server_send
from tilewall.receivers.bridge import HostBridge
from tilewall.receivers.hub import Hub
from tilewall.receivers.routes import receiver_websocket, receivers_first
from tilewall.receivers.virtual import VirtualReceiver

if TYPE_CHECKING:
    from tilewall.tls import TlsFiles

log = logging.getLogger(__name__)


#: a test hook, off unless set: ``SIGUSR1`` then blocks the event loop this many seconds
#: (what a blocking call in a handler does), to test that the group survives it
BLOCK_LOOP_ENV = "TILEWALL_TEST_BLOCK_LOOP_S"


def block_on_signal() -> None:
    """Install the test hook of :data:`BLOCK_LOOP_ENV` when that is set."""
    seconds = os.environ.get(BLOCK_LOOP_ENV, "").strip()
    if not seconds:
        return
    import signal
    import time

    log.warning("test hook: SIGUSR1 blocks the event loop for %s s", seconds)
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, time.sleep, float(seconds))


#: the generated password of the first administrator, readable by the host's user only
INITIAL_PASSWORD_FILE = "initial-admin-password"


async def ensure_admin(host: Host, data_dir: Path) -> None:
    """First start: create the admin user, with a generated password unless one is given.
    The password is never logged: the start-up line says where it is."""
    path = data_dir / INITIAL_PASSWORD_FILE
    if host.accounts.users():
        if path.exists():
            log.info("admin: the password made at the first start is in %s", path)
        return
    user = os.environ.get("TILEWALL_ADMIN_USER", "admin")
    password = os.environ.get("TILEWALL_ADMIN_PASSWORD")
    if password:
        await host.accounts.set_password(user, password)
        log.info("admin: user %r created with the password of TILEWALL_ADMIN_PASSWORD", user)
        return
    password = secrets.token_urlsafe(12)
    await host.accounts.set_password(user, password)
    path.write_text(password + "\n")
    path.chmod(0o600)
    log.info("admin: user %r created; its password is in %s", user, path)


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
    handler.setFormatter(access_log_formatter())
    handler.setLevel(logging.INFO)
    return handler


def make_app(
    data_dir: Path,
    demo: bool = False,
    session_idle_seconds: float = 1800.0,
    config: Config | None = None,
    database: str | None = None,
    address: str | None = None,
) -> Litestar:
    """An app that opens the host in ``data_dir`` on startup and closes it on shutdown.

    ``config`` defaults to :meth:`Config.load` (environment and ``data_dir``);
    ``database``, a PostgreSQL URL, overrides the configuration's store; ``address``
    is where the host is reached (else the configuration's ``advertise``).
    """
    life = _Lifetime(data_dir, demo, session_idle_seconds, config, database, address)
    app = create_app(
        None,
        extra_routes=[receiver_websocket(life.hub)],
        on_startup=[life.startup],
        on_shutdown=[life.shutdown],
        openapi_cache=openapi_cache_dirs(data_dir),
    )
    app.state.hub = life.hub
    return app


class _Lifetime:
    """What the served app starts around its host and stops after it: the interface
    log, the host (a member of its group on PostgreSQL), the receivers' hub, the live
    relays, the first administrator and the demo."""

    def __init__(
        self,
        data_dir: Path,
        demo: bool,
        session_idle_seconds: float,
        config: Config | None,
        database: str | None,
        address: str | None,
    ) -> None:
        self.data_dir = data_dir
        self.demo = demo
        self.session_idle_seconds = session_idle_seconds
        self.config = config
        self.database = database
        self.address = address
        self.handlers: list[logging.Handler] = []
        self.bridge = HostBridge()
        self.hub = Hub(self.bridge, stations=self.bridge)
        self.virtual: list[VirtualReceiver] = []

    async def startup(self, app: Litestar) -> None:
        block_on_signal()
        self._open_api_log()
        config = self.config or Config.load(self.data_dir)
        host = await open_member_host(
            self.data_dir,
            config,
            address=self.address or config.advertise or "http://127.0.0.1:9000",
            idle_timeout_s=self.session_idle_seconds,
            database=self.database,
        )
        app.state.host = host
        metrics: Metrics = app.state.metrics
        metrics.attach(host)
        self.hub.push_observers.append(metrics.observe_fanout)
        live = live_services(host, DelayPolicy(config.live_delay_ms))
        app.state.live, app.state.live_fmp4 = live.relays, live.fmp4
        app.state.shares = live.shares
        app.state.agent_captures = live.captures
        metrics.attach_live(live.relays)
        self.bridge.attach(host, self.hub)
        await self.hub.start()

        async def admin() -> None:
            await ensure_admin(host, self.data_dir)

        # duties: what only the active member of a group of hosts runs
        host.hostgroup.add_duty("the first administrator", admin, _nothing)
        if self.demo:
            host.hostgroup.add_duty("the demo", lambda: self._start_demo(host), self._stop_demo)
        await host.start()

    def _open_api_log(self) -> None:
        handler = api_log_handler(self.data_dir)
        self.handlers.append(handler)
        access_logger.addHandler(handler)
        if access_logger.level == logging.NOTSET or access_logger.level > logging.INFO:
            access_logger.setLevel(logging.INFO)

    async def _start_demo(self, host: Host) -> None:
        """The demo's virtual receivers (run by the active member only) and its topology."""
        from tilewall.demo import SEATS, seed_demo

        for n, seat in enumerate(SEATS, start=1):
            receiver = VirtualReceiver(self.hub, seat, name=f"Demo {n}")
            await receiver.connect()
            self.virtual.append(receiver)
        await seed_demo(host)

    async def _stop_demo(self) -> None:
        for receiver in self.virtual:
            await receiver.disconnect()
        self.virtual.clear()

    async def shutdown(self, app: Litestar) -> None:
        host: Host | None = getattr(app.state, "host", None)
        if host is not None:
            await host.hostgroup.stop()
        relays: LiveRelays | None = getattr(app.state, "live", None)
        if relays is not None:
            await relays.stop()
        await self._stop_demo()
        await self.hub.stop()
        if host is not None:
            await host.close()
        await asyncio.to_thread(flush_access_log)
        while self.handlers:
            handler = self.handlers.pop()
            access_logger.removeHandler(handler)
            handler.close()


#: how long after start-up what is loaded is frozen (``_settle``)
SETTLE_AFTER_S = 2.0


async def _nothing() -> None:
    return None


def _settle() -> None:
    """A moment after start-up (not in its way): what is loaded by then (the code, the
    host's state) stays, so the garbage collector's full passes leave it out. They
    otherwise walk all of it every few pushes to a thousand receivers, a pause of tens of
    milliseconds each."""

    def freeze() -> None:
        gc.collect()
        gc.freeze()

    asyncio.get_running_loop().call_later(SETTLE_AFTER_S, freeze)


def advertised(bind: str, port: int, config: Config) -> str:
    """Where this host is reached: the configuration's, else the address it binds (or the
    machine's primary IPv4 when it binds them all) and its port."""
    if config.advertise:
        return config.advertise
    host = bind
    if bind in ("", "0.0.0.0", "::"):
        from tilewall.platform.facts import primary_ipv4

        host = primary_ipv4() or "127.0.0.1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def run(
    bind: str,
    port: int,
    data_dir: Path,
    demo: bool,
    server: str,
    session_idle_seconds: float,
    config: Config | None = None,
    tls: "TlsFiles | None" = None,
) -> None:
    """Serve on ``bind``:``port``; HTTPS (and WSS) with ``tls``, else plain HTTP."""
    config = config or Config.load(data_dir)
    reached = advertised(bind, port, config)
    app = make_app(data_dir, demo, session_idle_seconds, config, address=reached)
    # receivers' connections go to the hub straight from the server (receivers/routes.py);
    # live viewers' connections keep the server's send (reaches/uvicorn_connection.py)
    served = keeping_server_send(receivers_first(app, app.state.hub))
    app.on_startup.append(_settle)
    listening = f"{'https' if tls else 'http'}://{bind}:{port}"
    also = "" if reached == listening else f" (reached as {reached})"
    app.on_startup.append(lambda: log.info("listening on %s%s", listening, also))
    if server == "granian":
        from granian.constants import Interfaces
        from granian.server.embed import Server as Granian

        granian = Granian(
            served,
            address=bind,
            port=port,
            interface=Interfaces.ASGI,
            ssl_cert=tls.cert if tls else None,
            ssl_key=tls.key if tls else None,
        )
        asyncio.run(granian.serve())
        return
    import uvicorn

    from tilewall.uvicorn_server import Server

    options = uvicorn.Config(
        served,
        host=bind,
        port=port,
        log_level="warning",
        proxy_headers=False,
        ws_max_size=1024 * 1024,
        # no permessage-deflate: its compressor costs every connection some hundreds of
        # KB (a thousand receivers: most of the host's memory) and every text written
        # a compression of its own, where receivers are on the local network
        ws_per_message_deflate=False,
        # the hub pings every receiver each second (receivers/liveness.py): no timer of
        # the server's own per connection
        ws_ping_interval=None,
        ssl_certfile=tls.cert if tls else None,
        ssl_keyfile=tls.key if tls else None,
    )
    # the console's event streams end when it stops (uvicorn_server.py)
    serving = Server(options, app)
    serving.run()
    if not serving.started:
        sys.exit(3)  # as uvicorn.run does: it could not start (say, the port is taken)
