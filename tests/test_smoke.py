def test_login_and_list(api):
    r = api.get("/sources")
    assert r.status_code == 200, r.text
    assert r.json() == {"sources": []}
    r = api.get("/openapi.json")
    assert r.status_code == 200
