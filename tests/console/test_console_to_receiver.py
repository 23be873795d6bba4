"""What an operator does in the console shows on a real receiver page."""

import pytest

from tests.support.browser import RED, VIEWPORT, YELLOW, colour_at, near, shot
from tests.support.topology import source_id
from tests.support.waiting import wait_until

pytestmark = pytest.mark.browser

SEAT = "console-rx"


def test_switch_and_alert_from_the_console_show_on_a_receiver(browser, page, host_url, api):
    context = browser.new_context(viewport=VIEWPORT)
    receiver = context.new_page()
    try:
        receiver.goto(f"{host_url}/receiver/?seat={SEAT}")
        receiver.wait_for_selector(".pairing")
        wait_until(lambda: api.put(f"/network/{SEAT}/lock").status_code == 200)
        display = api.get(f"/network/{SEAT}").json()["displayId"]

        # switch the display to the quadrant slides from the console's list
        page.goto(f"{host_url}/#/overview")
        tile = page.locator(f".display-row .tile[data-display-id='{display}']")
        tile.wait_for()
        tile.click()
        panel = page.locator("aside.panel")
        slides = source_id(api, "Welcome Slides")
        panel.locator("select[name=source]").select_option(slides)
        panel.get_by_role("button", name="Switch", exact=True).click()
        # the slides open on quadrants.png: red top left, yellow bottom right
        wait_until(lambda: near(colour_at(receiver, 0.25, 0.25), RED))
        wait_until(lambda: near(colour_at(receiver, 0.75, 0.75), YELLOW))
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
