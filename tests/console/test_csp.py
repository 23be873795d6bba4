"""The Content-Security-Policy allows what the pages use: receiver pages showing every
kind of source (signage, a stream, a web page in an iframe, a control-room layout) and
overlays, and every view of the console, run in Chromium without one violation."""

import os
import shutil
import time
from pathlib import Path

import pytest

from tests.support.serving import ADMIN, PASSWORD, Served, logged_in

CHROMIUM = Path(os.environ.get("TILEWALL_CHROMIUM") or shutil.which("chromium") or "chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
]
PROBE = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile));
"""
VIEWS = [
    "overview",
    "presets",
    "alerts",
    "receivers",
    "sources",
    "media",
    "walls",
    "layouts",
    "settings",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium"),
]


@pytest.mark.timeout(240)
def test_receivers_and_console_run_without_a_policy_violation(tmp_path) -> None:
    from playwright.sync_api import sync_playwright

    with Served(tmp_path / "data", "--demo") as served:
        client = logged_in(served.base)
        sources = {s["sourceName"]: s["sourceId"] for s in client.get("/sources").json()["sources"]}
        local = client.post(
            "/sources",
            json={
                "sourceName": "Local Page",
                "sourceType": "Web Browser",
                # the host itself: tests reach nothing but loopback
                "params": [
                    {
                        "type": "URL",
                        "paramName": "URL",
                        "paramValue": f"{served.origin}/api/openapi.json",
                    }
                ],
            },
        ).json()["sourceId"]
        shows = {
            "csp-signage": (sources["Welcome Slides"], "img.media"),
            "csp-stream": (sources["Demo Clip"], "video"),
            "csp-web": (local, "iframe"),
            "csp-control": (sources["Control Room"], "video"),
        }
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                pages = {}
                for seat in shows:
                    page = browser.new_page()
                    page.add_init_script(PROBE)
                    page.goto(f"{served.origin}/receiver/?seat={seat}")
                    pages[seat] = page
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    seen = {
                        s["seatId"]
                        for s in client.get("/network").json()["network"]
                        if s["isOnline"]
                    }
                    if set(shows) <= seen:
                        break
                    time.sleep(0.3)
                for seat, (source, _) in shows.items():
                    display = client.put(f"/network/{seat}/lock").json()["displayId"]
                    client.put(
                        f"/displays/{display}/switch", params={"destinationSourceId": source}
                    ).raise_for_status()
                client.put(
                    "/system/broadcast/start",
                    json={
                        "message": "Fire drill",
                        "alertLevel": "RED_LEVEL",
                        "lengthMillisec": 60000,
                    },
                ).raise_for_status()
                for seat, (_, selector) in shows.items():
                    pages[seat].wait_for_selector(selector, state="attached", timeout=20_000)
                pages["csp-web"].wait_for_function(
                    "() => { const f = document.querySelector('iframe');"
                    " try { return f && f.contentDocument && f.contentDocument.body"
                    " && f.contentDocument.body.innerText.includes('openapi'); } catch (e) { return false; } }",
                    timeout=20_000,
                )
                pages["csp-signage"].wait_for_selector("text=Fire drill", timeout=20_000)
                time.sleep(1.0)
                for seat, page in pages.items():
                    assert page.evaluate("window.__csp") == [], seat

                console = browser.new_page()
                console.add_init_script(PROBE)
                console.goto(f"{served.origin}/#/overview")
                console.wait_for_selector("#login-title")
                console.fill("input[name=user]", ADMIN)
                console.fill("input[name=password]", PASSWORD)
                console.click("form.login button[type=submit]")
                console.wait_for_function("() => location.hash.startsWith('#/overview')")
                console.wait_for_selector(".wall-canvas .tile", timeout=20_000)
                for view in VIEWS:
                    console.goto(f"{served.origin}/#/{view}")
                    console.wait_for_function(
                        "() => document.getElementById('main').children.length > 0"
                    )
                    time.sleep(0.5)
                    assert console.evaluate("window.__csp") == [], view
            finally:
                browser.close()
        client.close()
