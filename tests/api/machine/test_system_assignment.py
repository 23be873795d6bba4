"""Receiver-device assignment settings and their effect: autoAssign locks receivers the
host has never seen; autoInherit gives a replacement receiver its predecessor's seat."""

from tests.support.app import app_client, host_of
from tests.support.app import run as call
from tests.support.licence import code
from tests.support.singletons import SingletonMixin
from tilewall.host.model import Geometry, Resolution
from tilewall.host.topology.walls import MonitorSpec

SCREEN = Resolution(1920, 1080)


class TestAssignmentSettings(SingletonMixin):
    path = "/system/receiverdeviceassignmentsettings"

    def initial(self, api):
        return {"autoAssign": False, "autoInherit": False}

    def valid_body(self, api):
        return {"autoAssign": True, "autoInherit": True}

    def invalid_bodies(self, api):
        return [({"autoAssign": "on"}, 400, ()), ({"autoInherit": [1]}, 400, ())]


def status(api, seat: str) -> str:
    return api.get(f"/network/{seat}").json()["status"]


def test_settings_round_trip(api):
    r = api.put(
        "/system/receiverdeviceassignmentsettings", json={"autoAssign": True, "autoInherit": True}
    )
    assert r.status_code == 200 and r.json() == {"autoAssign": True, "autoInherit": True}
    # a field left out keeps its value
    r = api.put("/system/receiverdeviceassignmentsettings", json={"autoAssign": False})
    assert r.json() == {"autoAssign": False, "autoInherit": True}
    assert (
        api.put("/system/receiverdeviceassignmentsettings", json={"autoAssign": "on"}).status_code
        == 400
    )
    assert api.get("/system/receiverdeviceassignmentsettings").json() == {
        "autoAssign": False,
        "autoInherit": True,
    }


def test_auto_assign_locks_new_receivers_only(api, host):
    call(api, host.stations.hello, "seat-old", "10.0.0.1")
    api.put("/system/receiverdeviceassignmentsettings", json={"autoAssign": True})
    call(api, host.stations.hello, "seat-new", "10.0.0.2", screen=SCREEN)
    assert status(api, "seat-new") == "CONNECTED"
    display_id = api.get("/network/seat-new").json()["displayId"]
    assert api.get(f"/displays/{display_id}").status_code == 200
    # a receiver known before stays available, even when it comes back changed
    call(api, host.stations.hello, "seat-old", "10.0.0.9")
    assert status(api, "seat-old") == "AVAILABLE"
    # an operator's unlock sticks when the receiver reconnects
    api.put("/network/seat-new/unlock")
    call(api, host.stations.hello, "seat-new", "10.0.0.3", screen=SCREEN)
    assert status(api, "seat-new") == "AVAILABLE"


def test_auto_assign_off_leaves_receivers_available(api, host):
    call(api, host.stations.hello, "seat-x", "10.0.0.1")
    assert status(api, "seat-x") == "AVAILABLE"


def test_auto_assign_respects_the_licence(signing_key, api, host):
    api.put("/system/license", json={"activationCode": code(signing_key, 1)})
    api.put("/system/receiverdeviceassignmentsettings", json={"autoAssign": True})
    call(api, host.stations.hello, "seat-1", "10.0.0.1")
    call(api, host.stations.hello, "seat-2", "10.0.0.2")
    assert status(api, "seat-1") == "CONNECTED"
    assert status(api, "seat-2") == "AVAILABLE"


def _seat_in_topology(api, host):
    """seat-old locked on a wall and in a zone, with a tag; seat-mirror in a mirror group."""
    call(api, host.stations.hello, "seat-old", "10.0.0.7", screen=SCREEN, name="Left panel")
    call(api, host.stations.hello, "seat-peer", "10.0.0.8", screen=SCREEN)
    old = call(api, host.stations.lock, "seat-old").display_id
    peer = call(api, host.stations.lock, "seat-peer").display_id
    g = Geometry(1000, 600, 500, 300)
    wall = call(
        api,
        host.topology.create_wall,
        "Wall",
        [MonitorSpec(old, g, 1100.0), MonitorSpec(peer, Geometry(1000, 600, 1500, 300), 1100.0)],
        None,
    )
    call(api, host.topology.create_zone, "Zone A", wall.id, [old, peer], None)
    call(api, host.stations.hello, "seat-mirror", "10.0.0.9", screen=SCREEN)
    mirrored = call(api, host.stations.lock, "seat-mirror").display_id
    call(api, host.topology.create_mirror, "Mirrors", [mirrored])
    api.put(f"/displays/{old}/tag", json={"displayTag": "left"})
    return old, peer, wall


