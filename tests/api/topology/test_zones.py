"""Zones: reading them by name and by id in their short and full shapes, renaming, and
the create/update/delete extensions with their membership rules. Their playback
operations are tested with every target's (test_playback.py)."""

from dataclasses import dataclass

import pytest

from tests.support.app import SharedApp
from tests.support.http import error, ok, url
from tests.support.mixins import ByNameMixin, FullCrudMixin, NamesInPathsMixin
from tests.support.sources import WEB, create_source
from tests.support.targets import ZONE_FIELDS as SHORT
from tests.support.topology import Wall, locked_display, make_wall, unique

FULL = SHORT | {"isShowingWelcomeScreen", "controlDisplayId", "zoneDisplays"}
FORMS = ["byname", "byid"]


class TestZoneCrud(SharedApp, FullCrudMixin, ByNameMixin, NamesInPathsMixin):
    collection = "/zones"
    list_key = "zones"
    id_field = "zoneId"
    name_field = "zoneName"
    by_name = "/zones/byname"

    def valid_body(self, api, name):
        wall = make_wall(api, unique("CRUD wall"), zones={}, count=2)
        return {"zoneName": name, "videowallId": wall.id, "displayIds": wall.displays}

    def invalid_bodies(self, api):
        wall = make_wall(api, unique("CRUD wall"), zones={}, count=2)
        return [
            ({"zoneName": "Z", "videowallId": "nope", "displayIds": []}, 404, ()),
            ({"zoneName": "Z", "videowallId": wall.id, "displayIds": [999]}, 400, ("999",)),
            ({"zoneName": "Z", "displayIds": []}, 400, ("videowallId",)),
        ]

    def update_body(self, api, created, name):
        return {"zoneName": name}

    def test_create_answers_the_full_shape(self, api):
        body = self.create(api)
        assert set(body) == FULL
        assert [d["displayId"] for d in body["zoneDisplays"] if d["isSelected"]]

    def test_rename(self, api):
        wall = make_wall(api, unique("Rename wall"), zones={unique("North zone"): [0, 1]})
        [(name, zone)] = wall.zones.items()
        new_name = unique("Nord – Zone 1 ✓")
        body = ok(api.put(url("zones", "byname", name, "rename"), params={"newZoneName": new_name}))
        assert set(body) == SHORT
        assert body["zoneName"] == new_name and body["zoneId"] == zone["zoneId"]
        error(api.get(url("zones", "byname", name)), 404)
        assert ok(api.get(url("zones", "byname", new_name)))["zoneId"] == zone["zoneId"]

    def test_rename_refusals(self, api):
        wall = make_wall(
            api, unique("Rename wall"), zones={unique("A zone"): [0], unique("B zone"): [1]}
        )
        name, other = wall.zones
        rename = url("zones", "byname", name, "rename")
        # names are addressed in URL paths, where '/' cannot round-trip
        error(api.put(rename, params={"newZoneName": "A/B"}), 400, "/")
        error(api.put(rename), 400, "newZoneName")
        error(api.put(rename, params={"newZoneName": " "}), 400, "newZoneName")
        error(api.put(rename, params={"newZoneName": other}), 409)
        assert ok(api.get(url("zones", "byname", name)))["zoneName"] == name
        error(
            api.put(url("zones", "byname", "Nowhere", "rename"), params={"newZoneName": "x"}), 404
        )


@dataclass
class TwoZones(Wall):
    """A wall of two zones, by their names."""

    north: str = ""
    south: str = ""


