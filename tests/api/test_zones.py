"""Zones: every operation by name and by id, short and full shapes, and the
create/update/delete extensions with their membership rules."""

import pytest

from tests.helpers import (
    WEB,
    CrudMixin,
    create_source,
    error,
    locked_display,
    make_wall,
    media_root,
    needs_ffmpeg,
    ok,
    signage_source,
    url,
    write_mp4,
    write_png,
)

SHORT = {"zoneId", "zoneName", "isPlaying", "playingSourceId", "videowallId"}
FULL = SHORT | {"isShowingWelcomeScreen", "controlDisplayId", "zoneDisplays"}
FORMS = ["byname", "byid"]


@pytest.fixture
def wall(api):
    return make_wall(api, "Main wall", zones={"North zone": [0, 1], "Zone süd": [2, 3]})


@pytest.fixture
def web(api):
    return create_source(api, WEB, "Page one")


def zpath(wall, form, name="North zone", suffix=""):
    base = url("zones", "byname", name) if form == "byname" else url("zones", wall.zone_id(name))
    return base + (f"/{suffix}" if suffix else "")


def full(api, wall, name="North zone"):
    return ok(api.get(url("zones", wall.zone_id(name))))


# reading


@pytest.mark.parametrize("form", FORMS)
def test_get_full_shape(api, wall, form):
    body = ok(api.get(zpath(wall, form)))
    assert set(body) == FULL
    assert body["zoneName"] == "North zone"
    assert body["zoneId"] == wall.zone_id("North zone")
    assert body["videowallId"] == wall.id
    assert body["isPlaying"] is False
    assert body["playingSourceId"] == ""
    assert body["controlDisplayId"] in wall.displays[:2]
    selected = {d["displayId"] for d in body["zoneDisplays"] if d["isSelected"]}
    assert selected == set(wall.displays[:2])
    for d in body["zoneDisplays"]:
        assert set(d) == {"displayId", "isSelected"}


@pytest.mark.parametrize("form", FORMS)
def test_get_unknown_404(api, wall, form):
    path = "/zones/byname/Nowhere" if form == "byname" else "/zones/nowhere"
    error(api.get(path), 404, "not found")


def test_by_name_and_by_id_agree(api, wall):
    assert ok(api.get(zpath(wall, "byname", "Zone süd"))) == ok(
        api.get(zpath(wall, "byid", "Zone süd"))
    )


def test_list_and_by_video_wall(api, wall):
    zones = ok(api.get("/zones"))["zones"]
    assert {z["zoneName"] for z in zones} == {"North zone", "Zone süd"}
    assert all(set(z) == FULL for z in zones)
    other = make_wall(api, "Second wall", zones={"Solo": [0, 1, 2, 3]})
    by_wall = ok(api.get(url("zones", "byvideowallid", other.id)))["zones"]
    assert [z["zoneName"] for z in by_wall] == ["Solo"]
    assert len(ok(api.get("/zones"))["zones"]) == 3
    error(api.get("/zones/byvideowallid/nope"), 404)


# switch and play control


@pytest.mark.parametrize("form", FORMS)
def test_switch_short_shape(api, wall, web, form):
    body = ok(
        api.put(zpath(wall, form, suffix="switch"), params={"destinationSourceId": web["sourceId"]})
    )
    assert set(body) == SHORT
    assert body["isPlaying"] is True
    assert body["playingSourceId"] == web["sourceId"]
    # every display of the zone shows it, the other zone does not
    for display in wall.displays[:2]:
        assert ok(api.get(f"/displays/{display}"))["playingSourceId"] == web["sourceId"]
    assert full(api, wall, "Zone süd")["playingSourceId"] == ""


@pytest.mark.parametrize("form", FORMS)
def test_switch_by_source_name_and_body(api, wall, web, form):
    body = ok(
        api.put(zpath(wall, form, suffix="switch"), params={"destinationSourceName": "Page one"})
    )
    assert body["playingSourceId"] == web["sourceId"]
    other = create_source(api, WEB, "Page two")
    body = ok(api.put(zpath(wall, form, suffix="switch"), json={"sourceId": other["sourceId"]}))
    assert body["playingSourceId"] == other["sourceId"]


@pytest.mark.parametrize(
    ("form", "named"), [("byname", "destinationSourceName"), ("byid", "destinationSourceId")]
)
def test_switch_without_destination_400_names_parameter(api, wall, form, named):
    error(api.put(zpath(wall, form, suffix="switch")), 400, named)


@pytest.mark.parametrize("form", FORMS)
def test_switch_404s(api, wall, web, form):
    error(api.put(zpath(wall, form, suffix="switch"), params={"destinationSourceId": "nope"}), 404)
    missing = "/zones/byname/Nowhere/switch" if form == "byname" else "/zones/nowhere/switch"
    error(api.put(missing, params={"destinationSourceId": web["sourceId"]}), 404)


