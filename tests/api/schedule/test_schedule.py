"""Scheduled events and the play log over HTTP, as a client uses them."""

import csv
import io
from typing import Any

import pytest

from tests.support.app import host_of
from tests.support.http import error, ok, url
from tests.support.localtime import at, local_ms
from tests.support.sources import WEB, create_source, source_body
from tests.support.topology import locked_display
from tilewall.host.clock import ManualClock


@pytest.fixture
def rig(api: Any) -> dict[str, Any]:
    """New York, a display, sources Idle, Ads and News, a preset; the clock stopped at
    08:00 on Monday 2 March 2026."""
    ok(api.put("/system/timezone", json={"timezone": "America/New_York"}))
    host = host_of(api)
    host.core.clock = ManualClock(local_ms("2026-03-02T08:00:00"))
    display = locked_display(api)
    sources = {n: create_source(api, name=n) for n in ("Idle", "Ads", "News")}
    ok(api.put(url("displays", str(display), "switch"), params={"destinationSourceName": "Idle"}))
    preset = ok(api.post("/presets", json={"name": "Evening"}))
    return {"display": display, "sources": sources, "preset": preset, "host": host}


def switch_event(display: int, **kw: Any) -> dict[str, Any]:
    body = {
        "name": "Morning ads",
        "start": "2026-03-02T09:00:00",
        "durationSeconds": 3600,
        "recurrence": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
        "action": {"kind": "switch", "displayId": display, "sourceName": "Ads"},
    }
    body.update(kw)
    return body


def test_create_read_list_replace_delete(api: Any, rig: dict[str, Any]) -> None:
    created = ok(api.post("/schedule", json=switch_event(rig["display"])))
    assert created["id"]
    assert created["timeZone"] == "America/New_York" and created["followsHostTimeZone"] is True
    assert created["action"] == {
        "kind": "switch",
        "displayId": rig["display"],
        "sourceId": rig["sources"]["Ads"]["sourceId"],
        "sourceName": "Ads",
    }
    assert created["next"] == "2026-03-02T14:00:00Z"
    assert created["running"] is False and created["lastRun"] is None
    assert ok(api.get(f"/schedule/{created['id']}")) == created
    assert [e["id"] for e in ok(api.get("/schedule"))["events"]] == [created["id"]]
    replaced = ok(
        api.put(
            f"/schedule/{created['id']}",
            json=switch_event(
                rig["display"], name="Later", start="2026-03-02T10:00:00", timeZone="Europe/Berlin"
            ),
        )
    )
    assert replaced["name"] == "Later" and replaced["followsHostTimeZone"] is False
    assert replaced["next"] == "2026-03-03T09:00:00Z"  # 10:00 in Berlin; Monday's has passed
    assert ok(api.delete(f"/schedule/{created['id']}"))["message"]
    error(api.get(f"/schedule/{created['id']}"), 404, "not found")
    error(api.delete(f"/schedule/{created['id']}"), 404)


