"""Receiver devices: listed available, locked (display appears), unlocked, reset; by
address and by seat id; USB devices; licence station limit."""

from tests.support.app import host_of, set_licence
from tests.support.http import error, ok, url
from tests.support.topology import locked_display, register

DEVICE_FIELDS = {
    "seatId",
    "name",
    "location",
    "ip",
    "mac",
    "status",
    "devices",
    "model",
    "firmware",
}


def test_empty(api):
    assert ok(api.get("/network")) == {"network": []}


def test_receiver_listed_available(api):
    register(api, "lobby-1", "10.1.0.7", model="Kiosk X", firmware="2.3")
    network = ok(api.get("/network"))["network"]
    assert len(network) == 1
    device = network[0]
    assert set(device) >= DEVICE_FIELDS
    assert device["seatId"] == "lobby-1"
    assert device["ip"] == "10.1.0.7"
    assert device["status"] == "AVAILABLE"
    assert device["model"] == "Kiosk X"
    assert device["firmware"] == "2.3"
    for item in device["devices"]:
        assert set(item) >= {"id", "type", "vid", "pid", "manufacturer", "model", "serial"}
        assert isinstance(item["id"]["value"], str)
    assert ok(api.get("/displays"))["displays"] == []


def test_lock_by_ip_connects_and_display_appears(api):
    register(api, "lobby-1", "10.1.0.7")
    ok(api.put("/network/10.1.0.7/lock"))
    device = ok(api.get("/network/10.1.0.7"))
    assert device["status"] == "CONNECTED"
    displays = ok(api.get("/displays"))["displays"]
    assert [d["seatId"] for d in displays] == ["lobby-1"]
    assert isinstance(displays[0]["displayId"], int)


def test_lock_is_idempotent(api):
    register(api, "lobby-1", "10.1.0.7")
    ok(api.put("/network/lobby-1/lock"))
    ok(api.put("/network/lobby-1/lock"))
    assert len(ok(api.get("/displays"))["displays"]) == 1


def test_unlock_returns_to_available_and_display_goes(api):
    display_id = locked_display(api, "lobby-1", "10.1.0.7")
    ok(api.put("/network/10.1.0.7/unlock"))
    assert ok(api.get("/network/lobby-1"))["status"] == "AVAILABLE"
    assert ok(api.get("/displays"))["displays"] == []
    error(api.get(f"/displays/{display_id}"), 404)


def test_relock_keeps_display_id(api):
    display_id = locked_display(api, "lobby-1", "10.1.0.7")
    ok(api.put("/network/lobby-1/unlock"))
    ok(api.put("/network/lobby-1/lock"))
    assert ok(api.get(f"/displays/{display_id}"))["seatId"] == "lobby-1"


def test_display_ids_distinct(api):
    ids = [locked_display(api) for _ in range(3)]
    assert len(set(ids)) == 3


def test_reset_by_ip_and_seat(api):
    register(api, "lobby-1", "10.1.0.7")
    commands = []
    unsubscribe = host_of(api).core.on_command(lambda seat, name: commands.append((seat, name)))
    try:
        ok(api.put("/network/10.1.0.7/reset"))
        ok(api.put("/network/lobby-1/reset"))
    finally:
        unsubscribe()
    assert [seat for seat, _ in commands] == ["lobby-1", "lobby-1"]


def test_get_by_seat_id(api):
    register(api, "lobby-1", "10.1.0.7")
    assert ok(api.get("/network/lobby-1"))["ip"] == "10.1.0.7"


def test_unknown_station_404(api):
    for path in (
        "/network/10.9.9.9",
        "/network/10.9.9.9/lock",
        "/network/10.9.9.9/unlock",
        "/network/10.9.9.9/reset",
    ):
        method = api.get if path.count("/") == 2 else api.put
        error(method(path), 404, "not found")


def test_shared_address_409_by_ip_fine_by_seat(api):
    register(api, "tab-a", "192.168.5.5")
    register(api, "tab-b", "192.168.5.5")
    error(api.get("/network/192.168.5.5"), 409, "seat")
    error(api.put("/network/192.168.5.5/lock"), 409)
    assert ok(api.get("/displays"))["displays"] == []
    ok(api.put("/network/tab-a/lock"))
    ok(api.put("/network/tab-b/lock"))
    statuses = {d["seatId"]: d["status"] for d in ok(api.get("/network"))["network"]}
    assert statuses == {"tab-a": "CONNECTED", "tab-b": "CONNECTED"}
    ok(api.put("/network/tab-b/unlock"))
    assert ok(api.get("/network/tab-a"))["status"] == "CONNECTED"
    assert ok(api.get("/network/tab-b"))["status"] == "AVAILABLE"


def test_usb_devices(api):
    usb = [
        {
            "name": "keyboard",
            "is_initialized": True,
            "property_keys": {"ID_BUS": "usb"},
            "subsystem": "input",
            "sysfs_path": "/devices/usb1/1-1",
        }
    ]
    register(api, "with-usb", "10.1.0.8", usb_devices=usb)
    body = ok(api.get("/network/devices/with-usb"))
    assert body == {"devices": usb}


def test_usb_devices_404(api):
    register(api, "no-usb", "10.1.0.9")
    error(api.get("/network/devices/no-usb"), 404)
    error(api.get("/network/devices/nobody"), 404)


def test_seat_id_with_dots_and_colons(api):
    register(api, "aa:bb:cc.01", "10.1.0.10")
    ok(api.put(url("network", "aa:bb:cc.01", "lock")))
    assert ok(api.get(url("network", "aa:bb:cc.01")))["status"] == "CONNECTED"


def test_licence_station_limit_403(api):
    set_licence(api, number_of_stations=2)
    locked_display(api)
    locked_display(api)
    station = register(api)
    error(api.put(url("network", station.seat_id, "lock")), 403)
    assert ok(api.get(url("network", station.seat_id)))["status"] == "AVAILABLE"
    assert len(ok(api.get("/displays"))["displays"]) == 2


def test_rename_a_receiver(api):
    register(api, "lobby-3", "10.1.0.3")
    r = api.put("/network/lobby-3", json={"name": "Lobby left", "location": "Ground floor"})
    assert r.status_code == 200, r.text
    assert (r.json()["name"], r.json()["location"]) == ("Lobby left", "Ground floor")
    assert ok(api.get("/network/lobby-3"))["name"] == "Lobby left"
    # a field left out is kept
    r = api.put("/network/lobby-3", json={"location": "  Hall  "})
    assert (r.json()["name"], r.json()["location"]) == ("Lobby left", "Hall")

    for body in ({"name": ""}, {"name": "   "}, {"name": "x" * 257}, {"location": "y" * 257}):
        r = api.put("/network/lobby-3", json=body)
        assert r.status_code == 400, (body, r.text)
    assert api.put("/network/lobby-3", json={"name": 5}).status_code == 400
    assert api.put("/network/nobody", json={"name": "x"}).status_code == 404
    assert ok(api.get("/network/lobby-3"))["name"] == "Lobby left"
