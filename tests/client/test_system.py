"""/system, failover groups, print profiles and serial commands, through the client.
Host management is off in tests: machine changes are kept by tilewall, not applied."""

from __future__ import annotations

from datetime import date, timedelta

from tests.client.conftest import SIGNING_KEY, refused
from tilewall.client import Client
from tilewall.host.licence.codes import LicenceTerms, issue


def code(stations: int | None = 10) -> str:
    expires = (date.today() + timedelta(days=365)).isoformat()
    terms = LicenceTerms("AV Partners", stations, date.today().isoformat(), expires)
    return issue(SIGNING_KEY, terms)


def test_host_facts_and_software(client: Client) -> None:
    info = client.system.info()
    assert info["version"] == "1.9" and info["networkStations"] >= 7
    assert client.system.mapping_data_version() == "-1"
    assert all({"name", "version"} <= set(p) for p in client.system.manifest())
    assert {r["id"] for r in client.system.diagnostics()} >= {"LICENSE", "CPU_CORES"}
    assert "GET /api/system" in client.system.api_log()
    catalogue = client.system.packages()
    assert catalogue and {"name", "groupName", "installed"} <= set(catalogue[0])
    installed = client.system.install_packages([catalogue[0]["name"]])
    assert {p["name"] for p in installed} == {p["name"] for p in catalogue}
    refused(lambda: client.system.install_packages(["no-such-package"]), 400)
    refused(lambda: client.system.install_packages([]), 400)


def test_licence(client: Client) -> None:
    refused(client.system.license, 404)
    refused(client.system.download_license, 404)
    refused(client.system.delete_license, 404)
    refused(lambda: client.system.set_license("not a code"), 400)
    licence = client.system.set_license(code(10), 8)
    assert licence["numberOfStations"] == 8 and licence["resellerName"] == "AV Partners"
    assert client.system.license()["numberOfStations"] == 8
    backup = client.system.download_license()
    assert "TW1." in backup
    refused(lambda: client.system.set_license(code(10), 2), 409)
    removed = client.system.delete_license()
    assert removed["license"]["numberOfStations"] == 8
    assert client.system.set_license(backup)["numberOfStations"] == 8
    client.system.delete_license()


def test_power_reports_and_remote_control(client: Client) -> None:
    assert client.system.reboot()["performed"] is False
    assert client.system.shutdown()["action"]
    refused(client.system.download_report, 404)
    report = client.system.submit_report(
        name="Ops", email="ops@example.org", category="display", description="flicker"
    )
    assert report["bytes"] > 0
    assert client.system.download_report().startswith(b"BZh")
    assert client.system.start_vpn()["running"] is True
    assert client.system.vpn()["running"] is True
    assert client.system.stop_vpn()["running"] is False


def test_machine_settings(client: Client) -> None:
    assert client.system.set_hostname("wall-host")["hostName"] == "wall-host"
    assert client.system.hostname()["hostName"] == "wall-host"
    refused(lambda: client.system.set_hostname("not a host name!"), 400)
    zone = client.system.set_timezone("Asia/Kolkata")["currentTimeZone"]
    assert zone == {"timezone": "Asia/Kolkata", "offset": 330}
    assert "Europe/Berlin" in client.system.timezone()["availableTimeZones"]
    refused(lambda: client.system.set_timezone("Mars/Olympus"), 400)
    interfaces = client.system.network_interfaces()
    assert interfaces
    refused(lambda: client.system.set_network_interface({"id": "nic-that-is-not"}), 400)
    client.system.set_network_interface({**interfaces[0], "usesDHCP": True})
    assert client.system.set_partner_access(False) == {"partnerAccess": False}
    assert client.system.partner_access() == {"partnerAccess": False}
    changed = client.system.set_receiver_assignment(auto_assign=True)
    assert changed["autoAssign"] is True
    assert client.system.receiver_assignment() == changed
    assert client.system.set_receiver_assignment(auto_inherit=True)["autoAssign"] is True


