"""Video walls: list and read (interface), create, update and delete (extensions),
geometry validation, membership conflicts."""

import pytest

from tests.support.app import SharedApp
from tests.support.http import error, ok, url
from tests.support.mixins import FullCrudMixin, SortedByNameMixin
from tests.support.topology import (
    geometry,
    locked_display,
    locked_displays,
    make_mirror,
    make_wall,
    unique,
    wall_body,
)

WALL_FIELDS = {"id", "canvasGeometry", "monitors", "zones"}
GEOMETRY_FIELDS = {"width", "height", "centerX", "centerY", "rotationDegrees"}


def two_zones(api):
    """A 2x2 wall of its own, with two zones: the first of positions 0 and 2."""
    return make_wall(api, unique("Lobby wall"), {unique("Left"): [0, 2], unique("Right"): [1, 3]})


def station_type(api, display):
    return next(d for d in ok(api.get("/displays"))["displays"] if d["displayId"] == display)[
        "stationType"
    ]


class TestVideoWallCrud(SharedApp, FullCrudMixin, SortedByNameMixin):
    collection = "/videowalls"
    list_key = "videowalls"

    def valid_body(self, api, name):
        return wall_body(name, locked_displays(api, 2))

    def invalid_bodies(self, api):
        display = locked_display(api)
        return [
            (wall_body("W", [999]), 404, ("999",)),
            (wall_body("W", [display, display]), 400, ()),
            (
                {**wall_body("Bad canvas", [display]), "canvasGeometry": geometry(0, 10, 0, 0)},
                400,
                ("canvasGeometry",),
            ),
        ]

    def update_body(self, api, created, name):
        return {"name": name, "monitors": created["monitors"]}

    def test_shape(self, api):
        wall = two_zones(api)
        body = ok(api.get(url("videowalls", wall.id)))
        assert set(body) >= WALL_FIELDS
        assert set(body["canvasGeometry"]) == GEOMETRY_FIELDS
        assert [m["displayId"] for m in body["monitors"]] == wall.displays
        for monitor in body["monitors"]:
            assert set(monitor) == {"displayId", "monitorDiagonal", "monitorGeometry"}
            assert set(monitor["monitorGeometry"]) == GEOMETRY_FIELDS
            assert monitor["monitorDiagonal"] == {"lengthInMillimeter": 1320.0}
        assert {z["zoneName"] for z in body["zones"]} == set(wall.zones)
        assert all(set(z) == {"zoneId", "zoneName"} for z in body["zones"])
        assert body in ok(api.get("/videowalls"))["videowalls"]

    def test_canvas_computed_from_monitors(self, api):
        displays = locked_displays(api, 4)
        body = ok(api.post("/videowalls", json=wall_body(unique("Computed"), displays)))
        # 2x2 monitors of 1000x600 with 10 mm bezels
        assert body["canvasGeometry"] == {
            "width": 2010,
            "height": 1210,
            "centerX": 1005,
            "centerY": 605,
            "rotationDegrees": 0,
        }

    def test_canvas_given(self, api):
        displays = locked_displays(api, 1)
        request = wall_body(unique("Given"), displays)
        request["canvasGeometry"] = geometry(4000, 3000, 2000, 1500)
        body = ok(api.post("/videowalls", json=request))
        assert body["canvasGeometry"] == geometry(4000, 3000, 2000, 1500)

    @pytest.mark.parametrize(
        "bad",
        [{"width": 0}, {"height": -10}, {"width": "wide"}, {"centerX": None}],
        ids=["zero-width", "negative-height", "string", "null-center"],
    )
    def test_geometry_validation_400(self, api, bad):
        displays = locked_displays(api, 1)
        before = ok(api.get("/videowalls"))
        request = wall_body("Bad", displays)
        request["monitors"][0]["monitorGeometry"].update(bad)
        error(api.post("/videowalls", json=request), 400)
        assert ok(api.get("/videowalls")) == before
        assert station_type(api, displays[0]) == "STANDALONE"

    def test_negative_diagonal_400(self, api):
        request = wall_body("Bad diagonal", locked_displays(api, 1))
        request["monitors"][0]["monitorDiagonal"] = {"lengthInMillimeter": -1}
        error(api.post("/videowalls", json=request), 400)

    def test_display_already_in_a_wall_409(self, api):
        wall = two_zones(api)
        before = ok(api.get("/videowalls"))
        error(api.post("/videowalls", json=wall_body("Second", [wall.displays[0]])), 409, "already")
        assert ok(api.get("/videowalls")) == before

    def test_display_in_mirror_group_409(self, api):
        mirror = make_mirror(api, unique("Pair"))
        error(api.post("/videowalls", json=wall_body("W", [mirror.displays[0]])), 409)

    def test_update_wall(self, api):
        wall = two_zones(api)
        left = next(iter(wall.zones))
        extra = locked_display(api)
        monitors = ok(api.get(url("videowalls", wall.id)))["monitors"]
        # drop the first monitor, add a new display
        new_monitors = [
            *monitors[1:],
            {"displayId": extra, "monitorGeometry": geometry(1000, 600, 2520, 305)},
        ]
        name = unique("Renamed wall")
        body = ok(
            api.put(url("videowalls", wall.id), json={"name": name, "monitors": new_monitors})
        )
        assert body["name"] == name
        assert [m["displayId"] for m in body["monitors"]] == [*wall.displays[1:], extra]
        # the dropped display left its zone and the wall
        types = {d["displayId"]: d["stationType"] for d in ok(api.get("/displays"))["displays"]}
        assert types[wall.displays[0]] == "STANDALONE"
        assert types[extra] == "VIDEOWALL_ZONE_INACTIVE"
        zone = ok(api.get(url("zones", wall.zone_id(left))))
        assert [d["displayId"] for d in zone["zoneDisplays"] if d["isSelected"]] == [
            wall.displays[2]
        ]
        error(api.put("/videowalls/nope", json={"name": "x"}), 404)

    def test_update_wall_invalid_leaves_it_unchanged(self, api):
        wall = two_zones(api)
        before = ok(api.get(url("videowalls", wall.id)))
        monitors = [dict(m) for m in before["monitors"]]
        monitors[0] = {**monitors[0], "monitorGeometry": geometry(-1, 600, 0, 0)}
        error(api.put(url("videowalls", wall.id), json={"name": "New", "monitors": monitors}), 400)
        assert ok(api.get(url("videowalls", wall.id))) == before

    def test_delete_wall_deletes_its_zones(self, api):
        wall = two_zones(api)
        ok(api.delete(url("videowalls", wall.id)))
        zones = {z["zoneId"] for z in ok(api.get("/zones"))["zones"]}
        assert not zones & {wall.zone_id(name) for name in wall.zones}
        assert {station_type(api, d) for d in wall.displays} == {"STANDALONE"}
        for name in wall.zones:
            error(api.get(url("zones", wall.zone_id(name))), 404)
        # its displays may form a new wall
        ok(api.post("/videowalls", json=wall_body(unique("Again"), wall.displays)))
