"""The 401 sweep, generated from the app's route table: every operation under /api except
logging in and the OpenAPI document answers 401 without a session and with a bogus one.
A route added later is swept automatically."""

import re

import pytest

from tests.support.http import Api, error, login
from tilewall.app import create_app

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
def with_a_session(sessionless: Api) -> Api:
    """The app of every sessionless test, with a live session."""
    login(sessionless)
    return sessionless


@pytest.fixture
def shared(with_a_session: Api) -> Api:
    """One app for the whole sweep, with a live session that requests do not carry."""
    with_a_session.forget_session()
    return with_a_session


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
def test_without_session_401(shared: Api, method: str, path: str) -> None:
    response = shared.request(method, _concrete(path), json={})
    error(response, 401)


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_with_bogus_session_401(shared: Api, method: str, path: str) -> None:
    response = shared.request(
        method,
        _concrete(path),
        json={},
        headers={"cookie": "JSESSIONID=0123456789abcdef0123456789abcdef0123"},
    )
    error(response, 401)
