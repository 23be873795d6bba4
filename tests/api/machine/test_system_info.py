"""Host information, diagnostics and the interface log over HTTP."""

import re

import tilewall
from tests.support.app import app_client
from tests.support.app import run as call
from tests.support.licence import code
from tilewall.host.model import Resolution


def test_system_information(api, host):
    call(api, host.stations.hello, "seat-a", "10.0.0.5")
    call(api, host.stations.hello, "seat-b", "10.0.0.6")
    call(api, host.stations.lock, "seat-a")
    r = api.get("/system")
    assert r.status_code == 200
    info = r.json()
    assert set(info) == {
        "hostName",
        "ipAddress",
        "licenseSystemId",
        "productVersion",
        "productBuildData",
        "linuxDistro",
        "linuxVersion",
        "onboardStations",
        "usbStations",
        "networkStations",
        "unknownStations",
        "version",
    }
    assert info["version"] == "1.9"
    assert info["productVersion"] == tilewall.__version__
    assert info["productBuildData"].startswith(f"tilewall {tilewall.__version__}")
    assert info["networkStations"] == 2
    assert info["onboardStations"] == info["usbStations"] == info["unknownStations"] == 0
    assert info["hostName"] and info["linuxDistro"]
    assert re.fullmatch(r"[0-9a-f-]{36}", info["licenseSystemId"])
    # stable: the same on every read, and kept in the host's own settings (a member of a
    # group keeps them in its data directory, apart from the group's)
    assert api.get("/system").json()["licenseSystemId"] == info["licenseSystemId"]
    assert host.member_core.state.settings["platform.system_id"] == info["licenseSystemId"]


def test_system_id_survives_a_restart(data_dir):
    ids = []
    for _ in range(2):
        with app_client(data_dir) as client:
            ids.append(client.get("/system").json()["licenseSystemId"])
            client.put("/system/hostname", json={"hostName": "kept-name"})
            assert client.get("/system/hostname").json()["hostName"] == "kept-name"
    assert ids[0] == ids[1]


def _results(api) -> dict[str, dict]:
    r = api.get("/system/diag")
    assert r.status_code == 200, r.text
    results = r.json()["results"]
    assert len(results) == 22
    return {item["id"]: item for item in results}


def test_diag_uses_licence_stations_and_round_trips(signing_key, api, host):
    results = _results(api)
    assert results["LICENSE"]["success"] is False  # no licence yet
    assert results["TURN_SERVER"]["success"] is True
    api.put("/system/license", json={"activationCode": code(signing_key, 5)})
    screen = Resolution(1920, 1080)
    call(api, host.stations.hello, "seat-1", "10.0.0.1", "kiosk", "1.2.0", screen, name="Lobby")
    call(api, host.stations.hello, "seat-2", "10.0.0.2", "tv", "1.3.0", None, name="Hall")
    call(api, host.stations.lock, "seat-1")
    call(api, host.stations.lock, "seat-2")
    host.stations.round_trip_ms.update({"seat-1": 3.5, "seat-2": 48.0})
    results = _results(api)
    assert results["LICENSE"]["success"] is True
    assert "2 stations" in results["LICENSE"]["params"]
    latency = results["NETWORK_LATENCY"]
    assert latency["success"] is False
    assert "worst 48.0 ms" in latency["params"] and "Hall: 48.0 ms" in latency["params"]
    assert "2 of 2 measured" in latency["params"]
    # seat-2 never reported a screen: a station without a display
    assert results["ALL_ZC_DISPLAY"] == {
        "id": "ALL_ZC_DISPLAY",
        "success": False,
        "params": ["Hall"],
    }
    congruency = results["SOFTWARE_UPDATE_CONGRUENCY"]
    assert congruency["success"] is False and congruency["params"] == ["1.2.0", "1.3.0"]
    host.stations.round_trip_ms["seat-2"] = 4.0
    assert _results(api)["NETWORK_LATENCY"]["success"] is True


def test_apilog_has_request_lines(api, host):
    api.get("/system/hostname")
    r = api.get("/system/apilog")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    lines = r.text.splitlines()
    assert any('"GET /api/system/hostname" 200' in line for line in lines), r.text
    assert any('"POST /api/session" 200' in line for line in lines)
    # the log file is where the data directory keeps it
    assert (host.data_dir / "logs" / "api.log").read_text().count("/api/system/hostname") >= 1


def test_apilog_rotates(api, host, monkeypatch):
    import logging.handlers

    from tilewall.app import flush_access_log
    from tilewall.app import log as access_log

    # the handler of this host (apps of other tests may be running and logging too)
    handler = next(
        h
        for h in access_log.handlers
        if isinstance(h, logging.handlers.RotatingFileHandler)
        and h.baseFilename == str(host.data_dir / "logs" / "api.log")
    )
    monkeypatch.setattr(handler, "maxBytes", 2000)
    for _ in range(40):
        api.get("/system/partneraccess")
    flush_access_log()  # lines are written off the request path
    logs = host.data_dir / "logs"
    assert (logs / "api.log.1").exists()
    assert len(list(logs.glob("api.log*"))) >= 2
    assert len(api.get("/system/apilog").text) <= 2000 + 400


SPEC_SYSTEM_PATHS = {
    "/system": {"get"},
    "/system/license": {"get", "put", "delete"},
    "/system/license/download": {"get"},
    "/system/reboot": {"put"},
    "/system/shutdown": {"put"},
    "/system/manifest": {"get"},
    "/system/apilog": {"get"},
    "/system/vpn": {"get", "put", "delete"},
    "/system/diag": {"get"},
    "/system/installthirdpartypackage": {"get", "post"},
    "/system/submittroubleshootingreport": {"post"},
    "/system/downloadtroubleshootingreport": {"get"},
    "/system/hostname": {"get", "put"},
    "/system/networkinterfaces": {"get", "put"},
    "/system/partneraccess": {"get", "put"},
    "/system/receiverdeviceassignmentsettings": {"get", "put"},
    "/system/timezone": {"get", "put"},
    "/system/mappingdataversion": {"get"},
}


def test_openapi_describes_every_system_operation(api):
    paths = api.get("/openapi.json").json()["paths"]
    for path, methods in SPEC_SYSTEM_PATHS.items():
        assert methods <= set(paths.get("/api" + path, {})), path
    put_licence = paths["/api/system/license"]["put"]
    assert {"400", "403"} <= set(put_licence["responses"])
    assert "forged" in put_licence["description"]
