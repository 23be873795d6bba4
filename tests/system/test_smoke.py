from tests.support.app import app_client


def test_login_and_list(api):
    r = api.get("/sources")
    assert r.status_code == 200, r.text
    assert r.json() == {"sources": []}
    r = api.get("/openapi.json")
    assert r.status_code == 200


def test_demo_topology_and_media_ranges(data_dir):
    with app_client(data_dir, demo=True, root="/api") as c:
        displays = c.get("/api/displays").json()["displays"]
        assert len(displays) == 6
        types = sorted(d["stationType"] for d in displays)
        assert types == ["STANDALONE"] * 2 + ["VIDEOWALL"] * 4
        network = c.get("/api/network").json()["network"]
        assert sorted(d["status"] for d in network) == ["AVAILABLE"] + ["CONNECTED"] * 6
        kinds = {s["sourceType"] for s in c.get("/api/sources").json()["sources"]}
        assert kinds == {"Signage Player", "Web Browser", "Network Streamer", "Command and Control"}
        assert c.get("/api/presets").json()["presets"][0]["name"] == "Demo Start"
        whole = c.get("/media/demo/clip.mp4")
        assert whole.status_code == 200 and whole.content[4:8] == b"ftyp"
        part = c.get("/media/demo/clip.mp4", headers={"Range": "bytes=4-7"})
        assert part.status_code == 206 and part.content == b"ftyp"
        assert part.headers["content-range"].endswith(f"/{len(whole.content)}")
        assert c.get("/media/../tilewall.db").status_code == 404
        info = c.get("/api/zones/byname/Lobby Top/mediainfo").json()
        assert info["filename"] == "demo/quadrants.png"
