"""A camera in a preset, in a scheduled event and in the play log, as any other source: a
recalled preset or a scheduled switch tells the displays to take the camera's frames from
the host (``/live/<sourceId>``), and the play log names the camera with what put it
there."""

from typing import Any

from tests.support.app import host_of
from tests.support.http import ok, url
from tests.support.localtime import at, local_ms
from tests.support.sources import RTSP, create_source, source_body
from tests.support.targets import shown_source
from tests.support.topology import make_wall, unique
from tilewall.host.clock import ManualClock

CAMERA_URL = "rtsp://operator:s3cret@camera.example:554/Streaming/Channels/101"


def _camera(api: Any) -> dict[str, Any]:
    return dict(
        ok(api.post("/sources", json=source_body(RTSP, unique("Lobby camera"), URL=CAMERA_URL)))
    )


def _live(camera: dict[str, Any]) -> dict[str, Any]:
    return {"type": "live", "sourceId": camera["sourceId"], "url": f"/live/{camera['sourceId']}"}


def test_a_preset_recalls_a_camera_on_a_wall_zone_and_the_play_log_says_so(api: Any) -> None:
    wall = make_wall(api, unique("Wall"), zones={"Whole": [0, 1, 2, 3]})
    zone = wall.zone_id("Whole")
    camera, slide = _camera(api), create_source(api, name=unique("Slide"))
    ok(api.put(f"/zones/{zone}/switch", params={"destinationSourceId": camera["sourceId"]}))
    preset = ok(api.post("/presets", json={"name": "Watch the lobby"}))
    ok(api.put(f"/zones/{zone}/switch", params={"destinationSourceId": slide["sourceId"]}))
    assert all(shown_source(api, d)["type"] != "live" for d in wall.displays)

    ok(api.put(url("presets", preset["id"], "switch")))
    for display in wall.displays:
        assert _live(camera).items() <= shown_source(api, display).items()
    entries = ok(api.get("/playlog", params={"displayId": wall.displays[0]}))["entries"]
    assert [(e["sourceName"], e["trigger"], e["cause"]) for e in entries][-1] == (
        camera["sourceName"],
        "preset",
        "Watch the lobby",
    )
    assert "s3cret" not in str(entries)


def test_a_scheduled_event_switches_a_display_to_a_camera_and_back(api: Any) -> None:
    ok(api.put("/system/timezone", json={"timezone": "America/New_York"}))
    host_of(api).core.clock = ManualClock(local_ms("2026-03-02T08:00:00"))
    wall = make_wall(api, unique("Wall"), zones={"One": [0]})
    display = wall.displays[0]
    camera, slide = _camera(api), create_source(api, name=unique("Slide"))
    ok(
        api.put(
            url("displays", str(display), "switch"),
            params={"destinationSourceId": slide["sourceId"]},
        )
    )
    event = {
        "name": "Doors open",
        "start": "2026-03-02T09:00:00",
        "durationSeconds": 1800,
        "action": {"kind": "switch", "displayId": display, "sourceId": camera["sourceId"]},
    }
    created = ok(api.post("/schedule", json=event))
    assert created["action"]["sourceName"] == camera["sourceName"]

    at(api, "2026-03-02T08:59:59")
    assert shown_source(api, display)["type"] != "live"
    at(api, "2026-03-02T09:00:00")
    assert _live(camera).items() <= shown_source(api, display).items()
    at(api, "2026-03-02T09:30:00")  # the event's half hour is over: what was before returns
    assert shown_source(api, display)["name"] == slide["sourceName"]

    log = ok(api.get("/playlog", params={"since": "2026-03-02T13:30:00Z", "displayId": display}))
    rows = [
        (e["sourceName"], e["trigger"], e["cause"], e["start"], e["end"]) for e in log["entries"]
    ]
    assert (
        camera["sourceName"],
        "schedule",
        "Doors open",
        "2026-03-02T14:00:00Z",
        "2026-03-02T14:30:00Z",
    ) in rows
