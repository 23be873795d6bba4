"""Reads encoded once per revision (``tilewall.api.read_cache``): two reads in one revision
are the same bytes, built once; every kind of change shows in the very next read: a
write through the interface, liveness the hub reports (a receiver over a real
WebSocket), an agent's device report, the machine facts read again."""

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.app import BASE_URL, host_of, run
from tests.support.http import ok, url
from tests.support.server import InProcessServer
from tests.support.sources import create_source
from tests.support.topology import lock, locked_display, make_mirror, make_wall, register, unique
from tests.support.waiting import wait_until
from tilewall.api.read_cache import EncodedOnce
from tilewall.api.resources import (
    displays,
    mirrorgroups,
    network,
    presets,
    sources,
    system,
    videowalls,
)
from tilewall.api.resources import zones as zones_api
from tilewall.host.topology.agents import AgentHello

#: every read encoded once per revision, with its view
VIEWS: dict[str, EncodedOnce[Any]] = {
    "/displays": displays.DISPLAYS,
    "/zones": zones_api.ZONES,
    "/sources": sources.SOURCES,
    "/mirrorgroups": mirrorgroups.MIRRORS,
    "/videowalls": videowalls.WALLS,
    "/presets": presets.PRESETS,
    "/network": network.NETWORK,
    "/system": system.SYSTEM,
}


def _scene(api: Any) -> None:
    """Something in every list."""
    make_wall(api, unique("Scene wall"), {unique("Scene zone"): [0, 1]}, count=2)
    make_mirror(api, unique("Scene pair"))
    create_source(api, name=unique("Scene source"))
    ok(api.post("/presets", json={"name": unique("Scene preset")}))


@pytest.mark.parametrize("path", list(VIEWS))
def test_two_reads_in_one_revision_are_the_same_bytes_built_once(api, path, monkeypatch):
    _scene(api)
    view = VIEWS[path]
    built = []
    build = view._build

    def counting(*args: Any) -> Any:
        built.append(args[1:])
        return build(*args)

    monkeypatch.setattr(view, "_build", counting)
    ok(api.get(path))  # GET /system makes the system id on its first read: a change
    revision = host_of(api).core.revision
    first = api.get(path)
    built_before = len(built)
    second = api.get(path)
    assert host_of(api).core.revision == revision  # nothing changed in between
    assert first.status_code == second.status_code == 200
    assert first.headers["content-type"] == "application/json"
    assert first.content == second.content
    assert len(built) == built_before, built  # the second read was not built
    assert 1 <= len(built) <= 2, built
    assert json.loads(first.content)  # a JSON object


def test_the_host_state_revision_moves_with_changes_and_announcements(api, host):
    before = host.core.revision
    ok(api.post("/presets", json={"name": "rev"}))
    after_change = host.core.revision
    assert after_change > before
    host.core.notify(frozenset())
    assert host.core.revision > after_change


def _find(items: list[dict[str, Any]], key: str, value: Any) -> dict[str, Any] | None:
    return next((item for item in items if item[key] == value), None)


def _by(items: list[dict[str, Any]], key: str, value: Any) -> dict[str, Any]:
    found = _find(items, key, value)
    assert found is not None, f"no {key} {value!r} in {items}"
    return found


