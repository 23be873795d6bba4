"""Assembles a running host: store, machine adapters, domain, receiver hub, demo, and
the ASGI server. This is the one place that builds a :class:`Host` from configuration."""

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
from tilewall.config import Config
from tilewall.host.host import Host, MachineFactory
from tilewall.host.machine.ports import SettingsStore
from tilewall.host.playback import timeline
from tilewall.host.ports import Clock, GroupCoordination, Persistence, PlayLogStore
from tilewall.live.feeds import LiveRelays
from tilewall.live.services import live_services
from tilewall.metrics import Metrics
from tilewall.platform import Platform, platform_for
from tilewall.platform.data_files import API_LOG, LOGS_DIR, DataDirectory
from tilewall.platform.media_files import FolderMediaFiles
from tilewall.receivers.bridge import HostBridge
from tilewall.receivers.hub import Hub
from tilewall.receivers.routes import receiver_websocket, receivers_first
from tilewall.receivers.virtual import VirtualReceiver
from tilewall.store import database_line, is_postgres, open_store
from tilewall.store.plays import PlayRecords

if TYPE_CHECKING:
    from tilewall.tls import TlsFiles

log = logging.getLogger(__name__)


def machine_for(config: Config) -> MachineFactory:
    """The machine adapters the configuration asks for: real with host management,
    simulated (kept in the host's settings) without."""

    def build(settings: SettingsStore) -> Platform:
        return platform_for(
            config.host_management,
            settings,
            network_apply_seconds=config.network_apply_seconds,
        )

    return build


def build_host(
    store: Persistence | None,
    data_dir: Path,
    config: Config | None = None,
    *,
    clock: Clock | None = None,
    idle_timeout_s: float = 1800.0,
    machine: MachineFactory | None = None,
    plays: PlayLogStore | None = None,
    member_store: Persistence | None = None,
    coordination: GroupCoordination | None = None,
) -> Host:
    """A host over ``store`` (and ``plays``, its play log) with its media and logs in
    ``data_dir``; not yet loaded.

    A member of a group also has its own ``member_store`` and the group's
    ``coordination``."""
    config = config or Config()
    timeline.set_start_lead_ms(config.start_lead_ms)
    return Host(
        store,
        FolderMediaFiles(config.media_dir or data_dir / "media"),
        machine or machine_for(config),
        clock=clock,
        idle_timeout_s=idle_timeout_s,
        trusted_keys=config.trusted_keys,
        configuration={
            "network_apply_seconds": config.network_apply_seconds,
            # key ids and where they came from; the keys are public anyway
            "trusted_licence_keys": dict(config.key_sources),
        },
        files=DataDirectory(data_dir),
        plays=plays,
        member_store=member_store,
        coordination=coordination,
    )


async def open_host(
    data_dir: Path,
    config: Config | None = None,
    *,
    clock: Clock | None = None,
    idle_timeout_s: float = 1800.0,
    database: str | None = None,
) -> Host:
    """The host with its media and logs in ``data_dir``, loaded and ready; its state is
    in the database ``database`` (else the configuration's), or SQLite in ``data_dir``.

    This host takes no part in a group (operators' tools open it so); a served host on
    PostgreSQL is a member of its database's group (:func:`open_member_host`)."""
    config = config or Config.load(data_dir)
    store = await open_store(data_dir, database or config.database)
    host = build_host(
        store,
        data_dir,
        config,
        clock=clock,
        idle_timeout_s=idle_timeout_s,
        plays=PlayRecords(store.engine),
    )
    await host.load()
    return host


