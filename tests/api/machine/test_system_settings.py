"""Machine settings over HTTP with the simulated adapters: host name, time zone,
network interfaces, partner access, remote control, packages, power."""

import socket
import time

import pytest

from tests.support.singletons import SingletonMixin
from tilewall.platform.timezone import read_system_zone


class TestPartnerAccess(SingletonMixin):
    path = "/system/partneraccess"

    def initial(self, api):
        return {"partnerAccess": False}

    def valid_body(self, api):
        return {"partnerAccess": True}

    def invalid_bodies(self, api):
        return [({"partnerAccess": "yes"}, 400, ()), ({"partnerAccess": None}, 400, ())]


class TestHostName(SingletonMixin):
    """Simulated: kept in the host's durable settings, the machine's name until set."""

    path = "/system/hostname"

    def initial(self, api):
        return {"hostName": socket.gethostname()}

    def valid_body(self, api):
        return {"hostName": "lobby-wall.example"}

    def invalid_bodies(self, api):
        bad = ("", "-x", "under_score", "a" * 70, "spa ce")
        return [*[({"hostName": name}, 400, ()) for name in bad], ({"name": "x"}, 400, ())]

    def test_shown_everywhere_and_kept(self, api, host):
        r = api.put("/system/hostname", json={"hostName": "lobby-wall.example"})
        assert r.status_code == 200 and r.json() == {"hostName": "lobby-wall.example"}
        assert api.get("/system").json()["hostName"] == "lobby-wall.example"
        # the machine's settings are the host's own (a group member's, not the group's)
        assert host.member_core.state.settings["platform.hostname"] == "lobby-wall.example"


class TestTimeZone(SingletonMixin):
    """The machine's zone until set; answered with its offset and the zones to choose."""

    path = "/system/timezone"

    def shown(self, answer):
        return answer["currentTimeZone"]["timezone"]

    def initial(self, api):
        return read_system_zone()

    def valid_body(self, api):
        return {"timezone": "Asia/Kolkata"}

    def expected(self, body):
        return body["timezone"]

    def invalid_bodies(self, api):
        return [({"timezone": "Mars/Olympus"}, 400, ("Mars/Olympus",)), ({"zone": "UTC"}, 400, ())]

    def test_shape_and_offset(self, api):
        body = api.get("/system/timezone").json()
        assert "Europe/Berlin" in body["availableTimeZones"]
        assert set(body["currentTimeZone"]) == {"timezone", "offset"}
        r = api.put("/system/timezone", json={"timezone": "Asia/Kolkata"})
        assert r.status_code == 200, r.text
        assert r.json()["currentTimeZone"] == {"timezone": "Asia/Kolkata", "offset": 330}


def test_timezone_offset_is_documented(api):
    doc = api.get("/openapi.json").json()
    text = doc["paths"]["/api/system/timezone"]["get"]["description"]
    assert "minutes east of UTC" in text


def _interface(api) -> dict:
    listed = api.get("/system/networkinterfaces")
    assert listed.status_code == 200, listed.text
    candidates = [i for i in listed.json() if i["id"] != "lo"]
    if not candidates:
        pytest.skip("this machine has no network interface besides loopback")
    return candidates[0]


