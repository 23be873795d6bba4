"""Security headers on every page: the console and the receiver page send a
Content-Security-Policy that allows only what they use, every answer says nosniff and
no-referrer, and the interface grants no CORS, whatever the Origin or method."""

from pathlib import Path

import pytest
from litestar.testing import TestClient

from tests.support.app import only_on
from tests.support.http import ADMIN, PASSWORD
from tilewall.server import make_app

WEB = Path(__file__).resolve().parents[2] / "src" / "tilewall" / "web"

pytestmark = only_on("sqlite", "the pages and headers do not depend on the store")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TILEWALL_ADMIN_USER", ADMIN)
        mp.setenv("TILEWALL_ADMIN_PASSWORD", PASSWORD)
        app = make_app(tmp_path_factory.mktemp("headers") / "data")
        with TestClient(app) as client:
            response = client.post("/api/session", json={"user": ADMIN, "password": PASSWORD})
            assert response.status_code == 200
            yield client


def policy(response) -> dict[str, list[str]]:
    text = response.headers["content-security-policy"]
    directives = {}
    for part in text.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


def console_paths() -> list[str]:
    js = WEB / "console" / "js"
    return ["/", "/console.css", *(f"/js/{p.relative_to(js)}" for p in sorted(js.rglob("*.js")))]


def receiver_paths() -> list[str]:
    folder = WEB / "receiver"
    return ["/receiver/", *(f"/receiver/{p.name}" for p in sorted(folder.iterdir()))]


def common(response) -> None:
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert not [h for h in response.headers if h.lower().startswith("access-control-")]


@pytest.mark.parametrize("path", console_paths())
def test_console_pages_may_not_be_framed_and_run_only_their_own_code(client, path) -> None:
    response = client.get(path)
    assert response.status_code == 200, path
    common(response)
    csp = policy(response)
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["default-src"] == ["'none'"]
    assert csp["script-src"] == ["'self'"] and csp["style-src"] == ["'self'"]
    assert csp["connect-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
    assert response.headers["x-frame-options"] == "DENY"
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]
    assert "'unsafe-eval'" not in response.headers["content-security-policy"]


@pytest.mark.parametrize("path", receiver_paths())
def test_receiver_pages_run_only_their_own_code_and_frame_any_web_page(client, path) -> None:
    response = client.get(path)
    assert response.status_code == 200, path
    common(response)
    csp = policy(response)
    assert csp["script-src"] == ["'self'"] and csp["style-src"] == ["'self'"]
    # a Web Browser source shows any page; a Network Streamer plays any URL
    assert set(csp["frame-src"]) == {"http:", "https:"}
    assert {"http:", "https:"} <= set(csp["media-src"])
    assert {"'self'", "ws:", "wss:"} == set(csp["connect-src"])
    assert csp["object-src"] == ["'none'"] and csp["base-uri"] == ["'none'"]
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]


def test_interface_answers_carry_nosniff_and_no_referrer(client) -> None:
    for path in ("/api/system", "/api/openapi.json", "/api/nothing-here", "/nothing"):
        common(client.get(path))


def test_no_cors_grant_for_any_origin_on_any_operation(client) -> None:
    document = client.get("/api/openapi.json").json()
    checked = 0
    for path in document["paths"]:
        concrete = path.replace("{", "").replace("}", "")
        for origin in ("https://evil.example", "null", "http://127.0.0.1:9000"):
            preflight = client.options(
                concrete,
                headers={
                    "Origin": origin,
                    "Access-Control-Request-Method": "PUT",
                    "Access-Control-Request-Headers": "content-type",
                },
            )
            common(preflight)
            common(client.get(concrete, headers={"Origin": origin}))
            checked += 1
    assert checked > 180
