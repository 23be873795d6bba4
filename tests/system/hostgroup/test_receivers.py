"""Receivers follow the group: a real Chromium receiver page loaded from the active host
learns every member's address; when that host is killed it reconnects to the new
active host and shows the switch made there, with media from the shared media
directory. A standby lets receivers go to the active host, telling them where it is."""

import asyncio
import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.support.cluster import Cluster, shared_media, signage, wait_for

CHROMIUM = Path(os.environ.get("TILEWALL_CHROMIUM") or shutil.which("chromium") or "chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 36), colour).save(out, "PNG")
    return out.getvalue()


@pytest.mark.timeout(180)
def test_media_in_the_shared_directory_are_served_by_every_member(cluster: Cluster) -> None:
    first, second = cluster.start("first", "second", extra=shared_media(cluster))
    uploaded = first.api.put("/media/red.png", content=png((220, 20, 20)))
    assert uploaded.status_code == 200, uploaded.text
    uploaded = second.api.put("/media/green.png", content=png((20, 220, 20)))  # forwarded
    assert uploaded.status_code == 200, uploaded.text
    for host in (first, second):
        for name in ("red.png", "green.png"):
            got = host.api.get(f"{host.address}/media/{name}")
            assert got.status_code == 200 and got.content.startswith(b"\x89PNG"), name


@pytest.mark.timeout(60)
def test_a_standby_tells_a_receiver_where_the_active_host_is(cluster: Cluster) -> None:
    import websockets

    active, standby = cluster.start("active", "standby")

    async def hello() -> tuple[list[dict[str, Any]], int | None]:
        url = standby.address.replace("http", "ws") + "/receiver/ws"
        async with websockets.connect(url) as socket:
            await socket.send(
                json.dumps(
                    {
                        "v": 1,
                        "type": "hello",
                        "seatId": "old-page",
                        "screen": {"width": 1920, "height": 1080},
                        "resolutions": [{"width": 1920, "height": 1080}],
                        "model": "test",
                        "firmware": "test",
                    }
                )
            )
            got = []
            try:
                while True:
                    got.append(json.loads(await socket.recv()))
            except websockets.ConnectionClosed:
                return got, socket.close_code

    messages, code = asyncio.run(hello())
    assert code == 4002
    assert messages == [
        {
            "type": "group",
            "members": [active.address, standby.address],
            "active": active.address,
            "v": 1,
        }
    ]
    # nothing was recorded of the receiver on the standby (it writes nothing)
    assert all(s["seatId"] != "old-page" for s in active.api.get("/network").json()["network"])


@pytest.mark.browser
@pytest.mark.timeout(240)
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
def test_a_receiver_page_follows_the_group_when_its_host_is_killed(cluster: Cluster) -> None:
    from playwright.sync_api import sync_playwright

    first, second = cluster.start("first", "second", extra=shared_media(cluster))
    assert first.api.put("/media/red.png", content=png((220, 20, 20))).status_code == 200
    assert first.api.put("/media/green.png", content=png((20, 220, 20))).status_code == 200
    red = signage(first, "Red", "red.png")
    green = signage(first, "Green", "green.png")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 320, "height": 180})
            page.goto(f"{first.address}/receiver/?seat=wall-1")
            locked = wait_for(
                lambda: (r := first.api.put("/network/wall-1/lock")).status_code == 200 and r,
                timeout=15,
            )
            display = locked.json()["displayId"]
            switched = first.api.put(
                f"/displays/{display}/switch", params={"destinationSourceId": red}
            )
            assert switched.status_code == 200, switched.text
            showing = "() => window.tilewall && window.tilewall.state && window.tilewall.state.content.source && window.tilewall.state.content.source.sourceId"
            page.wait_for_function(f"() => ({showing})() === {json.dumps(red)}", timeout=15_000)
            page.wait_for_function("() => window.tilewall.members.length === 2", timeout=10_000)
            assert page.evaluate("() => window.tilewall.host") == first.address

            first.kill()
            assert cluster.active() is second
            second.api  # noqa: B018
            switched = second.api.put(
                f"/displays/{display}/switch", params={"destinationSourceId": green}
            )
            assert switched.status_code == 200, switched.text
            page.wait_for_function(f"() => ({showing})() === {json.dumps(green)}", timeout=20_000)
            assert page.evaluate("() => window.tilewall.host") == second.address
            # its media come from the host it is connected to now
            page.wait_for_function(
                "() => { const i = document.querySelector('img.media.shown');"
                " return i && i.complete && i.naturalWidth > 0 && i.src.includes('green.png'); }",
                timeout=15_000,
            )
            source = page.evaluate("() => document.querySelector('img.media.shown').src")
            assert source.startswith(second.address)
            online = second.api.get(f"/displays/{display}").json()["isOnline"]
            assert online is True
        finally:
            browser.close()