def test_occurrences_in_a_window(api: Any, rig: dict[str, Any]) -> None:
    ok(api.post("/schedule", json=switch_event(rig["display"], exdates=["2026-03-04"])))
    ok(
        api.post(
            "/schedule",
            json={
                "name": "Evening",
                "start": "2026-03-02T18:00:00",
                "recurrence": "FREQ=DAILY",
                "priority": 3,
                "action": {"kind": "recallPreset", "presetName": "Evening"},
            },
        )
    )
    listed = ok(api.get("/schedule", params={"from": "2026-03-02", "to": "2026-03-05T00:00:00"}))
    rows = [
        (o["name"], o["start"], o["localStart"], o["target"]["kind"]) for o in listed["occurrences"]
    ]
    assert rows == [
        ("Morning ads", "2026-03-02T14:00:00Z", "2026-03-02T09:00:00", "display"),
        ("Evening", "2026-03-02T23:00:00Z", "2026-03-02T18:00:00", "preset"),
        ("Morning ads", "2026-03-03T14:00:00Z", "2026-03-03T09:00:00", "display"),
        ("Evening", "2026-03-03T23:00:00Z", "2026-03-03T18:00:00", "preset"),
        ("Evening", "2026-03-04T23:00:00Z", "2026-03-04T18:00:00", "preset"),
    ]
    first = listed["occurrences"][0]
    assert first["end"] == "2026-03-02T15:00:00Z" and first["priority"] == 0
    assert listed["occurrences"][1]["target"] == {
        "kind": "preset",
        "id": rig["preset"]["id"],
        "name": "Evening",
    }
    # with an offset, and from alone (a week)
    week = ok(api.get("/schedule", params={"from": "2026-03-02T00:00:00-05:00"}))
    assert len(week["occurrences"]) == 4 + 7
    assert "occurrences" not in ok(api.get("/schedule"))
    error(api.get("/schedule", params={"from": "2026-03-05", "to": "2026-03-02"}), 400, "to:")
    error(api.get("/schedule", params={"from": "yesterday"}), 400, "from:")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"timeZone": "Mars/Olympus_Mons"}, "timeZone:"),
        ({"start": "next monday"}, "start:"),
        ({"start": "2026-03-02T09:00:00Z"}, "start:"),
        ({"durationSeconds": None, "end": "2026-03-02T08:00:00"}, "end: must be after start"),
        ({"end": "2026-03-02T10:00:00"}, "end: give end or durationSeconds"),
        ({"recurrence": "FREQ=FORTNIGHTLY"}, "recurrence:"),
        ({"recurrence": "FREQ=SECONDLY"}, "recurrence:"),
        ({"exdates": ["someday"]}, "exdates[0]:"),
        ({"name": " "}, "name:"),
        ({"durationSeconds": 0}, "durationSeconds:"),
        ({"action": {"kind": "dance"}}, "action.kind:"),
        ({"action": {"kind": "switch", "sourceName": "Ads"}}, "action: a switch names one target"),
        (
            {"action": {"kind": "switch", "displayId": 999, "sourceName": "Ads"}},
            "action.displayId:",
        ),
        (
            {"action": {"kind": "switch", "zoneName": "Nowhere", "sourceName": "Ads"}},
            "action.zoneName:",
        ),
        (
            {"action": {"kind": "switch", "mirrorgroupId": "x", "sourceName": "Ads"}},
            "action.mirrorgroupId:",
        ),
        ({"action": {"kind": "switch", "displayId": 1}}, "action.sourceName or action.sourceId"),
        (
            {"action": {"kind": "switch", "displayId": 1, "sourceName": "Nope"}},
            "action.sourceName:",
        ),
        ({"action": {"kind": "recallPreset", "presetId": "nope"}}, "action.presetId:"),
        (
            {"action": {"kind": "broadcast", "message": "Hi", "alertLevel": "PINK"}},
            "action.alertLevel:",
        ),
        (
            {
                "durationSeconds": None,
                "action": {"kind": "broadcast", "message": "Hi", "alertLevel": "RED_LEVEL"},
            },
            "action.lengthMillisec:",
        ),
        ({"action": {"kind": "power", "state": "dim"}}, "action.state:"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(
    api: Any, rig: dict[str, Any], change: dict[str, Any], field: str
) -> None:
    body = switch_event(rig["display"])
    body.update(change)
    body = {k: v for k, v in body.items() if v is not None}
    message = error(api.post("/schedule", json=body), 400)
    assert message.startswith(field) or field in message, message
    assert ok(api.get("/schedule"))["events"] == []


def test_a_body_of_the_wrong_shape_is_a_400(api: Any, rig: dict[str, Any]) -> None:
    error(api.post("/schedule", json={"name": "x"}), 400, "start")
    error(
        api.post("/schedule", json=switch_event(rig["display"], priority="high")), 400, "priority"
    )


def test_deleting_a_preset_source_or_zone_an_event_names_is_a_409(
    api: Any, rig: dict[str, Any]
) -> None:
    event = ok(
        api.post(
            "/schedule",
            json={
                "name": "Evening recall",
                "start": "2026-03-02T18:00:00",
                "action": {"kind": "recallPreset", "presetId": rig["preset"]["id"]},
            },
        )
    )
    ok(api.post("/schedule", json=switch_event(rig["display"])))
    error(api.delete(url("presets", rig["preset"]["id"])), 409, "Evening recall")
    error(api.delete(url("sources", rig["sources"]["Ads"]["sourceId"])), 409, "Morning ads")
    # renaming is followed: events hold ids
    renamed = source_body(WEB, "Adverts", URL="https://example.org/ads")
    ok(api.put(url("sources", rig["sources"]["Ads"]["sourceId"]), json=renamed))
    listed = ok(api.get("/schedule"))["events"]
    assert {e["action"].get("sourceName") for e in listed} == {None, "Adverts"}
    ok(api.delete(f"/schedule/{event['id']}"))
    ok(api.delete(url("presets", rig["preset"]["id"])))


def test_an_event_switches_on_time_and_the_play_log_says_so(api: Any, rig: dict[str, Any]) -> None:
    display = rig["display"]
    ok(api.post("/schedule", json=switch_event(display)))
    at(api, "2026-03-02T08:59:59")
    assert (
        host_of(api).state.displays[display].timeline.assigned_source_id
        == rig["sources"]["Idle"]["sourceId"]
    )
    at(api, "2026-03-02T09:00:00")
    assert (
        host_of(api).state.displays[display].timeline.assigned_source_id
        == rig["sources"]["Ads"]["sourceId"]
    )
    event = ok(api.get("/schedule"))["events"][0]
    assert event["running"] is True and event["lastRun"]["result"] == "applied"
    at(api, "2026-03-02T09:10:00")
    ok(api.put(url("presets", rig["preset"]["id"], "switch")))
    at(api, "2026-03-02T09:20:00")
    ok(
        api.put(
            url("displays", str(display), "switch"),
            params={"destinationSourceName": "News"},
            headers={"X-Tilewall-Client": "console"},
        )
    )
    at(api, "2026-03-02T10:00:00")  # the operator's News stays: it changed since
    log = ok(api.get("/playlog", params={"since": "2026-03-02T13:30:00Z", "displayId": display}))
    rows = [
        (e["sourceName"], e["trigger"], e["cause"], e["start"], e["end"]) for e in log["entries"]
    ]
    assert rows == [
        ("Idle", "api", "", "2026-03-02T13:00:00Z", "2026-03-02T14:00:00Z"),
        ("Ads", "schedule", "Morning ads", "2026-03-02T14:00:00Z", "2026-03-02T14:10:00Z"),
        ("Idle", "preset", "Evening", "2026-03-02T14:10:00Z", "2026-03-02T14:20:00Z"),
        ("News", "console", "", "2026-03-02T14:20:00Z", None),
    ]
    assert log["entries"][1]["durationSeconds"] == 600
    # a window, local times, and the CSV of the same
    window = {"since": "2026-03-02T09:05:00", "until": "2026-03-02T09:15:00"}
    entries = ok(api.get("/playlog", params=window))["entries"]
    assert [e["sourceName"] for e in entries] == ["Ads", "Idle"]
    response = api.get("/playlog.csv", params=window)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    table = list(csv.DictReader(io.StringIO(response.text)))
    assert [(r["sourceName"], r["trigger"], r["durationSeconds"]) for r in table] == [
        ("Ads", "schedule", "600"),
        ("Idle", "preset", "600"),
    ]
    error(api.get("/playlog", params={"since": "soon"}), 400, "since:")


def test_retention_is_a_setting(api: Any, rig: dict[str, Any]) -> None:
    assert ok(api.get("/playlog/settings")) == {"retentionDays": 90}
    assert ok(api.put("/playlog/settings", json={"retentionDays": 30})) == {"retentionDays": 30}
    assert ok(api.get("/playlog/settings")) == {"retentionDays": 30}
    error(api.put("/playlog/settings", json={"retentionDays": 0}), 400, "retentionDays")


def test_the_openapi_document_marks_them_as_extensions(api: Any) -> None:
    paths = ok(api.get("/openapi.json"))["paths"]
    for path, methods in (
        ("/api/schedule", ("get", "post")),
        ("/api/schedule/{eventId}", ("get", "put", "delete")),
        ("/api/playlog", ("get",)),
        ("/api/playlog.csv", ("get",)),
        ("/api/playlog/settings", ("get", "put")),
    ):
        for method in methods:
            assert paths[path][method].get("x-tilewall-extension") is True, (path, method)


def test_an_event_follows_the_hosts_time_zone_when_it_changes(
    api: Any, rig: dict[str, Any]
) -> None:
    follows = ok(api.post("/schedule", json=switch_event(rig["display"])))
    pinned = ok(
        api.post("/schedule", json=switch_event(rig["display"], timeZone="America/New_York"))
    )
    assert follows["next"] == pinned["next"] == "2026-03-02T14:00:00Z"
    ok(api.put("/system/timezone", json={"timezone": "Asia/Tokyo"}))
    moved = ok(api.get(f"/schedule/{follows['id']}"))
    assert moved["timeZone"] == "Asia/Tokyo" and moved["followsHostTimeZone"] is True
    assert moved["next"] == "2026-03-03T00:00:00Z"  # 09:00 on Tuesday in Tokyo
    assert ok(api.get(f"/schedule/{pinned['id']}"))["next"] == "2026-03-02T14:00:00Z"
    at(api, "2026-03-02T19:00:00")  # 09:00 on Tuesday in Tokyo
    host = host_of(api)
    ads = rig["sources"]["Ads"]["sourceId"]
    assert host.state.displays[rig["display"]].timeline.assigned_source_id == ads
