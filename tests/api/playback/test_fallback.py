"""Paths under /api that name no operation answer a JSON 404."""


def test_unknown_api_path_is_json_404(api):
    r = api.get("/nothing/here")
    assert r.status_code == 404 and r.json()["message"]
    assert api.get("/zones").status_code == 200
    assert api.get("/zones/byname/x").status_code == 404
    assert api.get("/openapi.json").status_code == 200