@pytest.mark.parametrize("form", FORMS)
def test_switch_welcome_screen(api, wall, web, form):
    ok(
        api.put(
            zpath(wall, form, suffix="switch"),
            params={"destinationSourceId": web["sourceId"], "isShowWelcomeScreen": "true"},
        )
    )
    body = full(api, wall)
    assert body["isShowingWelcomeScreen"] is True
    assert body["isPlaying"] is False


@pytest.mark.parametrize("form", FORMS)
def test_pause_resume_stop_play(api, wall, web, form):
    ok(api.put(zpath(wall, form, suffix="switch"), params={"destinationSourceId": web["sourceId"]}))
    body = ok(api.put(zpath(wall, form, suffix="pause")))
    assert set(body) == SHORT and body["isPlaying"] is False
    body = ok(api.put(zpath(wall, form, suffix="resume")))
    assert set(body) == SHORT and body["isPlaying"] is True
    body = ok(api.put(zpath(wall, form, suffix="stop")))
    assert set(body) == SHORT and body["isPlaying"] is False and body["playingSourceId"] == ""
    body = ok(api.put(zpath(wall, form, suffix="play")))
    assert set(body) == SHORT and body["isPlaying"] is True
    assert body["playingSourceId"] == web["sourceId"]


@pytest.mark.parametrize(
    ("form", "suffix"), [("byname", "playAssignedSource"), ("byid", "playAssignedProfile")]
)
def test_earlier_style_play_assigned(api, wall, web, form, suffix):
    ok(api.put(zpath(wall, form, suffix="switch"), params={"destinationSourceId": web["sourceId"]}))
    ok(api.put(zpath(wall, form, suffix="stop")))
    body = ok(api.put(zpath(wall, form, suffix=suffix)))
    assert set(body) == SHORT
    assert body["isPlaying"] is True
    assert body["playingSourceId"] == web["sourceId"]


@pytest.mark.parametrize("form", FORMS)
def test_play_without_assigned_source_409(api, wall, form):
    error(api.put(zpath(wall, form, suffix="play")), 409)


@pytest.mark.parametrize("form", FORMS)
def test_operations_on_unknown_zone_404(api, wall, form):
    base = "/zones/byname/Nowhere" if form == "byname" else "/zones/nowhere"
    for suffix, body in [
        ("play", None),
        ("stop", None),
        ("pause", None),
        ("resume", None),
        ("seek", {"time": 0}),
        ("forward", {"time": 0}),
        ("rewind", {"time": 0}),
        ("playVideoList", {"videolist": ["a.png"]}),
    ]:
        error(api.put(f"{base}/{suffix}", json=body), 404)
    error(api.get(f"{base}/mediainfo"), 404)


@needs_ffmpeg
@pytest.mark.parametrize("form", FORMS)
def test_signage_seek_forward_rewind_mediainfo(api, wall, form):
    root = media_root(api)
    write_png(root, "z/a.png")
    write_mp4(root, "z/b.mp4", seconds=3)
    source = signage_source(api, "Zone slides", "z/a.png", "z/b.mp4", interval=6)
    ok(
        api.put(
            zpath(wall, form, suffix="switch"), params={"destinationSourceId": source["sourceId"]}
        )
    )
    ok(api.put(zpath(wall, form, suffix="pause")))
    body = ok(api.put(zpath(wall, form, suffix="seek"), json={"time": 7000}))
    assert body == {
        "filename": "z/b.mp4",
        "totalDurationInMillliseconds": 3000,
        "currentTimeInMilliseconds": 1000,
    }
    body = ok(api.put(zpath(wall, form, suffix="rewind"), json={"time": 2000}))
    assert body["filename"] == "z/a.png" and body["currentTimeInMilliseconds"] == 5000
    body = ok(api.put(zpath(wall, form, suffix="forward"), json={"time": 1500}))
    assert body["filename"] == "z/b.mp4" and body["currentTimeInMilliseconds"] == 500
    assert ok(api.get(zpath(wall, form, suffix="mediainfo"))) == body
    # every tile of the zone reports the same
    for display in wall.displays[:2]:
        assert ok(api.get(f"/displays/{display}/mediainfo")) == body


@pytest.mark.parametrize("form", FORMS)
def test_play_video_list_short_shape(api, wall, form):
    write_png(media_root(api), "one.png")
    body = ok(
        api.put(
            zpath(wall, form, suffix="playVideoList"),
            json={"videolist": ["one.png"], "repeat": True, "slideshowInterval": 5},
        )
    )
    assert set(body) == SHORT
    assert body["isPlaying"] is True
    assert ok(api.get(zpath(wall, form, suffix="mediainfo")))["filename"] == "one.png"


# rename


