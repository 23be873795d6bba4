"""Mirror groups: reading them by name and by id, membership rules, and the extensions.
Their playback operations are tested with every target's (test_playback.py)."""

import pytest

from tests.support.app import SharedApp
from tests.support.http import error, ok, url
from tests.support.mixins import ByNameMixin, FullCrudMixin, NamesInPathsMixin, SortedByNameMixin
from tests.support.sources import WEB, create_source
from tests.support.targets import MIRROR_FIELDS
from tests.support.topology import (
    locked_display,
    locked_displays,
    make_mirror,
    make_wall,
    unique,
    wall_body,
)

FORMS = ["byname", "byid"]


class TestMirrorCrud(SharedApp, FullCrudMixin, ByNameMixin, NamesInPathsMixin, SortedByNameMixin):
    collection = "/mirrorgroups"
    list_key = "mirrorgroups"
    by_name = "/mirrorgroups/byname"

    def valid_body(self, api, name):
        return {"name": name, "displayIds": locked_displays(api, 1)}

    def invalid_bodies(self, api):
        display = locked_display(api)
        return [
            ({"name": "Ghost", "displayIds": [999]}, 404, ()),
            ({"name": "Twice", "displayIds": [display, display]}, 400, ()),
            ({"name": 5, "displayIds": []}, 400, ("name",)),
        ]

    def test_shape_and_list_items_are_id_and_name(self, api):
        mirror = self.create(api)
        assert set(mirror) == MIRROR_FIELDS
        assert {"id": mirror["id"], "name": mirror["name"]} in ok(api.get("/mirrorgroups"))[
            "mirrorgroups"
        ]
        assert all(set(m) == {"id", "name"} for m in ok(api.get("/mirrorgroups"))["mirrorgroups"])

    def test_membership_rules(self, api):
        mirror = make_mirror(api, unique("Reception"))
        wall = make_wall(api, unique("Wall"))
        before = len(ok(api.get("/mirrorgroups"))["mirrorgroups"])
        error(
            api.post("/mirrorgroups", json={"name": "On wall", "displayIds": [wall.displays[0]]}),
            409,
        )
        error(
            api.post("/mirrorgroups", json={"name": "Taken", "displayIds": [mirror.displays[0]]}),
            409,
            mirror.name,
        )
        assert len(ok(api.get("/mirrorgroups"))["mirrorgroups"]) == before

    def test_update_members_then_delete_frees_them(self, api):
        mirror = make_mirror(api, unique("Reception – pair"))
        extra = locked_display(api)
        name = unique("Renamed")
        body = ok(
            api.put(
                url("mirrorgroups", mirror.id),
                json={"name": name, "displayIds": [mirror.displays[0], extra]},
            )
        )
        assert body["name"] == name
        assert body["displayIds"] == [mirror.displays[0], extra]
        assert ok(api.get(url("mirrorgroups", "byname", name)))["id"] == mirror.id
        error(api.get(url("mirrorgroups", "byname", mirror.name)), 404)
        ok(api.delete(url("mirrorgroups", mirror.id)))
        assert mirror.id not in {m["id"] for m in ok(api.get("/mirrorgroups"))["mirrorgroups"]}
        # freed displays may join a wall
        ok(api.post("/videowalls", json=wall_body(unique("W"), [extra])))

    @pytest.fixture
    def mirror(self, api):
        return make_mirror(api, unique("Reception – pair"), count=2)

    @pytest.mark.parametrize("form", FORMS)
    def test_switching_a_member_display_switches_the_group(self, api, mirror, form):
        web = create_source(api, WEB, unique("Page"))
        error(api.put(mpath(mirror, form, "play")), 409)
        ok(
            api.put(
                f"/displays/{mirror.displays[0]}/switch",
                params={"destinationSourceId": web["sourceId"]},
            )
        )
        ok(api.put(mpath(mirror, form, "pause")))
        ok(api.put(mpath(mirror, form, "play")))
        assert ok(api.get(mpath(mirror, form)))["isPlaying"] is True
        # the display switch acted on the group: the other member shows it too
        assert ok(api.get(f"/displays/{mirror.displays[1]}"))["playingSourceId"] == web["sourceId"]

    @pytest.mark.parametrize("form", FORMS)
    def test_mediainfo_404_says_zone_not_found(self, api, form):
        message = error(api.get(missing(form, "mediainfo")), 404)
        assert "zone" in message.casefold() and "not found" in message.casefold()


def missing(form, suffix=""):
    base = "/mirrorgroups/byname/Nowhere" if form == "byname" else "/mirrorgroups/nowhere"
    return base + (f"/{suffix}" if suffix else "")


def mpath(mirror, form, suffix=""):
    base = (
        url("mirrorgroups", "byname", mirror.name)
        if form == "byname"
        else url("mirrorgroups", mirror.id)
    )
    return base + (f"/{suffix}" if suffix else "")
