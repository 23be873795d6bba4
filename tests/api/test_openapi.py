"""The OpenAPI document at /api/openapi.json."""

from litestar.testing import TestClient

from tilewall.app import create_app


def _document() -> dict:
    with TestClient(create_app(None)) as client:
        response = client.get("/api/openapi.json")
        assert response.status_code == 200
        return response.json()


def test_served_without_session(anon):
    response = anon.get("/openapi.json")
    assert response.status_code == 200
    assert response.json()["paths"]


def test_session_cookie_scheme():
    document = _document()
    schemes = document["components"]["securitySchemes"]
    assert schemes["session"] == {"type": "apiKey", "name": "JSESSIONID", "in": "cookie"}
    assert document["security"] == [{"session": []}]


def test_login_needs_no_session_in_document():
    login = _document()["paths"]["/api/session"]["post"]
    # an empty requirement object: no credentials needed
    assert login.get("security") in ([], [{}])


def test_extensions_marked():
    document = _document()
    paths = document["paths"]
    for path, method in [
        ("/api/videowalls", "post"),
        ("/api/zones", "post"),
        ("/api/mirrorgroups", "post"),
        ("/api/media", "get"),
        ("/api/displays/{displayId}/render", "get"),
        ("/api/network/{ip}", "put"),
    ]:
        assert paths[path][method].get("x-tilewall-extension") is True, (path, method)
    assert "x-tilewall-extension" not in paths["/api/sources"]["post"]


def test_document_deterministic_and_examples_sane():
    first, second = _document(), _document()
    error_body = first["components"]["schemas"]["ErrorBody"]
    for example in error_body.get("examples", []):
        assert 400 <= example["status"] <= 599, example
    assert first == second