async def open_member_host(
    data_dir: Path,
    config: Config,
    *,
    address: str,
    idle_timeout_s: float = 1800.0,
    database: str | None = None,
) -> Host:
    """The host a server runs: on SQLite, on its own; on PostgreSQL, a member of the group
    of hosts on that database, reached at ``address`` (not yet started: see
    :meth:`~tilewall.host.host.Host.start`)."""
    store = await open_store(data_dir, database or config.database)
    log.info("database: %s", database_line(store))
    if not is_postgres(store):
        host = build_host(
            store, data_dir, config, idle_timeout_s=idle_timeout_s, plays=PlayRecords(store.engine)
        )
        await host.load()
        return host
    from tilewall.store.member import open_member
    from tilewall.store.postgres import PostgresStore

    assert isinstance(store, PostgresStore)
    member = await open_member(store, data_dir, address, config.group_lease_ms / 1000)
    host = build_host(
        store,
        data_dir,
        config,
        idle_timeout_s=idle_timeout_s,
        plays=PlayRecords(store.engine),
        member_store=member.store,
        coordination=member.group,
    )
    await host.load()
    member.group.identify(
        await member.system_id(host.failover.system_id, host.failover.replace_system_id),
        lambda: host.platform.facts.host_name(),
    )
    return host


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
    handlers: list[logging.Handler] = []
    bridge = HostBridge()
    hub = Hub(bridge, stations=bridge)
    virtual: list[VirtualReceiver] = []

    async def startup(app: Litestar) -> None:
        block_on_signal()
        handler = api_log_handler(data_dir)
        handlers.append(handler)
        access_logger.addHandler(handler)
        if access_logger.level == logging.NOTSET or access_logger.level > logging.INFO:
            access_logger.setLevel(logging.INFO)
        loaded = config or Config.load(data_dir)
        host = await open_member_host(
            data_dir,
            loaded,
            address=address or loaded.advertise or "http://127.0.0.1:9000",
            idle_timeout_s=session_idle_seconds,
            database=database,
        )
        app.state.host = host
        metrics: Metrics = app.state.metrics
        metrics.attach(host)
        hub.push_observers.append(metrics.observe_fanout)
        live = live_services(host, loaded.live_delay_ms)
        app.state.live, app.state.live_fmp4 = live.relays, live.fmp4
        app.state.shares = live.shares
        app.state.agent_captures = live.captures
        metrics.attach_live(live.relays)
        bridge.attach(host, hub)
        await hub.start()

        async def admin() -> None:
            await ensure_admin(host, data_dir)

        host.hostgroup.add_duty("the first administrator", admin, _nothing)
        if demo:
            host.hostgroup.add_duty("the demo", lambda: _start_demo(host, hub, virtual), _stop_demo)
        await host.start()

    async def _stop_demo() -> None:
        for receiver in virtual:
            await receiver.disconnect()
        virtual.clear()

    async def shutdown(app: Litestar) -> None:
        host: Host | None = getattr(app.state, "host", None)
        if host is not None:
            await host.hostgroup.stop()
        relays: LiveRelays | None = getattr(app.state, "live", None)
        if relays is not None:
            await relays.stop()
        await _stop_demo()
        await hub.stop()
        if host is not None:
            await host.close()
        await asyncio.to_thread(flush_access_log)
        while handlers:
            handler = handlers.pop()
            access_logger.removeHandler(handler)
            handler.close()

    app = create_app(
        None,
        extra_routes=[receiver_websocket(hub)],
        on_startup=[startup],
        on_shutdown=[shutdown],
        openapi_cache=openapi_cache_dirs(data_dir),
    )
    app.state.hub = hub
    return app


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


async def _start_demo(host: Host, hub: Hub, virtual: list[VirtualReceiver]) -> None:
    """The demo's virtual receivers (run by the active member only) and its topology."""
    from tilewall.demo import SEATS, seed_demo

    for n, seat in enumerate(SEATS, start=1):
        receiver = VirtualReceiver(hub, seat, name=f"Demo {n}")
        await receiver.connect()
        virtual.append(receiver)
    await seed_demo(host)


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
    # receivers' connections go to the hub straight from the server (receivers/routes.py)
    served = receivers_first(app, app.state.hub)
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
