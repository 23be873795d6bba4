"""Receiver devices, video walls, and managing zones and mirror groups (tilewall's
extensions), through the client."""

from __future__ import annotations

from litestar.testing import TestClient

from tests.client.conftest import by_name, refused
from tests.support.http import Api
from tests.support.topology import register
from tilewall.client import Client, geometry, grid, monitor

Http = TestClient


def test_receiver_devices(client: Client, app: Http) -> None:
    listed = client.network.list()
    assert {d["seatId"]: d["status"] for d in listed}["demo-7"] == "AVAILABLE"
    refused(lambda: client.network.get("127.0.0.1"), 409, "seat id")
    refused(lambda: client.network.get("no-seat"), 404, "not found")
    locked = client.network.lock("demo-7")
    assert locked["status"] == "CONNECTED" and locked["displayId"] == 7
    assert client.network.get("demo-7")["displayId"] == 7
    renamed = client.network.rename("demo-7", "Side screen", location="Hall")
    assert (renamed["name"], renamed["location"]) == ("Side screen", "Hall")
    assert client.network.rename("demo-7", location="Back hall")["name"] == "Side screen"
    assert client.network.reset("demo-7")["seatId"] == "demo-7"
    assert client.network.unlock("demo-7")["status"] == "AVAILABLE"
    assert client.network.lock("demo-7")["displayId"] == 7
    refused(lambda: client.network.rename("demo-7", ""), 400)
    refused(lambda: client.network.lock("no-seat"), 404)
    refused(lambda: client.network.unlock("no-seat"), 404)
    refused(lambda: client.network.reset("no-seat"), 404)

    refused(lambda: client.network.usb_devices("demo-1"), 404, "no devices")
    usb = {
        "name": "keyboard",
        "subsystem": "usb",
        "sysfs_path": "/sys/x",
        "is_initialized": True,
        "property_keys": {},
    }
    register(Api(app), "usb-seat", "192.0.2.77", usb_devices=[usb])
    assert [d["name"] for d in client.network.usb_devices("usb-seat")] == ["keyboard"]


def test_mirror_group_management(client: Client) -> None:
    client.network.lock("demo-7")
    created = client.mirrorgroups.create("Side pair", [7])
    assert created["displayIds"] == [7]
    refused(lambda: client.mirrorgroups.create("Side pair", [7]), 409, "Side pair")
    updated = client.mirrorgroups.update("Side pair", name="Side one")
    assert updated["name"] == "Side one" and updated["id"] == created["id"]
    assert client.mirrorgroups.update(created["id"], display_ids=[], by="id")["displayIds"] == []
    assert "deleted" in client.mirrorgroups.delete("Side one")["message"]
    refused(lambda: client.mirrorgroups.delete("Side one"), 404)
    refused(lambda: client.mirrorgroups.update(created["id"], name="x", by="id"), 404)


def test_video_walls_and_zone_management(client: Client) -> None:
    client.network.lock("demo-7")
    walls = client.videowalls.list()
    lobby = by_name(walls, "Lobby Wall")
    assert {z["zoneName"] for z in lobby["zones"]} == {"Lobby Top", "Lobby Bottom"}
    assert client.videowalls.get("Lobby Wall")["id"] == lobby["id"]
    assert client.videowalls.get(lobby["id"], by="id")["name"] == "Lobby Wall"
    refused(lambda: client.videowalls.get("No wall"), 404, "not found")
    refused(lambda: client.videowalls.get("Lobby Wall", by="id"), 404)

    wall = client.videowalls.create("Side wall", grid([7], columns=1))
    assert wall["canvasGeometry"]["width"] == 1210.0
    refused(lambda: client.videowalls.create("Side wall", []), 409)
    refused(lambda: client.videowalls.create("Bad", [monitor(99, geometry(1, 1, 0, 0))]), 404)
    moved = client.videowalls.update(
        "Side wall", monitors=[monitor(7, geometry(1920, 1080, 960, 540), 1397.0)]
    )
    assert moved["monitors"][0]["monitorGeometry"]["width"] == 1920
    assert client.videowalls.update(wall["id"], name="Hall wall", by="id")["name"] == "Hall wall"

    zone = client.zones.create("Hall", wall["id"], [7], control_display_id=7)
    assert zone["controlDisplayId"] == 7
    refused(lambda: client.zones.create("Hall", wall["id"], [7]), 409)
    refused(lambda: client.zones.create("Other", "no-wall", [7]), 404)
    assert client.zones.update("Hall", name="Hall zone")["zoneName"] == "Hall zone"
    changed = client.zones.update(zone["zoneId"], display_ids=[7], control_display_id=7, by="id")
    assert changed["zoneDisplays"] == [{"displayId": 7, "isSelected": True}]
    assert "deleted" in client.zones.delete("Hall zone")["message"]
    refused(lambda: client.zones.delete("Hall zone"), 404)
    refused(lambda: client.zones.update("Hall zone", name="x"), 404)

    assert "deleted" in client.videowalls.delete("Hall wall")["message"]
    refused(lambda: client.videowalls.delete("Hall wall"), 404)
    refused(lambda: client.videowalls.update("Hall wall", name="x"), 404)
