"""A host on PostgreSQL, driven over HTTP: its state lives in the database (a restart
on another data directory finds it all), ``tilewall serve --database`` works as a real
process, and a database that goes away makes writes answer 503 with nothing applied
until it is back, without restarting the host."""

import logging
import os
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.app import app_client
from tests.support.http import ADMIN, PASSWORD, Api, error, login, ok, url
from tests.support.pgserver import PostgresServer
from tests.support.server import ServerProcess, free_port
from tests.support.sources import WEB, create_source
from tests.support.topology import locked_display, make_wall

ENV = {"TILEWALL_ADMIN_USER": ADMIN, "TILEWALL_ADMIN_PASSWORD": PASSWORD}
WEB_SOURCE = {
    "sourceName": "Lobby page",
    "sourceType": WEB,
    "params": [{"type": "URL", "paramName": "URL", "paramValue": "https://example.org/"}],
}


def client_for(data_dir: Path, database: str) -> Any:
    """The host on ``database`` in this process, as a client without a session yet."""
    return app_client(data_dir, session=False, database=database)


def snapshot(api: Api) -> dict[str, Any]:
    """What a client sees of the topology and content (without who is online now)."""
    seen = {path: ok(api.get(path)) for path in ("/sources", "/presets", "/videowalls", "/zones")}
    displays = ok(api.get("/displays"))
    for item in displays["displays"]:
        item.pop("isOnline", None)
    seen["/displays"] = displays
    return seen


def test_a_restart_on_another_machine_finds_everything_in_the_database(
    data_dir: Path, postgres_url: str, tmp_path: Path
) -> None:
    with client_for(data_dir, postgres_url) as api:
        token = login(api, keep=True)
        api.cookies.set("JSESSIONID", token)
        display = locked_display(api, "pg-seat-1", "10.9.0.1")
        make_wall(api, "Database wall")
        page = create_source(api, WEB, "Kept page", URL="https://example.org/kept")
        ok(api.put(f"/displays/{display}/switch", params={"destinationSourceId": page["sourceId"]}))
        ok(api.put(f"/displays/{display}/tag", json={"displayTag": "in the database"}))
        preset = ok(api.post("/presets", json={"name": "Kept preset"}))
        before = snapshot(api)
    assert before["/sources"]["sources"] and before["/presets"]["presets"]
    assert not (data_dir / "tilewall.db").exists()  # nothing of the state is local

    elsewhere = tmp_path / "another-host"
    with client_for(elsewhere, postgres_url) as api:
        api.cookies.set("JSESSIONID", token)  # the kept session is in the database too
        assert snapshot(api) == before
        assert ok(api.put(url("presets", preset["id"], "switch")))["playing"] is True
    # the admin was made once, by the first host
    assert not (elsewhere / "initial-admin-password").exists()


def _names(api: Api) -> list[str]:
    return sorted(s["sourceName"] for s in ok(api.get("/sources"))["sources"])


def test_writes_answer_503_while_the_database_is_down_and_work_once_it_is_back(
    data_dir: Path,
    postgres_url: str,
    postgres_server: PostgresServer,
) -> None:
    logged = Records()
    tilewall_log = logging.getLogger("tilewall")
    tilewall_log.addHandler(logged)
    try:
        after = _outage(data_dir, postgres_url, postgres_server)
    finally:
        tilewall_log.removeHandler(logged)
    # the host is the only member of its database's group: losing the database is
    # logged once (its link failed: it stops writing at once), and so is being back;
    # the store itself logs a write refused at most once, and its recovery once
    messages = logged.messages
    assert sum(m.startswith("group: its link to the database failed") for m in messages) == 1, (
        messages
    )
    assert sum(m.startswith("group: active, generation") for m in messages) == 2, messages
    assert sum("the store cannot write" in m for m in messages) <= 1, messages
    assert sum("the store writes again after" in m for m in messages) <= 1, messages

    # and the database holds exactly what was acknowledged
    with client_for(data_dir, postgres_url) as api:
        api.cookies.set("JSESSIONID", login(api))
        assert snapshot(api) == after


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _outage(data_dir: Path, postgres_url: str, postgres_server: PostgresServer) -> Any:
    """Write, stop the database, write (refused), start it, write again; what the host
    shows at the end."""
    with client_for(data_dir, postgres_url) as api:
        api.cookies.set("JSESSIONID", login(api))
        kept = ok(api.post("/sources", json={**WEB_SOURCE, "sourceName": "Kept"}))
        wall = make_wall(api, "Wall")
        before = snapshot(api)

        postgres_server.stop("fast")
        try:
            error(api.post("/sources", json=WEB_SOURCE), 503, "nothing was changed")
            error(api.delete(url("videowalls", wall.id)), 503, "nothing was changed")
            renamed = {**WEB_SOURCE, "sourceName": "Renamed"}
            error(api.put(url("sources", kept["sourceId"]), json=renamed), 503)
            # a login is a write too; it is refused, not half-made
            anonymous = api.post("/session", json={"user": ADMIN, "password": PASSWORD})
            assert anonymous.status_code == 503, anonymous.text
            # reads go on from memory, which holds only what was committed
            assert snapshot(api) == before
        finally:
            postgres_server.start()

        # the same host, not restarted: the same write succeeds, once the host (the
        # only member of its group) is back on the database as its active member
        deadline = time.monotonic() + 15
        while (answer := api.post("/sources", json=WEB_SOURCE)).status_code == 503:
            assert time.monotonic() < deadline, answer.text
            time.sleep(0.1)
        ok(answer)
        assert _names(api) == ["Kept", "Lobby page"]
        ok(api.delete(url("videowalls", wall.id)))
        assert ok(api.get("/zones")) == {"zones": []}
        return snapshot(api)


def _serve(data_dir: Path, *extra: str, env: dict[str, str] | None = None) -> ServerProcess:
    """``tilewall serve`` with ``extra`` options, as an operator runs it."""
    return ServerProcess(data_dir, args=extra, env=env).start()


def _session(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=10)
    response = client.post("/session", json={"user": ADMIN, "password": PASSWORD})
    assert response.status_code == 200, response.text
    client.cookies.set("JSESSIONID", response.json()["session"]["value"])
    return client


@pytest.mark.timeout(90)
def test_serve_with_database_as_a_real_process(postgres_url: str, tmp_path: Path) -> None:
    server = _serve(tmp_path / "first", "--database", postgres_url)
    try:
        with closing(_session(server.base)) as client:
            assert client.post("/sources", json=WEB_SOURCE).status_code == 200
    finally:
        server.stop()
    assert not (tmp_path / "first" / "tilewall.db").exists()
    assert (tmp_path / "first" / "logs").is_dir()  # the data directory keeps the logs

    # another host on the same database, given it by the environment
    server = _serve(tmp_path / "second", env={"TILEWALL_DATABASE": postgres_url})
    try:
        with closing(_session(server.base)) as client:
            sources = client.get("/sources").json()["sources"]
            assert [s["sourceName"] for s in sources] == ["Lobby page"]
    finally:
        server.stop()


def test_serve_refuses_a_database_url_it_cannot_use(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from tilewall.cli import main; main()",
            "serve",
            "--port",
            str(free_port()),
            "--data-dir",
            str(tmp_path / "data"),
            "--database",
            "mysql://someone@db/tilewall",
        ],
        env={**os.environ, **ENV},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "postgresql://" in done.stderr
