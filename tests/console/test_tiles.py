"""Tiles draw what the receivers are told to show; render descriptions and receiver names
over the interface and in the console."""

import base64
import time

import httpx
import pytest
from console_helpers import ARTIFACTS, eventually, shot

pytestmark = pytest.mark.browser

# the quadrants of the demo's quadrants.png: top left, top right, bottom left, bottom right
RED = (229, 56, 53)
GREEN = (67, 158, 71)
BLUE = (30, 135, 229)
YELLOW = (252, 215, 52)


def _source_id(api: httpx.Client, name: str) -> str:
    for s in api.get("/sources").json()["sources"]:
        if s["sourceName"] == name:
            return str(s["sourceId"])
    raise AssertionError(f"no source {name!r}")


def _station(api: httpx.Client, seat: str) -> dict:  # type: ignore[type-arg]
    for n in api.get("/network").json()["network"]:
        if n["seatId"] == seat:
            return n  # type: ignore[no-any-return]
    raise AssertionError(f"no receiver {seat!r}")


def _pixels(page: object, png: bytes, points: list[tuple[float, float]]) -> list[tuple[int, ...]]:
    """Colours at ``points`` (fractions of width and height) of a PNG, read by the page."""
    got = page.evaluate(  # type: ignore[attr-defined]
        """async ([data, points]) => {
            const img = new Image();
            img.src = 'data:image/png;base64,' + data;
            await img.decode();
            const canvas = document.createElement('canvas');
            canvas.width = img.width;
            canvas.height = img.height;
            const g = canvas.getContext('2d');
            g.drawImage(img, 0, 0);
            return points.map(([fx, fy]) => Array.from(
                g.getImageData(Math.floor(fx * img.width), Math.floor(fy * img.height), 1, 1)
                    .data.slice(0, 3)));
        }""",
        [base64.b64encode(png).decode(), points],
    )
    return [tuple(c) for c in got]


