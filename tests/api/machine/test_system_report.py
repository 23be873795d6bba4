"""Troubleshooting reports: the form is kept, the archive holds logs, redacted
configuration, diagnostics and state, and no secrets."""

import io
import json
import tarfile

from tests.support.app import put_setting
from tests.support.app import run as call
from tests.support.licence import code

FORM = {
    "name": "Ana Operator",
    "email": "ana@example.org",
    "catagory": "Display",
    "whatDoing": "switching presets",
    "description": "Display 2 stays black",
    "additionalText": "since Monday",
}


def test_download_is_404_before_any_report(api):
    r = api.get("/system/downloadtroubleshootingreport")
    assert r.status_code == 404 and r.json()["message"]


def test_report_archive_contents_and_no_secrets(signing_key, api, host):
    licence_code = code(signing_key, 4)
    api.put("/system/license", json={"activationCode": licence_code})
    call(api, host.stations.hello, "seat-1", "10.0.0.1", name="Lobby")
    call(api, host.stations.lock, "seat-1")
    # a setting holding a password, as a failover group would (the host's own setting)
    group = {"name": "g", "peer_ip": "192.0.2.1", "password": "hunter2-secret"}
    put_setting(api, "failover_v2", group, own=True)
    session_ids = {c.value for c in api.cookies.jar if c.name == "JSESSIONID" and c.value}
    assert session_ids
    api.get("/system/hostname")

    r = api.post("/system/submittroubleshootingreport", json=FORM)
    assert r.status_code == 200, r.text
    assert r.json()["bytes"] > 0
    download = api.get("/system/downloadtroubleshootingreport")
    assert download.status_code == 200
    assert "attachment" in download.headers["content-disposition"]
    assert download.content[:3] == b"BZh"

    with tarfile.open(fileobj=io.BytesIO(download.content), mode="r:bz2") as archive:
        names = archive.getnames()
        files = {n: archive.extractfile(n).read() for n in names}  # type: ignore[union-attr]
    assert {
        "report.json",
        "configuration.json",
        "diagnostics.json",
        "state.json",
        "logs/api.log",
    } <= set(names)
    report = json.loads(files["report.json"])
    assert report["form"] == FORM
    assert report["system"]["version"] == "1.9"
    assert b'"GET /api/system/hostname" 200' in files["logs/api.log"]
    diag = json.loads(files["diagnostics.json"])
    assert len(diag["results"]) == 22
    state = json.loads(files["state.json"])
    assert [s["seat_id"] for s in state["station"]] == ["seat-1"]
    configuration = json.loads(files["configuration.json"])
    assert configuration["users"] == ["admin"]
    assert configuration["settings"]["failover_v2"]["password"] == "<redacted>"
    assert configuration["settings"]["licence"]["code"] == "<redacted>"
    assert configuration["settings"]["licence"]["number_of_stations"] == 4
    assert configuration["host_management"] is False

    everything = b"\n".join(files.values())
    assert b"$argon2" not in everything  # no password hash
    for session_id in session_ids:  # no session id
        assert session_id.encode() not in everything
    assert b"hunter2-secret" not in everything
    assert licence_code.encode() not in everything
    assert b"PRIVATE KEY" not in everything
    # the form is kept by the host too (in its own settings)
    assert host.member_core.state.settings["troubleshooting_report"]["form"] == FORM


def test_report_form_is_checked(api):
    r = api.post("/system/submittroubleshootingreport", json={**FORM, "email": "not an address"})
    assert r.status_code == 400 and "email" in r.json()["message"]
    r = api.post("/system/submittroubleshootingreport", json={**FORM, "description": 5})
    assert r.status_code == 400
    r = api.post("/system/submittroubleshootingreport", json={**FORM, "description": "x" * 20001})
    assert r.status_code == 400
    assert api.get("/system/downloadtroubleshootingreport").status_code == 404
    # every field may be left out
    assert api.post("/system/submittroubleshootingreport", json={}).status_code == 200
    assert api.get("/system/downloadtroubleshootingreport").status_code == 200


def test_newer_report_replaces_the_older(api):
    api.post("/system/submittroubleshootingreport", json={**FORM, "description": "first"})
    api.post("/system/submittroubleshootingreport", json={**FORM, "description": "second"})
    content = api.get("/system/downloadtroubleshootingreport").content
    with tarfile.open(fileobj=io.BytesIO(content), mode="r:bz2") as archive:
        report = json.loads(archive.extractfile("report.json").read())  # type: ignore[union-attr]
    assert report["form"]["description"] == "second"
