"""The console's screen-share actions: "Share my screen" in the top bar, "Share my screen
here" on a target (the /share/ page with the target chosen), and a display's guest code
shown on demand and in presentation mode, in real Chromium against a demo host."""

import re
from typing import Any

import pytest

from tests.support.browser import needs_chromium
from tests.support.http import Api, ok
from tests.support.topology import zone_named

pytestmark = [pytest.mark.browser, needs_chromium]


def _standalone_display(api: Api) -> int:
    """The demo's available receiver, locked: a display on its own."""
    network = ok(api.get("/network"))["network"]
    free = next(d for d in network if d.get("displayId") is None)
    return int(ok(api.put(f"/network/{free['seatId']}/lock"))["displayId"])


def test_the_console_shares_a_screen_and_shows_a_guest_code(
    page: Any, host_url: str, api: Api
) -> None:
    display = _standalone_display(api)
    page.goto(f"{host_url}/#/overview")
    page.wait_for_selector(".wall-canvas .tile")
    assert page.get_by_role("link", name="Share my screen").get_attribute("href") == "/share/"

    page.get_by_role("button", name="Lobby Bottom", exact=True).click()
    panel = page.locator("aside.panel")
    panel.locator("h2", has_text="Lobby Bottom").wait_for()
    zone = zone_named(api, "Lobby Bottom")["zoneId"]
    here = panel.get_by_role("link", name="Share my screen here")
    assert here.get_attribute("href") == f"/share/?target=zone&id={zone}"
    assert not panel.get_by_role("button", name="Show a share code").is_visible()

    tile = page.locator(f".tile[data-display-id='{display}']")
    tile.wait_for()
    tile.focus()
    page.keyboard.press("Enter")
    panel.get_by_role("button", name="Show a share code").click()
    shown = panel.locator("p[role=status]", has_text=re.compile(r"^Code \d{3} \d{3}"))
    shown.wait_for()
    codes = {c["displayId"]: c for c in ok(api.get("/shares/codes"))["codes"]}
    code = codes[display]["code"]
    assert f"Code {code[:3]} {code[3:]}, shown until" in shown.inner_text()

    panel.get_by_label("Presentation (always show a code)").check()
    panel.locator("p[role=status]", has_text="shown while in presentation mode").wait_for()
    assert {c["displayId"]: c for c in ok(api.get("/shares/codes"))["codes"]}[display][
        "presentation"
    ]
    panel.get_by_label("Presentation (always show a code)").uncheck()
    panel.locator("p[role=status]", has_text="No share code is shown.").wait_for()
