"""What tilewall's reaches into libraries' private parts (``src/tilewall/reaches/``) rely
on, checked against the installed versions. When an upgrade breaks one, the failure says
what changed upstream and which reach it breaks (docs/architecture.md, "Reaches into
libraries"); the pins in pyproject.toml keep to the versions these pass with, and the
lock (requirements/dev.lock) holds those versions."""

import asyncio
import json
import re
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import aiosqlite
import litestar
import pytest
import sqlalchemy
import uvicorn
from litestar import Litestar, Request, Router, get
from litestar.testing import TestClient
from websockets.asyncio.client import connect
from websockets.protocol import Side, State

from tests.support.server import serve_asgi
from tilewall.reaches import uvicorn_connection
from tilewall.reaches.aiosqlite_thread import run_on_thread
from tilewall.reaches.litestar_router import AppRouter

ROOT = Path(__file__).resolve().parent.parent


# Litestar: routers registered without a deep copy (reaches/litestar_router.py)


class CountedRouter(Router):
    copies = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> "CountedRouter":
        CountedRouter.copies += 1
        return self


@get("/hello", sync_to_thread=False)
def hello(request: Request[Any, Any, Any]) -> dict[str, Any]:
    return {"hooked": request.scope.get("hooked", False)}


def hook(request: Request[Any, Any, Any]) -> None:
    request.scope["hooked"] = True  # type: ignore[typeddict-unknown-key]


def test_litestar_still_copies_a_router_it_registers() -> None:
    CountedRouter.copies = 0
    Litestar(route_handlers=[CountedRouter(path="/api", route_handlers=[hello])])
    assert CountedRouter.copies == 1, (
        f"Litestar {litestar.__version__} no longer deep-copies a router it registers "
        "(Router.register): AppRouter's __deepcopy__ (tilewall.reaches.litestar_router) "
        "saves nothing now; make the routers plain Routers and drop the reach"
    )


def test_a_router_registered_as_it_is_serves_its_routes_with_its_layers() -> None:
    router = AppRouter(path="/api", route_handlers=[hello], before_request=hook)
    app = Litestar(route_handlers=[router])
    with TestClient(app) as client:
        answer = client.get("/api/hello")
    assert (answer.status_code, answer.json()) == (200, {"hooked": True}), (
        f"Litestar {litestar.__version__} no longer serves a router registered without "
        f"its copy (tilewall.reaches.litestar_router): GET /api/hello gave "
        f"{answer.status_code} {answer.text[:200]}"
    )
    assert router.owner is app, (
        f"Litestar {litestar.__version__} registers a router otherwise than by setting "
        "the owner of its copy: check Router.register against "
        "tilewall.reaches.litestar_router"
    )


# uvicorn: frames written straight to the connection (reaches/uvicorn_connection.py)


def test_uvicorn_serves_websockets_with_the_protocol_the_direct_writes_know() -> None:
    config = uvicorn.Config(lambda *args: None, ws="auto")
    config.load()
    module = config.ws_protocol_class.__module__ if config.ws_protocol_class else None
    assert module == uvicorn_connection.UVICORN_WEBSOCKETS, (
        f"uvicorn {uvicorn.__version__} serves WebSockets by default with {module}, "
        f"where tilewall's direct writes know {uvicorn_connection.UVICORN_WEBSOCKETS} "
        "only: every push would go through the ASGI send (slower); adapt "
        "tilewall.reaches.uvicorn_connection or pass ws= to uvicorn.run in server.py"
    )


async def test_uvicorns_websocket_send_is_a_method_of_its_protocol() -> None:
    seen: dict[str, Any] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        protocol = getattr(send, "__self__", None)
        seen["protocol"] = type(protocol).__module__ + "." + type(protocol).__qualname__
        seen["found"] = uvicorn_connection.uvicorn_protocol(send) is protocol is not None
        seen["missing"] = [
            name for name in uvicorn_connection.PROTOCOL_ATTRIBUTES if not hasattr(protocol, name)
        ]
        conn = getattr(protocol, "conn", None)
        seen["conn"] = (getattr(conn, "state", None), getattr(conn, "side", None))
        seen["writer"] = uvicorn_connection.direct_writer(send) is not None
        await receive()

    async with (
        serve_asgi(app) as port,
        asyncio.timeout(10),
        connect(f"ws://127.0.0.1:{port}/", compression=None),
    ):
        for _ in range(100):
            if "writer" in seen:
                break
            await asyncio.sleep(0.02)
    version = f"uvicorn {uvicorn.__version__}"
    assert seen.get("found"), (
        f"{version}: the ASGI send of a WebSocket is no longer a bound method of a "
        f"protocol in {uvicorn_connection.UVICORN_WEBSOCKETS} (send.__self__ is "
        f"{seen.get('protocol')}): tilewall.reaches.uvicorn_connection no longer finds "
        "the connection"
    )
    assert seen["missing"] == [], (
        f"{version}: the WebSocket protocol {seen['protocol']} no longer has "
        f"{seen['missing']}, which tilewall.reaches.uvicorn_connection reads or clears"
    )
    assert seen["conn"] == (State.OPEN, Side.SERVER), (
        f"{version}: protocol.conn of an accepted connection is no longer a websockets "
        f"server connection in the OPEN state ({seen['conn']})"
    )
    assert seen["writer"], f"{version}: direct_writer refuses an open uncompressed connection"


# SQLAlchemy: its asyncio engine without its ORM (reaches/sqlalchemy_core_only.py)

