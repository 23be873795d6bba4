"""Receivers follow the group: a real Chromium receiver page loaded from the active host
learns every member's address; when that host is killed it reconnects to the new
active host and shows the switch made there, with media from the shared media
directory. A standby lets receivers go to the active host, telling them where it is."""

import asyncio
import json
from typing import Any

import pytest

from tests.support.browser import needs_chromium
from tests.support.cluster import Cluster, shared_media
from tests.support.group_receiver import receiver_of_group
from tests.support.media import png_bytes


def png(colour: tuple[int, int, int]) -> bytes:
    return png_bytes(colour, (64, 36))


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
@needs_chromium
def test_a_receiver_page_follows_the_group_when_its_host_is_killed(cluster: Cluster) -> None:
    with receiver_of_group(cluster) as (first, second, receiver):
        first.kill()
        assert cluster.active() is second
        switched = second.api.put(
            f"/displays/{receiver.display}/switch", params={"destinationSourceId": receiver.green}
        )
        assert switched.status_code == 200, switched.text
        receiver.wait_showing(receiver.green, timeout_ms=20_000)
        assert receiver.host() == second.address
        # its media come from the host it is connected to now
        receiver.page.wait_for_function(
            "() => { const i = document.querySelector('img.media.shown');"
            " return i && i.complete && i.naturalWidth > 0 && i.src.includes('green.png'); }",
            timeout=15_000,
        )
        source = receiver.page.evaluate("() => document.querySelector('img.media.shown').src")
        assert source.startswith(second.address)
        online = second.api.get(f"/displays/{receiver.display}").json()["isOnline"]
        assert online is True
