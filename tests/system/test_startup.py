"""Start-up: ``tilewall serve`` says in a few lines where it listens, which database at
which migration and where the admin password is; it imports and builds only what
serving needs first; the OpenAPI document is kept between starts. (How fast it starts is
measured by ``bench/startup.py``, never asserted.)"""

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from litestar.testing import TestClient

from tests.support.server import free_port
from tests.support.waiting import wait_until
from tilewall.api import openapi
from tilewall.app import create_app
from tilewall.store import open_store
from tilewall.store.migrate import MIGRATIONS, head_revisions

#: modules a host serving from SQLite must not load before its first answer
NOT_FOR_SERVING = (
    "alembic",  # only when a migration is needed
    "asyncpg",
    "sqlalchemy.dialects.postgresql",
    "sqlalchemy.orm",  # the store is SQLAlchemy Core (tilewall.store.engine)
    "tilewall.store.postgres",
    "httpx",  # only when a standby forwards a write
    "granian",  # only when chosen
    "schemathesis",
    "rich",  # only when something is printed
    "psutil",  # only when a machine fact is read
    "cryptography",  # only for TLS, or a licence's signature
    "tilewall.commands.displays",  # the interface commands of the CLI
    "tilewall.client",
)

#: the app as ``tilewall serve`` makes it, started, answering its first request (called
#: as an ASGI app: a test client would load an HTTP client)
SERVE_AND_ANSWER = """
import asyncio, json, sys
from pathlib import Path
import tilewall.cli, tilewall.config
from tilewall.server import make_app

async def main():
    assert tilewall.cli._tls_files(Path(sys.argv[1]), None, None, None) is None  # plain HTTP
    app = make_app(Path(sys.argv[1]))
    sent = []
    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}
    async def send(message):
        sent.append(message)
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": "/api/openapi.json",
             "raw_path": b"/api/openapi.json", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"localhost")], "client": ("127.0.0.1", 1),
             "server": ("127.0.0.1", 9000)}
    async with app.lifespan():
        await app(scope, receive, send)
    assert sent[0]["status"] == 200, sent

asyncio.run(main())
print(json.dumps(sorted(m for m in json.loads(sys.argv[2]) if m in sys.modules)))
"""


def test_a_host_serves_without_loading_what_serving_does_not_need(tmp_path: Path):
    data_dir = tmp_path / "data"

    async def migrated() -> None:
        store = await open_store(data_dir)
        await store.close()

    asyncio.run(migrated())
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "CACHE_DIRECTORY")}
    env.update(HOME=str(tmp_path), TILEWALL_ADMIN_PASSWORD="a password for the test")
    done = subprocess.run(
        [sys.executable, "-c", SERVE_AND_ANSWER, str(data_dir), json.dumps(NOT_FOR_SERVING)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_the_heads_read_from_the_migration_files_are_alembics():
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert head_revisions() == frozenset(ScriptDirectory.from_config(config).get_heads())


def test_the_interface_commands_are_there_when_named_or_listed():
    from click.testing import CliRunner

    from tilewall.cli import main

    listed = CliRunner().invoke(main, ["--help"])
    assert listed.exit_code == 0
    assert "displays" in listed.output and "serve" in listed.output
    named = CliRunner().invoke(main, ["zones", "--help"])
    assert named.exit_code == 0, named.output


def _served(app_folders: list[Path]) -> bytes:
    with TestClient(create_app(None, openapi_cache=app_folders)) as client:
        response = client.get("/api/openapi.json")
        assert response.status_code == 200
        return bytes(response.content)


def test_the_openapi_document_is_kept_between_starts(tmp_path: Path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / f"{openapi.PREFIX}0ld.json").write_bytes(b"{}")  # of other code
    first = _served([folder])
    with TestClient(create_app(None)) as client:  # built afresh, kept nowhere
        assert client.get("/api/openapi.json").content == first
    kept = list(folder.glob(f"{openapi.PREFIX}*.json"))
    assert [p.name for p in kept] == [f"{openapi.PREFIX}{openapi.fingerprint()}.json"]
    assert kept[0].read_bytes() == first

    def not_again(app: object) -> bytes:
        raise AssertionError("the kept document was not used")

    monkeypatch.setattr(openapi, "_build", not_again)
    assert _served([folder]) == first


def test_the_openapi_document_is_kept_in_the_first_folder_that_takes_it(tmp_path: Path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where a folder would be")
    folder = tmp_path / "data" / "cache"
    document = _served([blocked, folder])
    assert json.loads(document)["paths"]
    assert len(list(folder.glob(f"{openapi.PREFIX}*.json"))) == 1


def test_openapi_cache_folders(tmp_path: Path):
    data_dir = tmp_path / "data"
    assert openapi.cache_dirs(data_dir, {}) == [data_dir / "cache"]
    assert openapi.cache_dirs(data_dir, {"HOME": "/home/u"}) == [
        Path("/home/u/.cache/tilewall"),
        data_dir / "cache",
    ]
    assert openapi.cache_dirs(
        data_dir, {"CACHE_DIRECTORY": "/var/cache/tilewall", "XDG_CACHE_HOME": "/x", "HOME": "/h"}
    ) == [Path("/var/cache/tilewall"), Path("/x/tilewall"), data_dir / "cache"]


@pytest.mark.parametrize("changed", ["version", "source"])
def test_the_fingerprint_moves_with_the_code(changed: str, monkeypatch, tmp_path: Path):
    import tilewall

    before = openapi.fingerprint()
    if changed == "version":
        monkeypatch.setattr(tilewall, "__version__", "99.0")
    else:
        package = tmp_path / "tilewall"
        package.mkdir()
        (package / "__init__.py").write_text("")
        monkeypatch.setattr(tilewall, "__file__", str(package / "__init__.py"))
    assert openapi.fingerprint() != before


def serve_until_listening(data_dir: Path, port: int, log: Path) -> str:
    """Run ``tilewall serve`` as an operator does until it says it listens, stop it, and
    return what it wrote."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TILEWALL_")}
    command = [sys.executable, "-c", "import sys; from tilewall.cli import main; sys.exit(main())"]
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data_dir)]
    with log.open("wb") as out:
        process = subprocess.Popen([*command, *args], stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        wait_until(lambda: "listening on" in log.read_text(), 60, 0.1, "the host to listen")
    finally:
        process.terminate()
        process.wait(30)
    return log.read_text()


def test_the_start_up_lines_say_what_a_person_needs(tmp_path: Path) -> None:
    data_dir, port = tmp_path / "data", free_port()
    head = ", ".join(sorted(head_revisions()))
    first = serve_until_listening(data_dir, port, tmp_path / "first.log")
    password = (data_dir / "initial-admin-password").read_text().strip()
    second = serve_until_listening(data_dir, port, tmp_path / "second.log")

    said = [line for line in first.splitlines() if line.strip()]
    assert len(said) <= 4, first
    assert f"database: SQLite {data_dir}/tilewall.db, at migration {head} (created)" in first
    assert (
        f"admin: user 'admin' created; its password is in {data_dir}/initial-admin-password"
        in first
    )
    assert f"listening on http://127.0.0.1:{port}" in first
    assert f"database: SQLite {data_dir}/tilewall.db, at migration {head}\n" in second
    assert f"the password made at the first start is in {data_dir}/initial-admin-password" in second
    for output in (first, second):
        assert password not in output
        assert "alembic" not in output
