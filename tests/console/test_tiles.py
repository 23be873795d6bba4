"""Tiles draw what the receivers are told to show; receiver names in the console."""

import base64

import pytest

from tests.support.browser import (
    BLUE,
    CONSOLE_ARTIFACTS,
    GREEN,
    RED,
    YELLOW,
    near,
    shot,
)
from tests.support.topology import source_id, station
from tests.support.waiting import wait_until

pytestmark = pytest.mark.browser


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


def test_rename_a_receiver_in_the_console(page, host_url, api):
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
    renamed = station(api, "demo-6")
    assert (renamed["name"], renamed["location"]) == ("Reception right", "Front desk")
    shot(page, "receivers-renamed")


def test_a_tile_shows_the_picture_of_its_receiver(page, host_url, api):
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
    slides = source_id(api, "Welcome Slides")
    panel.locator("select[name=source]").select_option(slides)
    panel.get_by_role("button", name="Switch", exact=True).click()
    wait_until(lambda: api.get(f"/displays/{display_id}").json()["playingSourceId"] == slides)
    page.wait_for_function(
        """(id) => { const i = document.querySelector(
            `.tile[data-display-id='${id}'] img.media.shown`);
            return i && i.complete && i.naturalWidth > 0
                && i.dataset.name === 'demo/quadrants.png'; }""",
        arg=display_id,
        timeout=5000,
    )
    page.wait_for_function(
        "(id) => document.querySelector(`.tile[data-display-id='${id}']`)?.dataset.state"
        " === 'playing'",
        arg=display_id,
    )
    # paused: the interface has no isPlaying for displays; the render description tells
    panel.get_by_role("button", name="❚❚ Pause").click()
    wait_until(
        lambda: (
            api.get(f"/displays/{display_id}/render").json()["content"]["timeline"]["state"]
            == "paused"
        )
    )
    page.wait_for_function(
        "(id) => document.querySelector(`.tile[data-display-id='${id}']`)?.dataset.state"
        " === 'paused'",
        arg=display_id,
    )
    assert tile.locator(".badge").inner_text() == "Paused"
    page.wait_for_timeout(300)

    CONSOLE_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    png = tile.screenshot(path=str(CONSOLE_ARTIFACTS / "tile-quadrants.png"))
    # away from the label bar at the top and the caption at the bottom
    points = [(0.15, 0.35), (0.85, 0.35), (0.15, 0.7), (0.85, 0.7)]
    colours = _pixels(page, png, points)
    for colour, expected in zip(colours, (RED, GREEN, BLUE, YELLOW), strict=True):
        assert near(colour, expected, tolerance=40), (colours, points)
    shot(page, "overview-receiver-tiles")

    # resumed: playing again
    panel.get_by_role("button", name="▶ Resume").click()
    page.wait_for_function(
        "(id) => document.querySelector(`.tile[data-display-id='${id}']`)?.dataset.state"
        " === 'playing'",
        arg=display_id,
    )