def test_rename(api, wall, web):
    zone_id = wall.zone_id("North zone")
    body = ok(
        api.put(
            url("zones", "byname", "North zone", "rename"),
            params={"newZoneName": "Nord – Zone 1 ✓"},
        )
    )
    assert set(body) == SHORT
    assert body["zoneName"] == "Nord – Zone 1 ✓" and body["zoneId"] == zone_id
    error(api.get(url("zones", "byname", "North zone")), 404)
    assert ok(api.get(url("zones", "byname", "Nord – Zone 1 ✓")))["zoneId"] == zone_id


def test_zone_name_with_slash_refused(api, wall):
    # names are addressed in URL paths, where '/' cannot round-trip
    error(
        api.put(url("zones", "byname", "North zone", "rename"), params={"newZoneName": "A/B"}),
        400,
        "/",
    )
    assert ok(api.get(url("zones", "byname", "North zone")))["zoneName"] == "North zone"


def test_rename_needs_new_name_400(api, wall):
    error(api.put(url("zones", "byname", "North zone", "rename")), 400, "newZoneName")
    error(
        api.put(url("zones", "byname", "North zone", "rename"), params={"newZoneName": " "}),
        400,
        "newZoneName",
    )


def test_rename_to_taken_name_409(api, wall):
    error(
        api.put(url("zones", "byname", "North zone", "rename"), params={"newZoneName": "Zone süd"}),
        409,
    )
    assert ok(api.get(url("zones", "byname", "North zone")))


def test_rename_unknown_404(api, wall):
    error(api.put(url("zones", "byname", "Nowhere", "rename"), params={"newZoneName": "x"}), 404)


# extensions: create, update, delete


class TestZoneCrud(CrudMixin):
    collection = "/zones"
    list_key = "zones"
    id_field = "zoneId"
    name_field = "zoneName"

    def create_body(self, client, name):
        if not hasattr(client, "_test_wall"):
            client._test_wall = make_wall(client, "CRUD wall", zones={})
        return {"zoneName": name, "videowallId": client._test_wall.id, "displayIds": []}


def test_create_zone_with_control_display(api):
    wall = make_wall(api, zones={})
    body = ok(
        api.post(
            "/zones",
            json={
                "zoneName": "Z",
                "videowallId": wall.id,
                "displayIds": wall.displays[:2],
                "controlDisplayId": wall.displays[1],
            },
        )
    )
    assert set(body) == FULL
    assert body["controlDisplayId"] == wall.displays[1]


def test_create_zone_rules(api, wall):
    stranger = locked_display(api)
    # a display that is not on the wall
    error(
        api.post(
            "/zones", json={"zoneName": "Z", "videowallId": wall.id, "displayIds": [stranger]}
        ),
        400,
        str(stranger),
    )
    # a display already in a zone
    error(
        api.post(
            "/zones",
            json={"zoneName": "Z", "videowallId": wall.id, "displayIds": [wall.displays[0]]},
        ),
        409,
        "North zone",
    )
    # unknown wall
    error(api.post("/zones", json={"zoneName": "Z", "videowallId": "nope", "displayIds": []}), 404)
    # control display outside the zone
    ok(api.delete(url("zones", wall.zone_id("Zone süd"))))
    error(
        api.post(
            "/zones",
            json={
                "zoneName": "Z",
                "videowallId": wall.id,
                "displayIds": [wall.displays[2]],
                "controlDisplayId": wall.displays[3],
            },
        ),
        400,
        "controlDisplayId",
    )
    assert {z["zoneName"] for z in ok(api.get("/zones"))["zones"]} == {"North zone"}


def test_update_zone_displays(api, wall):
    zone_id = wall.zone_id("North zone")
    body = ok(api.put(url("zones", zone_id), json={"displayIds": [wall.displays[0]]}))
    assert [d["displayId"] for d in body["zoneDisplays"] if d["isSelected"]] == [wall.displays[0]]
    types = {d["displayId"]: d["stationType"] for d in ok(api.get("/displays"))["displays"]}
    assert types[wall.displays[1]] == "VIDEOWALL_ZONE_INACTIVE"
    error(api.put(url("zones", zone_id), json={"displayIds": [wall.displays[2]]}), 409)
    body = ok(api.put(url("zones", zone_id), json={"zoneName": "Renamed"}))
    assert body["zoneName"] == "Renamed"
    error(api.put("/zones/nope", json={"zoneName": "x"}), 404)


def test_delete_zone_makes_displays_inactive(api, wall):
    ok(api.delete(url("zones", wall.zone_id("North zone"))))
    types = {d["displayId"]: d["stationType"] for d in ok(api.get("/displays"))["displays"]}
    assert types[wall.displays[0]] == "VIDEOWALL_ZONE_INACTIVE"
    assert types[wall.displays[2]] == "VIDEOWALL"
    # a display freed by the delete may join the other zone
    ok(
        api.put(
            url("zones", wall.zone_id("Zone süd")),
            json={"displayIds": [wall.displays[2], wall.displays[3], wall.displays[0]]},
        )
    )