def test_auto_inherit_replaces_an_offline_seat(api, host):
    old, peer, wall = _seat_in_topology(api, host)
    api.put("/system/receiverdeviceassignmentsettings", json={"autoInherit": True})
    host.stations.set_offline("seat-old")
    call(api, host.stations.hello, "seat-replacement", "10.0.0.7", screen=SCREEN)
    new = api.get("/network/seat-replacement").json()
    assert new["status"] == "CONNECTED" and new["displayId"] == old
    assert new["name"] == "Left panel"
    display = api.get(f"/displays/{old}").json()
    assert display["seatId"] == "seat-replacement" and display["isOnline"] is True
    assert api.get(f"/displays/{old}/tag").json()["displayTag"] == "left"
    walls = api.get(f"/videowalls/{wall.id}").json()
    assert old in {m["displayId"] for m in walls["monitors"]}
    zone = api.get("/zones/byname/Zone A").json()
    assert {d["displayId"] for d in zone["zoneDisplays"]} == {old, peer}
    # the same for a receiver of a mirror group
    mirrored = api.get("/network/seat-mirror").json()["displayId"]
    host.stations.set_offline("seat-mirror")
    call(api, host.stations.hello, "seat-mirror-2", "10.0.0.9", screen=SCREEN)
    assert api.get("/network/seat-mirror-2").json()["displayId"] == mirrored
    group = next(iter(host.state.mirrors.values()))
    assert group.display_ids == [mirrored]
    assert api.get(f"/displays/{mirrored}").json()["seatId"] == "seat-mirror-2"
    # the old receiver is no longer locked and holds no display
    former = api.get("/network/seat-old").json()
    assert former["status"] == "AVAILABLE" and former.get("displayId") is None
    # the seat count is unchanged
    locked = [d for d in api.get("/network").json()["network"] if d["status"] == "CONNECTED"]
    assert len(locked) == 3


def test_auto_inherit_needs_an_offline_predecessor_and_a_new_receiver(api, host):
    old, _peer, _wall = _seat_in_topology(api, host)
    api.put("/system/receiverdeviceassignmentsettings", json={"autoInherit": True})
    # the old receiver is still online: a newcomer at its address is just available
    call(api, host.stations.hello, "seat-guest", "10.0.0.7")
    assert status(api, "seat-guest") == "AVAILABLE"
    assert api.get(f"/displays/{old}").json()["seatId"] == "seat-old"
    # a known receiver moving to the address of an offline seat inherits nothing
    host.stations.set_offline("seat-old")
    call(api, host.stations.hello, "seat-guest", "10.0.0.7", model="changed")
    assert status(api, "seat-guest") == "AVAILABLE"
    # from another address: nothing either
    call(api, host.stations.hello, "seat-far", "10.0.0.99")
    assert status(api, "seat-far") == "AVAILABLE"
    assert api.get(f"/displays/{old}").json()["seatId"] == "seat-old"


def test_auto_inherit_off_keeps_the_old_seat(api, host):
    old, _peer, _wall = _seat_in_topology(api, host)
    host.stations.set_offline("seat-old")
    call(api, host.stations.hello, "seat-replacement", "10.0.0.7")
    assert status(api, "seat-replacement") == "AVAILABLE"
    assert api.get(f"/displays/{old}").json()["seatId"] == "seat-old"


def test_inherited_seat_survives_a_restart(data_dir):
    with app_client(data_dir) as api:
        host = host_of(api)
        old, _peer, _wall = _seat_in_topology(api, host)
        api.put("/system/receiverdeviceassignmentsettings", json={"autoInherit": True})
        host.stations.set_offline("seat-old")
        call(api, host.stations.hello, "seat-replacement", "10.0.0.7")
    with app_client(data_dir) as api:
        assert api.get(f"/displays/{old}").json()["seatId"] == "seat-replacement"
        assert api.get("/system/receiverdeviceassignmentsettings").json()["autoInherit"] is True