def test_writes_through_the_interface_show_in_the_next_read(api):
    # displays: a new locked display, then what it plays
    display = locked_display(api)
    listed = _by(ok(api.get("/displays"))["displays"], "displayId", display)
    assert listed is not None and listed["playingSourceId"] == ""
    source = create_source(api, name=unique("Next read source"))["sourceId"]
    ok(api.put(f"/displays/{display}/switch", params={"destinationSourceId": source}, json={}))
    listed = _by(ok(api.get("/displays"))["displays"], "displayId", display)
    assert listed is not None and listed["playingSourceId"] == source
    # ... and the standalone-only variant is its own view, also fresh
    assert _by(
        ok(api.get("/displays", params={"isStandaloneOnly": True}))["displays"],
        "displayId",
        display,
    )

    # sources: created, renamed, deleted
    assert _by(ok(api.get("/sources"))["sources"], "sourceId", source)
    body = ok(api.get(url("sources", source)))
    renamed = unique("Renamed source")
    ok(api.put(url("sources", source), json={**body, "sourceName": renamed}))
    assert _by(ok(api.get("/sources"))["sources"], "sourceId", source)["sourceName"] == renamed
    # a list filtered by name is built for the request
    assert [
        s["sourceId"] for s in ok(api.get("/sources", params={"sourceName": renamed}))["sources"]
    ] == [source]

    # walls and zones: created, renamed
    wall = make_wall(api, unique("Next read wall"), {unique("Next zone"): [0, 1]}, count=2)
    walls = ok(api.get("/videowalls"))["videowalls"]
    assert _by(walls, "id", wall.id) is not None
    ok(api.put(url("videowalls", wall.id), json={"name": "Renamed wall"}))
    assert _by(ok(api.get("/videowalls"))["videowalls"], "id", wall.id)["name"] == "Renamed wall"
    [(zone_name, zone)] = wall.zones.items()
    assert _by(ok(api.get("/zones"))["zones"], "zoneId", zone["zoneId"])["zoneName"] == zone_name
    ok(api.put(url("zones", "byname", zone_name, "rename"), params={"newZoneName": "Zone B"}))
    assert _by(ok(api.get("/zones"))["zones"], "zoneId", zone["zoneId"])["zoneName"] == "Zone B"
    ok(api.put(f"/zones/{zone['zoneId']}/switch", params={"destinationSourceId": source}, json={}))
    listed = _by(ok(api.get("/zones"))["zones"], "zoneId", zone["zoneId"])
    assert listed["playingSourceId"] == source and listed["isPlaying"] is True
    # the wall's displays are no longer standalone
    standalone = ok(api.get("/displays", params={"isStandaloneOnly": True}))["displays"]
    assert _find(standalone, "displayId", wall.displays[0]) is None

    # mirror groups: created, deleted
    pair = make_mirror(api, unique("Next read pair"))
    assert _by(ok(api.get("/mirrorgroups"))["mirrorgroups"], "id", pair.id)
    ok(api.delete(url("mirrorgroups", pair.id)))
    assert _find(ok(api.get("/mirrorgroups"))["mirrorgroups"], "id", pair.id) is None

    # presets: saved, deleted
    saved = ok(api.post("/presets", json={"name": "Next read preset"}))
    assert _by(ok(api.get("/presets"))["presets"], "id", saved["id"])
    ok(api.delete(url("presets", saved["id"])))
    assert _find(ok(api.get("/presets"))["presets"], "id", saved["id"]) is None

    # receiver devices: named
    seat = register(api).seat_id
    assert _by(ok(api.get("/network"))["network"], "seatId", seat)["status"] == "AVAILABLE"
    lock(api, seat)
    assert _by(ok(api.get("/network"))["network"], "seatId", seat)["status"] == "CONNECTED"
    ok(api.put(url("network", seat), json={"name": "Foyer"}))
    assert _by(ok(api.get("/network"))["network"], "seatId", seat)["name"] == "Foyer"

    # the source deleted last: gone from the list at once
    ok(api.delete(url("sources", source)))
    assert _find(ok(api.get("/sources"))["sources"], "sourceId", source) is None


def test_liveness_reported_by_the_hub_shows_in_the_next_read(api, host):
    display = locked_display(api)
    seat = host.state.displays[display].seat_id
    assert _by(ok(api.get("/displays"))["displays"], "displayId", display)["isOnline"] is True
    run(api, _call, host.stations.set_offline, seat)
    assert _by(ok(api.get("/displays"))["displays"], "displayId", display)["isOnline"] is False
    assert _by(ok(api.get("/network"))["network"], "seatId", seat)["isOnline"] is False
    run(api, _call, host.stations.set_online, seat)
    assert _by(ok(api.get("/displays"))["displays"], "displayId", display)["isOnline"] is True
    assert _by(ok(api.get("/network"))["network"], "seatId", seat)["isOnline"] is True


async def _call(fn: Any, *args: Any) -> Any:
    return fn(*args)


def test_an_agents_device_report_shows_in_the_next_read(api, host):
    seat = register(api).seat_id
    hello = AgentHello(seat, "10.9.0.1", "Kiosk", "1.0", None, "cec", "", False)
    run(api, host.agents.hello, hello)
    before = _by(ok(api.get("/network"))["network"], "seatId", seat)
    assert before["agent"] is not None
    item = {"id": "usb-1", "type": "MEDIA_DEVICE", "model": "Camera X"}
    run(api, _call, host.agents.devices, seat, [], [item])
    device = _by(ok(api.get("/network"))["network"], "seatId", seat)
    assert [d["model"] for d in device["devices"] if d["type"] == "MEDIA_DEVICE"] == ["Camera X"]


def test_system_shows_stations_and_host_name_changes_at_once(api, host):
    first = ok(api.get("/system"))
    register(api)
    assert ok(api.get("/system"))["networkStations"] == first["networkStations"] + 1
    ok(api.put("/system/hostname", json={"hostName": "next-read.example"}))
    assert ok(api.get("/system"))["hostName"] == "next-read.example"


def test_machine_facts_read_again_show_in_the_next_read(api, host, monkeypatch):
    ok(api.get("/system"))  # the first read makes the system id: a change
    before = ok(api.get("/system"))
    facts = host.platform.facts
    monkeypatch.setattr(facts, "primary_ipv4", lambda: "192.0.2.77")
    monkeypatch.setattr(facts, "host_name", lambda: "renamed-outside.example")
    # read once: not per request
    assert ok(api.get("/system")) == before
    assert run(api, host.machine.refresh_facts) is True
    after = ok(api.get("/system"))
    assert after["ipAddress"] == "192.0.2.77"
    assert after["hostName"] == "renamed-outside.example"
    assert run(api, host.machine.refresh_facts) is False  # nothing new: the view stays


