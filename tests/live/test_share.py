"""Screen shares on the host: a sharer (tests.support.sharer: real H.264 from libx264,
sent over the ingest WebSocket as the /share/ page sends it) to a real host, seen by
real WebSocket viewers of ``/live/<sourceId>`` as receivers see it; the targets, the
sources list and the play log read over the interface."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.support.http import error
from tests.support.live_publish import Seen, collect, viewer
from tests.support.server import InProcessServer, running
from tests.support.sharer import VP9_CODEC, Sharer, new_display, playing
from tests.support.sources import WEB, source_body
from tests.support.topology import unique, wall_body
from tests.support.waiting import wait_until

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    for server in running(tmp_path_factory, "share", in_process=True):
        assert isinstance(server, InProcessServer)
        yield server


def _web_source(host: Any) -> str:
    body = source_body(WEB, unique("Timetable"), URL="https://example.org/timetable")
    return str(host.ok("POST", "/sources", json=body)["sourceId"])


def _wall(host: Any, zones: dict[str, list[int]]) -> tuple[list[int], dict[str, str]]:
    ids = [new_display(host) for _ in range(4)]
    wall = host.ok("POST", "/videowalls", json=wall_body(unique("Meeting wall"), ids))
    made = {}
    for name, positions in zones.items():
        body = {"zoneName": unique(name), "videowallId": wall["id"]}
        body["displayIds"] = [ids[p] for p in positions]
        made[name] = host.ok("POST", "/zones", json=body)["zoneId"]
    return ids, {"wall": wall["id"], **made}


def _sources(host: Any) -> dict[str, dict[str, Any]]:
    return {s["sourceId"]: s for s in host.ok("GET", "/sources")["sources"]}


def _frames(n: int) -> Any:
    return lambda seen: len(seen.frames) >= n


async def test_a_share_is_relayed_like_a_live_stream_and_listed_as_a_source(host: Any) -> None:
    display = new_display(host)
    sharer = Sharer(host.url)
    started = sharer.start(host.api, "display", str(display))
    assert started.status_code == 201, started.text
    share = sharer.share
    assert share["sharedBy"] == "admin" and share["target"] == "display"
    assert share["targetName"] == f"display {display}" and share["shown"] is False
    listed = _sources(host)[sharer.source_id]
    assert listed["sourceType"] == "Screen share"
    params = {p["paramName"]: p["paramValue"] for p in listed["params"]}
    assert params["Shared By"] == "admin" and params["Target"] == f"display {display}"
    assert playing(host, display) != sharer.source_id  # not before its first picture

    await sharer.connect()
    sending = asyncio.create_task(sharer.send(90))
    await asyncio.sleep(0.5)
    async with viewer(host.url, sharer.source_id, str(host.api.session)) as socket:
        seen = await collect(socket, Seen(), _frames(30))
        config = seen.configs()[0]
        assert config["codec"].startswith("avc1.")
        assert (config["codedWidth"], config["codedHeight"]) == (640, 360)
        assert seen.frames[0].key and b"\x00\x00\x00\x01\x67" in seen.frames[0].data[:8]
        # stamped on the host clock, a moment after they came
        late = [f.at - f.received for f in seen.frames[-10:]]
        assert all(-1000 < d < 1000 for d in late), late
        ats = [f.at for f in seen.frames]
        assert ats == sorted(ats)
        status = host.ok("GET", f"/sources/{sharer.source_id}/status")
        assert status["state"] == "live" and status["width"] == 640
        assert status["viewers"] == 1
    await sending
    assert sharer.keys_asked >= 1  # the viewer's joining asked the sharer for a key frame
    assert playing(host, display) == sharer.source_id
    shares = host.ok("GET", "/shares")["shares"]
    assert [s["shown"] for s in shares if s["shareId"] == sharer.source_id] == [True]
    await sharer.close()
    wait_until(lambda: playing(host, display) != sharer.source_id, 10, what="share ended")


async def test_when_the_sharer_goes_the_zone_plays_what_it_played_before(host: Any) -> None:
    _ids, made = _wall(host, {"Left": [0, 2], "Right": [1, 3]})
    before = _web_source(host)
    host.ok("PUT", f"/zones/{made['Left']}/switch", params={"destinationSourceId": before})
    left = host.ok("GET", f"/zones/{made['Left']}")
    sharer = Sharer(host.url)
    assert sharer.start(host.api, "zone", made["Left"]).status_code == 201
    await sharer.connect()
    await sharer.send(30)
    shown = host.ok("GET", f"/zones/{made['Left']}")
    assert shown != left
    display = _ids[0]
    assert playing(host, display) == sharer.source_id
    await sharer.close()
    wait_until(lambda: playing(host, display) == before, 10, what="the timetable back")
    assert host.ok("GET", f"/zones/{made['Left']}") == left
    assert sharer.source_id not in _sources(host)
    error(host.call("GET", f"/shares/{sharer.source_id}"), 405)  # no such operation
    plays = host.ok("GET", "/playlog", params={"displayId": display})["entries"]
    shared = [p for p in plays if p["sourceId"] == sharer.source_id]
    assert shared and shared[0]["trigger"] == "share" and shared[0]["cause"] == "admin"
    assert shared[0]["end"] is not None


async def test_a_wall_shows_the_share_in_every_zone_and_an_operator_ends_it(host: Any) -> None:
    ids, made = _wall(host, {"Top": [0, 1], "Bottom": [2, 3]})
    sharer = Sharer(host.url)
    assert sharer.start(host.api, "wall", made["wall"]).status_code == 201
    assert sharer.share["targetName"].startswith("video wall ")
    await sharer.connect()
    await sharer.send(20)
    assert [playing(host, d) for d in ids] == [sharer.source_id] * 4
    host.ok("DELETE", f"/shares/{sharer.source_id}")
    assert await sharer.wait_closed() == (4000, "the share was ended")
    assert [playing(host, d) for d in ids] == [""] * 4  # they played nothing before
    assert sharer.source_id not in _sources(host)
    error(host.call("DELETE", f"/shares/{sharer.source_id}"), 404, "not found")


async def test_deleting_the_share_source_ends_the_share(host: Any) -> None:
    display = new_display(host)
    before = _web_source(host)
    host.ok("PUT", f"/displays/{display}/switch", params={"destinationSourceId": before})
    sharer = Sharer(host.url)
    sharer.start(host.api, "display", str(display))
    await sharer.connect()
    await sharer.send(10)
    assert playing(host, display) == sharer.source_id
    host.ok("DELETE", f"/sources/{sharer.source_id}")
    assert (await sharer.wait_closed())[0] == 4000
    assert playing(host, display) == before


def test_a_share_source_is_made_only_by_sharing(host: Any) -> None:
    body = source_body("Screen share", unique("Fake share"))
    error(host.call("POST", "/sources", json=body), 400, "Screen share")
    display = new_display(host)
    sharer = Sharer(host.url)
    sharer.start(host.api, "display", str(display))
    renamed = source_body("Screen share", "Renamed")
    error(host.call("PUT", f"/sources/{sharer.source_id}", json=renamed), 400, "Screen share")
    page = source_body(WEB, "A page instead", URL="https://example.org/")
    message = error(host.call("PUT", f"/sources/{sharer.source_id}", json=page), 400)
    assert "lasts as its share does" in message
    host.ok("DELETE", f"/shares/{sharer.source_id}")


def test_a_share_needs_a_target_that_exists_and_a_session(host: Any) -> None:
    sharer = Sharer(host.url)
    with httpx.Client(base_url=host.base) as anonymous:
        error(sharer.start(anonymous, "display", "1"), 401, "log in")
    error(sharer.start(host.api, "display", "99999"), 404, "display")
    error(sharer.start(host.api, "zone", "no-such-zone"), 404, "zone")
    error(sharer.start(host.api, "mirror", "Nobody", byName=True), 404, "mirror group")
    error(sharer.start(host.api, "screen", "1"), 400, "target")
    error(sharer.start(host.api, "wall", " "), 400)
    error(host.call("POST", "/shares", json={"target": "zone", "id": "x", "extra": 1}), 400)
    wall = host.ok("POST", "/videowalls", json={"name": unique("Bare wall"), "monitors": []})
    error(sharer.start(host.api, "wall", wall["id"]), 409, "no zone")
    assert host.ok("GET", "/shares")["shares"] == []


async def test_a_wrong_token_or_frames_that_are_not_h264_are_refused(host: Any) -> None:
    display = new_display(host)
    sharer = Sharer(host.url)
    sharer.start(host.api, "display", str(display))
    right = sharer.share["token"]
    sharer.share["token"] = "not-the-token"
    await sharer.connect()
    assert await sharer.wait_closed() == (4404, "no such share waits for its sharer here")
    sharer.share["token"] = right
    socket = await sharer.connect()
    await socket.send(b"\x01" + bytes(8) + b"JFIF not a frame")
    code, reason = await sharer.wait_closed()
    assert code == 4400 and "Annex B" in reason
    wait_until(lambda: sharer.source_id not in _sources(host), 10, what="the share ended")
    assert playing(host, display) == ""


async def test_a_share_whose_sharer_never_connects_ends(host: Any) -> None:
    ingests = host.app.state.shares
    ingests._connect_within_s, kept = 0.5, ingests._connect_within_s
    try:
        sharer = Sharer(host.url)
        sharer.start(host.api, "display", str(new_display(host)))
    finally:
        ingests._connect_within_s = kept
    assert sharer.source_id in _sources(host)
    deadline = time.monotonic() + 10
    while sharer.source_id in _sources(host) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert sharer.source_id not in _sources(host)


async def test_a_share_in_vp9_is_relayed_as_vp9_and_a_frame_not_vp9_refused(host: Any) -> None:
    display = new_display(host)
    sharer = Sharer(host.url, codec="vp9")
    assert sharer.start(host.api, "display", str(display)).status_code == 201
    await sharer.connect()
    sending = asyncio.create_task(sharer.send(60))
    await asyncio.sleep(0.5)
    async with viewer(host.url, sharer.source_id, str(host.api.session)) as socket:
        seen = await collect(socket, Seen(), _frames(20))
        status = host.ok("GET", f"/sources/{sharer.source_id}/status")
        assert (status["state"], status["codec"]) == ("live", "vp9")
    config = seen.configs()[0]
    assert (config["codec"], config["codedWidth"], config["codedHeight"]) == (VP9_CODEC, 640, 360)
    assert seen.frames[0].key and seen.frames[0].data[0] >> 6 == 0b10  # a VP9 frame marker
    await sending
    assert playing(host, display) == sharer.source_id
    await sharer.close()
    wait_until(lambda: sharer.source_id not in _sources(host), 10, what="the share ended")

    for codec, frame, said in [
        (VP9_CODEC, b"\x00\x00\x00\x01\x65 an H.264 slice", "VP9"),
        ("hevc.1.6.L93", b"\x82 anything", "neither H.264"),
    ]:
        refused = Sharer(host.url)
        refused.start(host.api, "display", str(display))
        socket = await refused.connect()
        size = {"type": "config", "codedWidth": 640, "codedHeight": 360, "codec": codec}
        await socket.send(json.dumps(size))
        with contextlib.suppress(ConnectionClosed):
            await socket.send(b"\x01" + bytes(8) + frame)
        code, reason = await refused.wait_closed()
        assert code == 4400 and said in reason, reason
