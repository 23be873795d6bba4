"""Logging in and out, the URL the client talks to, and the one error type: the host's
status and message, or status 0 when the host cannot be reached."""

from __future__ import annotations

import socket
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from tests.client.conftest import refused
from tests.support.http import ADMIN, PASSWORD
from tests.support.server import free_port
from tilewall.client import ApiError, Client, HostUnreachable
from tilewall.client.base import api_root

Http = TestClient


def test_login_answers_the_session_and_later_calls_send_it(app: Http) -> None:
    client = Client(user=ADMIN, password=PASSWORD, http=app)
    body = client.login()
    assert body["session"]["name"] == "JSESSIONID"
    assert body["session"]["version"] == "1.9"
    assert client.token == body["session"]["value"]
    assert client.cookie == f"JSESSIONID={client.token}"
    assert [d["displayId"] for d in client.displays.list()] == [1, 2, 3, 4, 5, 6]
    # the session is the client's own: the given HTTP client holds no cookie of it
    assert "JSESSIONID" not in app.cookies


def test_the_first_call_logs_in_by_itself(app: Http) -> None:
    client = Client(user=ADMIN, password=PASSWORD, http=app)
    assert client.token is None
    assert [p["name"] for p in client.presets.list()] == ["Demo Start"]
    assert client.token


def test_logout_ends_the_session_on_the_host(app: Http) -> None:
    client = Client(user=ADMIN, password=PASSWORD, http=app)
    token = client.login()["session"]["value"]
    assert "logged out" in client.logout()["message"]
    assert client.token is None
    assert app.get("/displays", headers={"Cookie": f"JSESSIONID={token}"}).status_code == 401
    # a later call logs in afresh
    client.displays.list()
    assert client.token and client.token != token


def test_a_session_ended_elsewhere_is_replaced_by_a_new_login(app: Http) -> None:
    client = Client(user=ADMIN, password=PASSWORD, http=app)
    token = client.login()["session"]["value"]
    other = Client(http=app)
    other.transport.token = token
    other.logout()
    assert client.zones.get("Lobby Top")["zoneName"] == "Lobby Top"
    assert client.token != token


def test_a_wrong_password_is_the_hosts_401(app: Http) -> None:
    client = Client(user=ADMIN, password="not the password", http=app)
    error = refused(client.displays.list, 401, "invalid user name or password")
    assert str(error) == "invalid user name or password (HTTP 401)"
    refused(client.login, 401, "invalid")
    assert client.token is None


def test_without_credentials_calls_are_refused(anon: Client) -> None:
    refused(anon.displays.list, 401, "log in")
    with pytest.raises(ValueError, match="no user"):
        anon.login()


def test_an_error_carries_the_hosts_status_and_message(client: Client) -> None:
    error = refused(lambda: client.zones.get("No such zone"), 404, "zone 'No such zone' not found")
    assert error.method == "GET" and error.path == "/zones/byname/No%20such%20zone"
    refused(lambda: client.displays.get(99), 404, "display 99 not found")


def test_nothing_listening_is_host_unreachable() -> None:
    port = free_port()
    client = Client(f"http://127.0.0.1:{port}", ADMIN, PASSWORD)
    with pytest.raises(HostUnreachable) as caught:
        client.displays.list()
    assert isinstance(caught.value, ApiError) and caught.value.status == 0
    assert f"cannot reach the host at http://127.0.0.1:{port}/api" in caught.value.message
    client.close()


def test_a_host_that_never_answers_is_host_unreachable() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        port = silent.getsockname()[1]
        client = Client(f"http://127.0.0.1:{port}", timeout=0.3)
        with pytest.raises(HostUnreachable, match="did not answer in time"):
            client.system.info()
        client.close()


@pytest.mark.parametrize(
    ("url", "root"),
    [
        ("http://wall:9000", "http://wall:9000/api"),
        ("http://wall:9000/", "http://wall:9000/api"),
        ("http://wall:9000/api/", "http://wall:9000/api"),
        ("wall:9000", "http://wall:9000/api"),
    ],
)
def test_the_interface_root_of_a_url(url: str, root: str) -> None:
    assert api_root(url) == root
    client = Client(url)
    assert client.url == root
    client.close()


class Recorder:
    """A stand-in host: notes the URLs asked for, answers with ``answer``."""

    def __init__(self, answer: httpx.Response) -> None:
        self.urls: list[str] = []
        self.answer = answer

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.urls.append(str(request.url))
        return self.answer


@pytest.mark.parametrize(
    ("base_url", "url", "asked"),
    [
        ("http://h:9000", None, "http://h:9000/api/displays"),
        ("http://h:9000/api", None, "http://h:9000/api/displays"),
        ("http://h:9000/api/", None, "http://h:9000/api/displays"),
        ("http://elsewhere", "http://h:9000", "http://h:9000/api/displays"),
    ],
)
def test_a_given_http_client_is_used_with_or_without_api_in_its_base(
    base_url: str, url: str | None, asked: str
) -> None:
    recorder = Recorder(httpx.Response(200, json={"displays": []}))
    http = httpx.Client(base_url=base_url, transport=httpx.MockTransport(recorder))
    assert Client(url, http=http).displays.list() == []
    assert recorder.urls == [asked]
    http.close()


def test_an_error_without_a_json_body_keeps_its_text() -> None:
    answer = httpx.Response(502, text="Bad Gateway from the proxy")
    http = httpx.Client(base_url="http://h", transport=httpx.MockTransport(Recorder(answer)))
    refused(Client(http=http).system.info, 502, "bad gateway from the proxy")


def test_the_openapi_document_needs_no_session(anon: Client) -> None:
    document: dict[str, Any] = anon.openapi()
    assert "/api/zones/byname/{zoneName}/switch" in document["paths"]
