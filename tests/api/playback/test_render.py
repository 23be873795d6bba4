"""GET /displays/{displayId}/render: what a receiver is told to show, against the demo."""

import time

import pytest

from tests.support.app import shared_app


@pytest.fixture(scope="module")
def demo(tmp_path_factory, app_store):
    with shared_app(tmp_path_factory, "demo", app_store, demo=True) as client:
        yield client


def test_render_description_shape_and_404(demo):
    before = time.time() * 1000
    r = demo.get("/displays/1/render")
    after = time.time() * 1000
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["role"] == "tile"
    assert body["displayId"] == 1
    assert body["resolution"] == {"width": 1920, "height": 1080}
    assert set(body["tile"]) == {"wallId", "zoneId", "canvas", "monitor", "zoneBox", "crop"}
    content = body["content"]
    assert content["welcome"] is False
    assert set(content["timeline"]) == {
        "state",
        "anchorMs",
        "anchorPositionMs",
        "repeat",
        "startMs",
    }
    source = content["source"]
    assert source["type"] == "signage" and source["name"] == "Welcome Slides"
    assert source["items"][0] == {
        "name": "demo/quadrants.png",
        "url": "/media/demo/quadrants.png",
        "kind": "image",
        "durationMs": 8000,
    }
    assert set(body["overlays"]) == {"alert", "displayId", "dpmsOff", "shareCode"}
    assert body["overlays"]["shareCode"] is None  # no guest code is shown until asked for
    host_ms = int(r.headers["X-Tilewall-Host-Ms"])
    assert before - 1000 <= host_ms <= after + 1000

    # a mirror group's member shows the group's content, whole
    mirror = demo.get("/mirrorgroups").json()["mirrorgroups"][0]
    member = demo.get(f"/mirrorgroups/{mirror['id']}").json()["displayIds"][0]
    shown = demo.get(f"/displays/{member}/render").json()
    assert shown["role"] == "mirror" and shown["tile"] is None
    assert shown["content"]["source"]["type"] == "stream"

    for unknown in ("999", "not-a-display"):
        r = demo.get(f"/displays/{unknown}/render")
        assert r.status_code == 404, r.text
        assert r.json()["status"] == 404