def _wait_idle(api, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while api.get("/system/networkinterfaces").status_code == 500:
        assert time.monotonic() < deadline, "network update never finished"
        time.sleep(0.05)


def test_network_update_is_busy_then_applied(api, host):
    iface = _interface(api)
    assert set(iface) >= {
        "id",
        "deviceName",
        "portStatus",
        "linkSpeed",
        "usesDHCP",
        "leaseDuration",
        "ipAddress",
        "subnetMask",
        "defaultGateway",
        "preferredDNSAddress",
        "alternateDNSAddress",
        "runningDhcpd",
        "dhcpdStarting",
    }
    host.platform.network.apply_seconds = 1.5  # longer than the PUT's grace
    update = {
        "id": iface["id"],
        "usesDHCP": False,
        "ipAddress": "192.168.77.10",
        "subnetMask": "255.255.255.0",
        "defaultGateway": "192.168.77.1",
        "preferredDNSAddress": "192.168.77.1",
        "alternateDNSAddress": "",
        "runningDhcpd": False,
    }
    r = api.put("/system/networkinterfaces", json=update)
    assert r.status_code == 204, r.text
    busy = api.get("/system/networkinterfaces")
    assert busy.status_code == 500
    assert "still being applied" in busy.json()["message"]
    # a second update while the first is applied is refused the same way
    again = api.put("/system/networkinterfaces", json=update)
    assert again.status_code == 500 and again.json()["message"]
    _wait_idle(api)
    after = {i["id"]: i for i in api.get("/system/networkinterfaces").json()}[iface["id"]]
    assert after["ipAddress"] == "192.168.77.10"
    assert after["defaultGateway"] == "192.168.77.1"
    assert after["usesDHCP"] is False


def test_network_update_rejects_bad_bodies(api):
    iface = _interface(api)
    base = {
        "id": iface["id"],
        "usesDHCP": False,
        "ipAddress": "10.1.2.3",
        "subnetMask": "255.255.255.0",
        "defaultGateway": "10.1.2.1",
        "preferredDNSAddress": "",
        "alternateDNSAddress": "",
        "runningDhcpd": False,
    }
    bad = [
        {**base, "id": "nope0"},
        {**base, "ipAddress": "10.1.2.300"},
        {**base, "subnetMask": "255.0.255.0"},
        {**base, "defaultGateway": "10.9.9.9"},
        {**base, "usesDHCP": True, "runningDhcpd": True},
        {**base, "usesDHCP": "maybe"},
        {"usesDHCP": False},
    ]
    for body in bad:
        r = api.put("/system/networkinterfaces", json=body)
        assert r.status_code == 400, body
        assert r.json()["message"], body
    r = api.put(
        "/system/networkinterfaces", content=b"{{", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400
    # nothing was started
    assert api.get("/system/networkinterfaces").status_code == 200


def test_network_update_that_fails_answers_500(api, host, monkeypatch):
    iface = _interface(api)
    network = host.platform.network

    async def broken(update):
        raise RuntimeError("nmcli: connection activation failed")

    monkeypatch.setattr(network, "_apply", broken)
    r = api.put("/system/networkinterfaces", json={"id": iface["id"], "usesDHCP": True})
    assert r.status_code == 500
    assert "activation failed" in r.json()["message"]


def test_partner_access_and_vpn(api, host):
    assert api.put("/system/partneraccess", json={"partnerAccess": True}).json() == {
        "partnerAccess": True
    }

    status = api.get("/system/vpn").json()
    assert status["running"] is False and status["managed"] is False
    started = api.put("/system/vpn")
    assert started.status_code == 200 and started.json()["running"] is True
    assert api.get("/system/vpn").json()["running"] is True
    # withdrawing partner access ends remote control
    api.put("/system/partneraccess", json={"partnerAccess": False})
    assert api.get("/system/vpn").json()["running"] is False
    api.put("/system/vpn")
    stopped = api.delete("/system/vpn")
    assert stopped.status_code == 200 and stopped.json()["running"] is False


def test_reboot_and_shutdown_are_simulated(api, host):
    for action in ("reboot", "shutdown"):
        r = api.put(f"/system/{action}")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["action"] == action and body["performed"] is False
        assert "host management is off" in body["message"]
    recorded = host.member_core.state.settings["platform.power.requests"]
    assert [entry["action"] for entry in recorded] == ["reboot", "shutdown"]


def test_packages(api, host):
    manifest = api.get("/system/manifest")
    assert manifest.status_code == 200
    names = {p["name"] for p in manifest.json()["installedPackages"]}
    assert "tilewall" in names and "litestar" in names
    catalogue = api.get("/system/installthirdpartypackage").json()
    entry = {e["name"]: e for e in catalogue}["fonts-noto-cjk"]
    assert set(entry) == {"name", "groupName", "installed"}
    r = api.post("/system/installthirdpartypackage", json=["fonts-noto-cjk"])
    assert r.status_code == 200, r.text
    assert {e["name"]: e for e in r.json()}["fonts-noto-cjk"]["installed"] is True
    assert {e["name"]: e for e in api.get("/system/installthirdpartypackage").json()}[
        "fonts-noto-cjk"
    ]["installed"] is True
    r = api.post("/system/installthirdpartypackage", json=["fonts-noto-cjk", "rm-rf"])
    assert r.status_code == 400 and "rm-rf" in r.json()["message"]
    assert api.post("/system/installthirdpartypackage", json=[]).status_code == 400
    assert api.post("/system/installthirdpartypackage", json={"a": 1}).status_code == 400


@pytest.mark.parametrize(
    "method,path",
    [
        ("GET", "/system"),
        ("GET", "/system/license"),
        ("PUT", "/system/reboot"),
        ("GET", "/system/diag"),
        ("GET", "/system/apilog"),
        ("GET", "/system/hostname"),
        ("GET", "/system/networkinterfaces"),
        ("GET", "/system/timezone"),
        ("GET", "/system/downloadtroubleshootingreport"),
        ("DELETE", "/system/vpn"),
        ("GET", "/system/receiverdeviceassignmentsettings"),
        ("GET", "/system/manifest"),
    ],
)
def test_system_needs_a_session(sessionless, method, path):
    assert sessionless.request(method, path).status_code == 401
