"""GET /api/sourcetypes: the catalogue the console builds its source forms from."""

import httpx


def test_every_source_type_with_its_param_schema(api: httpx.Client) -> None:
    r = api.get("/sourcetypes")
    assert r.status_code == 200, r.text
    types = {t["sourceType"]: t for t in r.json()["sourceTypes"]}
    assert set(types) == {
        "Signage Player",
        "Web Browser",
        "Network Streamer",
        "Command and Control",
    }
    signage = types["Signage Player"]
    assert signage["signage"] is True and signage["allowed"] is True
    params = {p["paramName"]: p for p in signage["params"]}
    assert params["Media"]["type"] == "FILE_DIR_SELECT"
    assert params["Slide Interval"]["minimum"] == 1
    assert params["Scaling"]["options"] == ["fit", "fill", "stretch"]
    url = next(p for p in types["Web Browser"]["params"] if p["paramName"] == "URL")
    assert url["required"] is True and url["type"] == "URL"


def test_it_needs_a_session_and_is_marked_an_extension(host_url: str, api: httpx.Client) -> None:
    assert httpx.get(f"{host_url}/api/sourcetypes").status_code == 401
    operation = api.get("/openapi.json").json()["paths"]["/api/sourcetypes"]["get"]
    assert operation["x-tilewall-extension"] is True