def _near(colour: tuple[int, ...], expected: tuple[int, ...], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def test_render_description_shape_and_404(api: httpx.Client) -> None:
    before = time.time() * 1000
    r = api.get("/displays/1/render")
    after = time.time() * 1000
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["role"] == "tile"
    assert body["displayId"] == 1
    assert body["resolution"] == {"width": 1920, "height": 1080}
    assert set(body["tile"]) == {"wallId", "zoneId", "canvas", "monitor", "zoneBox", "crop"}
    content = body["content"]
    assert content["welcome"] is False
    assert set(content["timeline"]) == {"state", "anchorMs", "anchorPositionMs", "repeat"}
    source = content["source"]
    assert source["type"] == "signage" and source["name"] == "Welcome Slides"
    assert source["items"][0] == {
        "name": "demo/quadrants.png",
        "url": "/media/demo/quadrants.png",
        "kind": "image",
        "durationMs": 8000,
    }
    assert set(body["overlays"]) == {"alert", "displayId", "dpmsOff"}
    host_ms = int(r.headers["X-Tilewall-Host-Ms"])
    assert before - 1000 <= host_ms <= after + 1000

    # a mirror group's member shows the group's content, whole
    mirror = api.get("/mirrorgroups").json()["mirrorgroups"][0]
    member = api.get(f"/mirrorgroups/{mirror['id']}").json()["displayIds"][0]
    shown = api.get(f"/displays/{member}/render").json()
    assert shown["role"] == "mirror" and shown["tile"] is None
    assert shown["content"]["source"]["type"] == "stream"

    for unknown in ("999", "not-a-display"):
        r = api.get(f"/displays/{unknown}/render")
        assert r.status_code == 404, r.text
        assert r.json()["status"] == 404


def test_rename_a_receiver_over_http(api: httpx.Client) -> None:
    r = api.put("/network/demo-3", json={"name": "Lobby left", "location": "Ground floor"})
    assert r.status_code == 200, r.text
    assert (r.json()["name"], r.json()["location"]) == ("Lobby left", "Ground floor")
    assert _station(api, "demo-3")["name"] == "Lobby left"
    # a field left out is kept
    r = api.put("/network/demo-3", json={"location": "  Hall  "})
    assert (r.json()["name"], r.json()["location"]) == ("Lobby left", "Hall")

    for body in ({"name": ""}, {"name": "   "}, {"name": "x" * 257}, {"location": "y" * 257}):
        r = api.put("/network/demo-3", json=body)
        assert r.status_code == 400, (body, r.text)
    assert api.put("/network/demo-3", json={"name": 5}).status_code == 400
    assert api.put("/network/nobody", json={"name": "x"}).status_code == 404
    assert _station(api, "demo-3")["name"] == "Lobby left"


def test_rename_a_receiver_in_the_console(page, host_url, api):  # type: ignore[no-untyped-def]
    page.goto(f"{host_url}/#/receivers")
    page.get_by_role("button", name="Rename Demo 6").click()
    dialog = page.locator("dialog")
    dialog.get_by_label("Name").fill("")
    dialog.get_by_role("button", name="Save").click()
    dialog.locator(".field-error", has_text="needs a name").wait_for()
    dialog.get_by_label("Name").fill("Reception right")
    dialog.get_by_label("Location").fill("Front desk")
    shot(page, "receiver-rename")
    dialog.get_by_role("button", name="Save").click()
    dialog.wait_for(state="detached")
    row = page.locator("tr[data-seat-id='demo-6']")
    row.locator("strong", has_text="Reception right").wait_for()
    row.locator("text=Front desk").wait_for()
    station = _station(api, "demo-6")
    assert (station["name"], station["location"]) == ("Reception right", "Front desk")
    shot(page, "receivers-renamed")


def test_a_tile_shows_the_picture_of_its_receiver(page, host_url, api):  # type: ignore[no-untyped-def]
    # demo-7 becomes a display on its own
    r = api.put("/network/demo-7/lock")
    assert r.status_code == 200, r.text
    display_id = r.json()["displayId"]
    page.goto(f"{host_url}/#/overview")
    tile = page.locator(f".tile[data-display-id='{display_id}']")
    tile.wait_for()

    # switch it to the Signage Player from the control panel
    tile.click()
    panel = page.locator("aside.panel")
    slides = _source_id(api, "Welcome Slides")
    panel.locator("select[name=source]").select_option(slides)
    panel.get_by_role("button", name="Switch", exact=True).click()
    eventually(lambda: api.get(f"/displays/{display_id}").json()["playingSourceId"] == slides)
    page.wait_for_function(
        """(id) => { const i = document.querySelector(
            `.tile[data-display-id='${id}'] img.media.shown`);
            return i && i.complete && i.naturalWidth > 0
                && i.dataset.name === 'demo/quadrants.png'; }""",
        arg=display_id,
        timeout=5000,
    )
    page.wait_for_function(
        "(id) => document.querySelector(`.tile[data-display-id='${id}']`).dataset.state"
        " === 'playing'",
        arg=display_id,
    )
    # paused: the interface has no isPlaying for displays; the render description tells
    panel.get_by_role("button", name="❚❚ Pause").click()
    eventually(
        lambda: (
            api.get(f"/displays/{display_id}/render").json()["content"]["timeline"]["state"]
            == "paused"
        )
    )
    page.wait_for_function(
        "(id) => document.querySelector(`.tile[data-display-id='${id}']`).dataset.state"
        " === 'paused'",
        arg=display_id,
    )
    assert tile.locator(".badge").inner_text() == "Paused"
    page.wait_for_timeout(300)

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    png = tile.screenshot(path=str(ARTIFACTS / "tile-quadrants.png"))
    # away from the label bar at the top and the caption at the bottom
    points = [(0.15, 0.35), (0.85, 0.35), (0.15, 0.7), (0.85, 0.7)]
    colours = _pixels(page, png, points)
    for colour, expected in zip(colours, (RED, GREEN, BLUE, YELLOW), strict=True):
        assert _near(colour, expected), (colours, points)
    shot(page, "overview-receiver-tiles")

    # resumed: playing again
    panel.get_by_role("button", name="▶ Resume").click()
    page.wait_for_function(
        "(id) => document.querySelector(`.tile[data-display-id='${id}']`).dataset.state"
        " === 'playing'",
        arg=display_id,
    )
