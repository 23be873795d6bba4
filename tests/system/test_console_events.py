"""The console's event stream (``GET /api/console/events``) over real HTTP from a real
server: an event after a change made through the interface, 401 without a session, and
a host that stops at once while a stream is open."""

import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.http import SESSION_COOKIE, error, login
from tests.support.server import ServerProcess


@pytest.fixture
def host(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path / "data")
    server.start()
    try:
        yield server
    finally:
        server.close()


def events(lines: Iterator[str]) -> Iterator[tuple[str, str]]:
    """(event, data) of each event of a stream; ("comment", text) for a comment."""
    name, data = "message", ""
    for line in lines:
        if line.startswith(":"):
            yield "comment", line[1:].strip()
        elif line.startswith("event:"):
            name = line.split(":", 1)[1].strip()
        elif line.startswith("data:"):
            data = line.split(":", 1)[1].strip()
        elif line == "" and data:
            yield name, data
            name, data = "message", ""


def open_stream(host: ServerProcess, client: httpx.Client) -> httpx.Response:
    token = login(host.client(session=False))
    request = client.build_request(
        "GET", f"{host.base}/console/events", cookies={SESSION_COOKIE: token}
    )
    response = client.send(request, stream=True)
    assert response.status_code == 200, response.read()
    assert response.headers["content-type"].startswith("text/event-stream")
    return response


def test_an_event_follows_a_change_made_through_the_interface(host: ServerProcess) -> None:
    with httpx.Client(timeout=httpx.Timeout(10.0, read=20.0)) as client:
        response = open_stream(host, client)
        try:
            stream = events(response.iter_lines())
            name, data = next(stream)
            assert name == "revision"
            first = int(data)
            host.ok("POST", "/presets", json={"name": "evening"})
            name, data = next(e for e in stream if e[0] != "comment")
            assert name == "revision" and int(data) > first
        finally:
            response.close()


def test_no_stream_without_a_session(host: ServerProcess) -> None:
    error(httpx.get(f"{host.base}/console/events", timeout=10), 401, "log in")
    response = httpx.get(
        f"{host.base}/console/events", cookies={SESSION_COOKIE: "not-a-session"}, timeout=10
    )
    error(response, 401, "session")


def test_the_host_stops_at_once_with_a_stream_open(host: ServerProcess) -> None:
    with httpx.Client(timeout=httpx.Timeout(10.0, read=20.0)) as client:
        response = open_stream(host, client)
        try:
            stream = events(response.iter_lines())
            assert next(stream)[0] == "revision"
            host.stop()  # SIGTERM; SIGKILL after 10 s if it has not ended
            assert host.process is not None
            # it ended by itself, and ended the stream rather than cancel it
            assert host.process.returncode != -signal.SIGKILL, "the host had to be killed"
            assert list(stream) == []
            assert "timeout graceful shutdown exceeded" not in host.log()
        finally:
            response.close()


def test_the_stream_ends_at_once_when_its_user_is_disabled(host: ServerProcess) -> None:
    body = {"userName": "wall-desk", "password": "wall-desk-password", "role": "operator"}
    host.ok("POST", "/users", json=body)
    desk = host.client(session=False)
    desk.user, desk.password = body["userName"], body["password"]
    token = login(desk)
    with httpx.Client(timeout=httpx.Timeout(10.0, read=5.0)) as client:
        request = client.build_request(
            "GET", f"{host.base}/console/events", cookies={SESSION_COOKIE: token}
        )
        response = client.send(request, stream=True)
        try:
            assert response.status_code == 200
            stream = events(response.iter_lines())
            assert next(stream)[0] == "revision"
            host.ok("PUT", "/users/wall-desk", json={"disabled": True})
            # no heartbeat comes first: the read would time out (5 s) if it did not end
            assert [e for e in stream if e[0] != "revision"] == []
        finally:
            response.close()
