"""The 401 sweep, generated from the app's route table: every operation under /api except
logging in and the OpenAPI document answers 401 without a session and with a bogus one.
A route added later is swept automatically."""

import re

import pytest
from litestar.testing import TestClient

from tests.conftest import ADMIN, PASSWORD, login
from tests.helpers import error
from tilewall.app import create_app
from tilewall.server import make_app

#: (method, path) pairs that need no session
PUBLIC = {("POST", "/api/session")}
#: the OpenAPI document and its renderers (served by the framework under /api)
DOCS = re.compile(
    r"^/api(/openapi\.(json|yaml|yml)|/docs.*|/swagger.*|/redoc.*|/elements.*|"
    r"/rapidoc.*|/stoplight.*|/oauth2-redirect\.html|/\{path:str\})?$"
)
IGNORED_METHODS = {"OPTIONS", "HEAD"}
PARAM = re.compile(r"\{[^}]+\}")


def _operations() -> list[tuple[str, str]]:
    app = create_app(None)
    out = []
    for route in app.routes:
        path = getattr(route, "path", "")
        if not path.startswith("/api") or DOCS.match(path):
            continue
        for method in sorted(getattr(route, "methods", ())):
            if method in IGNORED_METHODS or (method, path) in PUBLIC:
                continue
            out.append((method, path))
    return out


OPERATIONS = _operations()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """One app for the whole sweep, with a live session that requests do not carry."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TILEWALL_ADMIN_USER", ADMIN)
        mp.setenv("TILEWALL_ADMIN_PASSWORD", PASSWORD)
        app = make_app(tmp_path_factory.mktemp("sweep") / "data")
        with TestClient(app, base_url="http://testserver.local/api") as client:
            login(client)
            client.cookies.clear()
            yield client


def test_sweep_covers_the_interface():
    """The table really holds the routes (so an empty sweep cannot pass)."""
    paths = {p for _, p in OPERATIONS}
    assert len(OPERATIONS) > 60
    for expected in (
        "/api/sources",
        "/api/displays/{displayId:str}/switch",
        "/api/zones/byname/{zoneName:str}/rename",
        "/api/media/{name:path}",
        "/api/system/mappingdataversion",
    ):
        assert expected in paths
    assert ("DELETE", "/api/session") in OPERATIONS


def _concrete(path: str) -> str:
    return PARAM.sub("x", path).removeprefix("/api")


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_without_session_401(shared: TestClient, method: str, path: str) -> None:  # type: ignore[type-arg]
    shared.cookies.clear()
    response = shared.request(method, _concrete(path), json={})
    error(response, 401)


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_with_bogus_session_401(shared: TestClient, method: str, path: str) -> None:  # type: ignore[type-arg]
    shared.cookies.clear()
    response = shared.request(
        method,
        _concrete(path),
        json={},
        headers={"cookie": "JSESSIONID=0123456789abcdef0123456789abcdef0123"},
    )
    error(response, 401)