IN_A_FRESH_INTERPRETER = """
import json, sys, traceback
import sqlalchemy as sa

class Watch:
    '''Notes where sqlalchemy.orm is first imported from.'''
    where = None
    def find_spec(self, name, path=None, target=None):
        if name == "sqlalchemy.orm" and Watch.where is None:
            stack = [f for f in traceback.extract_stack()[:-1] if "importlib" not in f.filename]
            Watch.where = [f"{f.filename.split('site-packages/')[-1]}:{f.lineno}" for f in stack][-4:]
        return None
sys.meta_path.insert(0, Watch())

from tilewall.store.engine import AsyncEngine, create_async_engine
seen = {"orm_with_engine": Watch.where}

import asyncio
async def select_one():
    engine = create_async_engine("sqlite+aiosqlite://")
    async with engine.connect() as connection:
        one = (await connection.execute(sa.text("select 1"))).scalar()
    await engine.dispose()
    return one
seen["one"] = asyncio.run(select_one())
seen["orm_after_use"] = Watch.where

from sqlalchemy.ext.asyncio import exc  # a submodule: loads just that
seen["orm_after_submodule"] = Watch.where

from sqlalchemy.ext.asyncio import AsyncEngine as Again, AsyncSession
import sqlalchemy.ext.asyncio as package
seen["same_engine"] = Again is AsyncEngine
seen["session"] = AsyncSession.__name__
names = ["async_sessionmaker", "async_scoped_session", "AsyncConnection", "AsyncResult"]
seen["whole"] = [name for name in names if not hasattr(package, name)]
print(json.dumps(seen))
"""


def test_sqlalchemys_asyncio_engine_comes_without_its_orm_and_the_package_stays_whole() -> None:
    done = subprocess.run(
        [sys.executable, "-c", IN_A_FRESH_INTERPRETER], capture_output=True, text=True, timeout=60
    )
    version = f"SQLAlchemy {sqlalchemy.__version__}"
    assert done.returncode == 0, (
        f"{version}: the asyncio engine without the ORM no longer works "
        f"(tilewall.reaches.sqlalchemy_core_only):\n{done.stderr[-3000:]}"
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    for moment in ("orm_with_engine", "orm_after_use", "orm_after_submodule"):
        assert seen[moment] is None, (
            f"{version} imports sqlalchemy.orm with the asyncio engine now ({moment}), "
            f"from {seen[moment]}: tilewall.reaches.sqlalchemy_core_only no longer keeps "
            "the ORM out (its ~7 MB and 0.2 s of CPU are back at every start)"
        )
    assert seen["one"] == 1
    assert (seen["same_engine"], seen["session"], seen["whole"]) == (True, "AsyncSession", []), (
        f"{version}: sqlalchemy.ext.asyncio, made lazy by "
        f"tilewall.reaches.sqlalchemy_core_only, no longer loads whole when asked: {seen}"
    )


# The lock: the versions the tests pass with


def check_lock(pyproject: Path) -> subprocess.CompletedProcess[str]:
    lock = ROOT / "requirements" / "dev.lock"
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "check-lock"), str(pyproject), str(lock)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_lock_holds_every_dependency_of_pyproject() -> None:
    done = check_lock(ROOT / "pyproject.toml")
    assert done.returncode == 0, done.stderr


def test_a_dependency_missing_from_the_lock_is_named(tmp_path: Path) -> None:
    text = (ROOT / "pyproject.toml").read_text()
    text = text.replace('  "msgspec>=', '  "no-such-package-tilewall>=1",\n  "msgspec>=', 1)
    text = text.replace('  "ruff>=0.5"', '  "ruff>=999"', 1)
    (tmp_path / "pyproject.toml").write_text(text)
    done = check_lock(tmp_path / "pyproject.toml")
    assert done.returncode == 1
    assert "no-such-package-tilewall>=1 (wanted by tilewall) is not in the lock" in done.stderr
    lock = (ROOT / "requirements" / "dev.lock").read_text()
    ruff = re.search(r"^ruff==(\S+)", lock, re.M)
    assert ruff is not None
    assert f"ruff>=999 (wanted by tilewall[dev]): the lock has {ruff[1]}" in done.stderr
    assert "Run `make lock`" in done.stderr


@pytest.mark.parametrize("name", ["litestar", "uvicorn", "sqlalchemy"])
def test_the_libraries_reached_into_are_pinned_to_a_minor_release(name: str) -> None:
    """An upgrade past the tested range is a choice made with `make lock`, these tests
    run after it."""
    text = (ROOT / "pyproject.toml").read_text()
    line = next(
        (raw for raw in text.splitlines() if raw.strip().strip('"').lower().startswith(name)),
        "",
    )
    assert ">=" in line and ",<" in line, f"pyproject.toml: {name} is not pinned: {line!r}"


# aiosqlite: a batch's statements run in one trip to the connection's thread
# (reaches/aiosqlite_thread.py)


async def test_aiosqlite_runs_a_function_on_its_connections_thread() -> None:
    async with aiosqlite.connect(":memory:") as driver:
        missing = [name for name in ("_execute", "_conn") if not hasattr(driver, name)]
        assert not missing, (
            f"aiosqlite {aiosqlite.__version__} has no Connection.{', '.join(missing)}: "
            "tilewall.reaches.aiosqlite_thread cannot run a batch's statements in one trip "
            "to the connection's thread; run them through SQLAlchemy's adapter (three trips "
            "a statement) or through aiosqlite's new way, and drop the reach"
        )

        def work(connection: sqlite3.Connection) -> tuple[int, int]:
            return threading.get_ident(), connection.execute("SELECT 41 + 1").fetchone()[0]

        thread, answer = await run_on_thread(driver, work)
    assert answer == 42
    assert thread != threading.get_ident(), (
        f"aiosqlite {aiosqlite.__version__} ran Connection._execute's function on the "
        "event loop's thread, not the connection's: tilewall.reaches.aiosqlite_thread "
        "would block the loop for every batch of changes"
    )