class TestZones(SharedApp):
    @pytest.fixture
    def wall(self, api):
        """A 2x2 wall: zone ``north`` of positions 0 and 1, zone ``south`` of 2 and 3."""
        north, south = unique("North zone"), unique("Zone süd")
        wall = make_wall(api, unique("Main wall"), zones={north: [0, 1], south: [2, 3]})
        return TwoZones(wall.id, wall.name, wall.displays, wall.zones, north, south)

    @pytest.mark.parametrize("form", FORMS)
    def test_get_full_shape(self, api, wall, form):
        body = ok(api.get(zpath(wall, form, wall.north)))
        assert set(body) == FULL
        assert body["zoneName"] == wall.north
        assert body["zoneId"] == wall.zone_id(wall.north)
        assert body["videowallId"] == wall.id
        assert body["isPlaying"] is False
        assert body["playingSourceId"] == ""
        assert body["controlDisplayId"] in wall.displays[:2]
        selected = {d["displayId"] for d in body["zoneDisplays"] if d["isSelected"]}
        assert selected == set(wall.displays[:2])
        for d in body["zoneDisplays"]:
            assert set(d) == {"displayId", "isSelected"}

    def test_by_name_and_by_id_agree(self, api, wall):
        assert ok(api.get(zpath(wall, "byname", wall.south))) == ok(
            api.get(zpath(wall, "byid", wall.south))
        )

    def test_list_and_by_video_wall(self, api, wall):
        zones = ok(api.get("/zones"))["zones"]
        assert {z["zoneName"] for z in zones} >= {wall.north, wall.south}
        assert all(set(z) == FULL for z in zones)
        mine = ok(api.get(url("zones", "byvideowallid", wall.id)))["zones"]
        assert {z["zoneName"] for z in mine} == {wall.north, wall.south}
        solo = unique("Solo")
        other = make_wall(api, unique("Second wall"), zones={solo: [0, 1, 2, 3]})
        by_wall = ok(api.get(url("zones", "byvideowallid", other.id)))["zones"]
        assert [z["zoneName"] for z in by_wall] == [solo]
        assert len(ok(api.get("/zones"))["zones"]) == len(zones) + 1
        error(api.get("/zones/byvideowallid/nope"), 404)

    @pytest.mark.parametrize(
        ("form", "suffix"), [("byname", "playAssignedSource"), ("byid", "playAssignedProfile")]
    )
    def test_earlier_style_play_assigned(self, api, wall, form, suffix):
        web = create_source(api, WEB, unique("Page one"))
        switch = {"destinationSourceId": web["sourceId"]}
        ok(api.put(zpath(wall, form, wall.north, "switch"), params=switch))
        ok(api.put(zpath(wall, form, wall.north, "stop")))
        body = ok(api.put(zpath(wall, form, wall.north, suffix)))
        assert set(body) == SHORT
        assert body["isPlaying"] is True
        assert body["playingSourceId"] == web["sourceId"]

    def test_create_zone_with_control_display(self, api):
        wall = make_wall(api, unique("Lobby wall"), zones={})
        body = ok(
            api.post(
                "/zones",
                json={
                    "zoneName": unique("Z"),
                    "videowallId": wall.id,
                    "displayIds": wall.displays[:2],
                    "controlDisplayId": wall.displays[1],
                },
            )
        )
        assert set(body) == FULL
        assert body["controlDisplayId"] == wall.displays[1]

    def test_create_zone_rules(self, api, wall):
        stranger = locked_display(api)
        name = unique("Z")
        # a display that is not on the wall
        error(
            api.post(
                "/zones", json={"zoneName": name, "videowallId": wall.id, "displayIds": [stranger]}
            ),
            400,
            str(stranger),
        )
        # a display already in a zone
        error(
            api.post(
                "/zones",
                json={"zoneName": name, "videowallId": wall.id, "displayIds": [wall.displays[0]]},
            ),
            409,
            wall.north,
        )
        # unknown wall
        error(
            api.post("/zones", json={"zoneName": name, "videowallId": "nope", "displayIds": []}),
            404,
        )
        # control display outside the zone
        ok(api.delete(url("zones", wall.zone_id(wall.south))))
        error(
            api.post(
                "/zones",
                json={
                    "zoneName": name,
                    "videowallId": wall.id,
                    "displayIds": [wall.displays[2]],
                    "controlDisplayId": wall.displays[3],
                },
            ),
            400,
            "controlDisplayId",
        )
        mine = ok(api.get(url("zones", "byvideowallid", wall.id)))["zones"]
        assert {z["zoneName"] for z in mine} == {wall.north}
        error(api.get(url("zones", "byname", name)), 404)

    def test_update_zone_displays(self, api, wall):
        zone_id = wall.zone_id(wall.north)
        body = ok(api.put(url("zones", zone_id), json={"displayIds": [wall.displays[0]]}))
        assert [d["displayId"] for d in body["zoneDisplays"] if d["isSelected"]] == [
            wall.displays[0]
        ]
        types = {d["displayId"]: d["stationType"] for d in ok(api.get("/displays"))["displays"]}
        assert types[wall.displays[1]] == "VIDEOWALL_ZONE_INACTIVE"
        error(api.put(url("zones", zone_id), json={"displayIds": [wall.displays[2]]}), 409)
        renamed = unique("Renamed")
        body = ok(api.put(url("zones", zone_id), json={"zoneName": renamed}))
        assert body["zoneName"] == renamed
        error(api.put("/zones/nope", json={"zoneName": "x"}), 404)

    def test_delete_zone_makes_displays_inactive(self, api, wall):
        ok(api.delete(url("zones", wall.zone_id(wall.north))))
        types = {d["displayId"]: d["stationType"] for d in ok(api.get("/displays"))["displays"]}
        assert types[wall.displays[0]] == "VIDEOWALL_ZONE_INACTIVE"
        assert types[wall.displays[2]] == "VIDEOWALL"
        # a display freed by the delete may join the other zone
        ok(
            api.put(
                url("zones", wall.zone_id(wall.south)),
                json={"displayIds": [wall.displays[2], wall.displays[3], wall.displays[0]]},
            )
        )


def zpath(wall, form, name, suffix=""):
    base = url("zones", "byname", name) if form == "byname" else url("zones", wall.zone_id(name))
    return base + (f"/{suffix}" if suffix else "")