def test_over_every_display(client: Client) -> None:
    shown = client.system.start_broadcast("Fire drill at noon", "RED_LEVEL", 30_000)
    assert shown["isDisplayed"] and shown["alertLevel"] == "RED_LEVEL"
    assert client.system.broadcast()["message"] == "Fire drill at noon"
    assert client.system.stop_broadcast()["isDisplayed"] is False
    refused(lambda: client.system.start_broadcast("x", "PURPLE_LEVEL"), 400)  # type: ignore[arg-type]
    assert client.system.show_display_ids()["allDisplays"] is True
    assert client.system.hide_display_ids()["allDisplays"] is False
    assert client.system.show_display_ids(2)["displayIds"] == [2]
    assert client.system.hide_display_ids(2)["displayIds"] == []
    refused(lambda: client.system.show_display_ids(99), 404)
    assert client.system.dpms_off(3)["displaysOff"] == [3]
    assert client.system.dpms_on(3)["displaysOff"] == []
    assert client.system.dpms_off()["allDisplaysOff"] is True
    assert client.system.dpms_on()["allDisplaysOff"] is False
    refused(lambda: client.system.dpms_off(99), 404)


def test_failover_groups(client: Client) -> None:
    refused(client.failover.get_v1, 404, "not in a failover group")
    refused(client.failover.leave_v1, 404)
    # the members of a group share one PostgreSQL database (tests/system/hostgroup); this host is
    # on SQLite, so it cannot join one
    refused(lambda: client.failover.join_v1("lobby", {"standby": "SYS-OTHER"}), 409, "database")
    refused(lambda: client.failover.join_v1("", {"standby": "X"}), 400, "groupname")
    assert client.system.mapping_data_version() == "-1"

    refused(client.failover.get_v2, 404)
    refused(lambda: client.failover.join_v2("atrium", "192.0.2.20", "s3cret"), 409, "database")
    refused(client.failover.leave_v2, 404)

    settings = client.failover.set_network(auto_discover_peer=False, peer_ip="192.0.2.30")
    assert settings["peerIP"] == "192.0.2.30" and settings["autoDiscoverPeer"] is False
    assert client.failover.network()["peerIP"] == "192.0.2.30"
    refused(lambda: client.failover.set_network(peer_ip="not an address"), 400)


def test_print_profiles(client: Client) -> None:
    saved = client.printprofiles.save({"queueName": "lab", "isGlobal": True, "costPerPage": 0.1})
    assert saved[0]["queueName"] == "lab" and saved[0]["cost_per_page"] == 0.1
    both = client.printprofiles.save([{"queueName": "office"}, {"queueName": "lab"}])
    assert [p["queueName"] for p in both] == ["office", "lab"]
    assert {p["queueName"] for p in client.printprofiles.list()} == {"lab", "office"}
    assert (
        client.printprofiles.get("lab")["showDialog"]
        == client.printprofiles.get("lab")["print_dialog"]
    )
    assert client.printprofiles.delete("office")["message"]
    refused(lambda: client.printprofiles.get("office"), 404, "does not exist")
    refused(lambda: client.printprofiles.delete("office"), 404)
    refused(lambda: client.printprofiles.save({"queueName": ""}), 400)


def test_serial(client: Client) -> None:
    assert client.serial.port("demo-1") == {"port": ""}
    assert client.serial.set_port("demo-1", "loop://") == {"port": "loop://"}
    assert client.serial.port("demo-1")["port"] == "loop://"
    record = client.serial.send("demo-1", b"\x02PWR ON\x03", parity="EVEN", stop_bits=1.5)
    assert record["delivered"] is True, record
    assert record["serialSettings"] == {
        "baudRate": 9600,
        "dataBits": 8,
        "parity": "E",
        "stopBits": 1.5,
    }
    assert client.serial.history("demo-1") == [record]
    refused(lambda: client.serial.send("demo-1", b"x", baud_rate=0), 400, "baudRate")
    refused(lambda: client.serial.send("nobody", b"x"), 404, "nobody")
    refused(lambda: client.serial.history("nobody"), 404)
    refused(lambda: client.serial.port("nobody"), 404)
    refused(lambda: client.serial.set_port("nobody", "loop://"), 404)