def test_machine_facts_are_read_again_on_a_timer(api, host, monkeypatch):
    assert host._facts_refresh is not None and not host._facts_refresh.done()
    ok(api.get("/system"))
    monkeypatch.setattr(host.platform.facts, "primary_ipv4", lambda: "192.0.2.78")

    async def a_few_rounds() -> None:
        task = asyncio.create_task(host.machine.refresh_facts_every(0.01))
        try:
            while host.machine.machine_facts().ip_address != "192.0.2.78":
                await asyncio.sleep(0.01)
        finally:
            task.cancel()

    run(api, asyncio.wait_for, a_few_rounds(), 5)
    assert ok(api.get("/system"))["ipAddress"] == "192.0.2.78"


def test_swapped_machine_adapters_show_in_the_next_read(api, host, monkeypatch):
    import dataclasses

    ok(api.get("/system"))
    facts = host.platform.facts

    class Facts:
        def __getattr__(self, name: str) -> Any:
            return getattr(facts, name)

        def primary_ipv4(self) -> str:
            return "198.51.100.9"

    host.platform = dataclasses.replace(host.platform, facts=Facts())
    assert ok(api.get("/system"))["ipAddress"] == "198.51.100.9"


HELLO = {
    "v": 1,
    "type": "hello",
    "screen": {"width": 1920, "height": 1080},
    "resolutions": [{"width": 1920, "height": 1080}],
    "model": "test receiver",
    "firmware": "1",
}


async def _recv(socket: Any, kind: str) -> dict[str, Any]:
    async with asyncio.timeout(10):
        while True:
            message: dict[str, Any] = json.loads(await socket.recv())
            if message["type"] == kind:
                return message


async def _hello(port: int, seat: str, key: str | None = None) -> Any:
    import websockets

    socket = await websockets.connect(f"ws://127.0.0.1:{port}/receiver/ws")
    await socket.send(json.dumps({**HELLO, "seatId": seat, **({"key": key} if key else {})}))
    await _recv(socket, "welcome")
    return socket


@pytest.mark.timeout(90)
async def test_a_receiver_online_over_a_websocket_shows_in_the_next_read(tmp_path: Path) -> None:
    server = InProcessServer(tmp_path / "data")
    await asyncio.to_thread(server.start)
    try:
        host = server.app.state.host
        api = server.api

        def listed(seat: str) -> dict[str, Any]:
            return _by(ok(api.get("/displays"))["displays"], "seatId", seat)

        seat = "seat-websocket"
        socket = await _hello(server.port, seat)
        await asyncio.to_thread(lambda: ok(api.put(url("network", seat, "lock"))))
        key = (await _recv(socket, "key"))["key"]  # what the page keeps to come back
        assert (await asyncio.to_thread(listed, seat))["isOnline"] is True
        await socket.close()
        # gone: once the host knows, the next read says so
        await asyncio.to_thread(
            wait_until, lambda: not host.stations.is_online(seat), 10, 0.02, "offline"
        )
        assert (await asyncio.to_thread(listed, seat))["isOnline"] is False
        # back: the receiver says hello again (no stored change, an announcement)
        socket = await _hello(server.port, seat, key)
        await asyncio.to_thread(
            wait_until, lambda: host.stations.is_online(seat), 10, 0.02, "online"
        )
        assert (await asyncio.to_thread(listed, seat))["isOnline"] is True
        await socket.close()
    finally:
        await asyncio.to_thread(server.close)


@pytest.mark.parametrize("path", list(VIEWS))
def test_a_current_read_is_answered_before_routing_as_its_route_answers(api, path, monkeypatch):
    from tilewall import app as app_module
    from tilewall.api import read_cache

    _scene(api)
    early: list[bool] = []
    answer = app_module.App._answer_early

    async def spying(self: Any, scope: Any, send: Any) -> bool:
        early.append(await answer(self, scope, send))
        return early[-1]

    monkeypatch.setattr(app_module.App, "_answer_early", spying)
    ok(api.get(path))  # built by the route (GET /system also makes the system id)
    routed = api.get(path)  # the route, its bytes current now
    answered = api.get(path)
    assert early[-1] is True  # the last one was answered early
    with monkeypatch.context() as mp:
        mp.setattr(read_cache, "ANSWERED_EARLY", {})
        routed = api.get(path)
    assert early[-1] is False
    assert answered.status_code == routed.status_code == 200
    assert answered.headers.raw == routed.headers.raw
    assert answered.content == routed.content
    # a query string, or no session: the route decides
    assert api.get(path, params={"unused": "1"}).content == routed.content
    assert early[-1] is False
    api.forget_session()
    assert api.get(path).status_code == 401


def test_reads_answered_early_are_logged_and_counted(api, host):
    from tilewall.app import flush_access_log

    ok(api.get("/presets"))
    ok(api.get("/presets"))  # answered early
    flush_access_log()
    lines = (host.data_dir / "logs" / "api.log").read_text().splitlines()
    assert sum('"GET /api/presets" 200' in line for line in lines) == 2
    text = api.transport.get(f"{BASE_URL}/metrics").text
    counted = [
        line
        for line in text.splitlines()
        if line.startswith("tilewall_http_requests_total")
        and 'route="/api/presets"' in line
        and 'method="GET"' in line
    ]
    assert counted and float(counted[0].rsplit(" ", 1)[1]) == 2.0, counted
