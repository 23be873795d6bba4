"""What an operator does in the console shows on a real receiver page."""

import io

import pytest
from console_helpers import eventually, shot
from PIL import Image

pytestmark = pytest.mark.browser

SEAT = "console-rx"


def _centre_colour(receiver, x: float, y: float) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    image = Image.open(io.BytesIO(receiver.screenshot())).convert("RGB")
    return image.getpixel((int(image.width * x), int(image.height * y)))  # type: ignore[return-value]


def _near(colour: tuple[int, int, int], expected: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 30 for a, b in zip(colour, expected, strict=True))


def test_switch_and_alert_from_the_console_show_on_a_receiver(browser, page, host_url, api):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 640, "height": 360}, bypass_csp=True)
    receiver = context.new_page()
    try:
        receiver.goto(f"{host_url}/receiver/?seat={SEAT}")
        receiver.wait_for_selector(".pairing")
        eventually(lambda: api.put(f"/network/{SEAT}/lock").status_code == 200)
        display = api.get(f"/network/{SEAT}").json()["displayId"]

        # switch the display to the quadrant slides from the console's list
        page.goto(f"{host_url}/#/overview")
        tile = page.locator(f".display-row .tile[data-display-id='{display}']")
        tile.wait_for()
        tile.click()
        panel = page.locator("aside.panel")
        slides = next(
            s["sourceId"]
            for s in api.get("/sources").json()["sources"]
            if s["sourceName"] == "Welcome Slides"
        )
        panel.locator("select[name=source]").select_option(slides)
        panel.get_by_role("button", name="Switch", exact=True).click()
        # the slides open on quadrants.png: red top left, yellow bottom right
        eventually(lambda: _near(_centre_colour(receiver, 0.25, 0.25), (229, 57, 53)))
        eventually(lambda: _near(_centre_colour(receiver, 0.75, 0.75), (253, 216, 53)))
        shot(receiver, "receiver-switched-from-console")

        # broadcast an alert from the console; the receiver shows it
        page.goto(f"{host_url}/#/alerts")
        page.fill("textarea[name=message]", "Evacuate by the north stairs")
        page.fill("input[name=seconds]", "30")
        page.get_by_role("button", name="Broadcast alert").click()
        receiver.locator("#alert", has_text="Evacuate by the north stairs").wait_for()
        shot(receiver, "receiver-alert-from-console")
        api.put("/system/broadcast/stop")
        receiver.locator("#alert").wait_for(state="hidden")
    finally:
        context.close()
