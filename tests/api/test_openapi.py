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


HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


def _concrete(path: str) -> str:
    """A request path for a documented path template (any value for each parameter)."""
    import re

    return re.sub(r"\{[^}]+\}", "x1", path).removeprefix("/api")


def test_allow_lists_exactly_the_documented_methods(api):
    """OPTIONS and 405 answers name the methods the document gives the path (and OPTIONS)."""
    for path, item in _document()["paths"].items():
        documented = {m.upper() for m in item if m in HTTP_METHODS} | {"OPTIONS"}
        url = _concrete(path)
        options = api.options(url)
        assert options.status_code == 204, (path, options.text)
        assert set(options.headers["allow"].split(", ")) == documented, path
        for method in sorted({"PATCH", "TRACE", "HEAD"} - documented):
            refused = api.request(method, url)
            assert refused.status_code == 405, (path, method)
            assert set(refused.headers["allow"].split(", ")) == documented, (path, method)


def test_unknown_paths_answer_404_whatever_the_method(api):
    for method in ("GET", "PUT", "PATCH", "OPTIONS", "TRACE", "QUERY"):
        response = api.request(method, "/no/such/operation")
        assert response.status_code == 404, (method, response.text)
        assert "allow" not in response.headers


def test_optional_bodies_documented_optional():
    paths = _document()["paths"]
    for path, method in [
        ("/api/system/dpms/forceoff", "put"),
        ("/api/system/dpms/forceon", "put"),
        ("/api/displays/{displayId}/switch", "put"),
        ("/api/zones/{zoneId}/play", "put"),
        ("/api/mirrorgroups/byname/{mirrorgroupName}/play", "put"),
    ]:
        assert paths[path][method]["requestBody"]["required"] is False, (path, method)
    assert paths["/api/presets"]["post"]["requestBody"]["required"] is True
