"""Presets: save the current mapping, list, read, switch and delete by id and by name."""

import pytest

from tests.support.app import SharedApp
from tests.support.http import error, ok, url
from tests.support.mixins import (
    ByNameDeleteMixin,
    CrudMixin,
    GeneratedIdMixin,
    NamesInPathsMixin,
    SortedByNameMixin,
)
from tests.support.sources import WEB, create_source
from tests.support.topology import locked_display, make_topology


class TestPresetCrud(
    SharedApp,
    CrudMixin,
    ByNameDeleteMixin,
    GeneratedIdMixin,
    NamesInPathsMixin,
    SortedByNameMixin,
):
    """Saving under a taken name replaces that preset."""

    collection = "/presets"
    list_key = "presets"
    by_name = "/presets/byname"
    taken_name = "replaces"

    def valid_body(self, api, name):
        return {"name": name}

    def invalid_bodies(self, api):
        return [({"name": 5}, 400, ("name",)), ({"name": "x" * 5000}, 400, ("name",))]

    def test_list_items_are_id_and_name(self, api):
        saved = self.create(api)
        assert {"id": saved["id"], "name": saved["name"]} in ok(api.get("/presets"))["presets"]
        assert saved == {"id": saved["id"], "name": saved["name"]}

    @pytest.mark.parametrize(
        "path",
        [
            "/presets/nope",
            "/presets/byname/nope",
            "/presets/nope/switch",
            "/presets/byname/nope/switch",
        ],
    )
    def test_unknown_404(self, api, path):
        method = api.put if path.endswith("switch") else api.get
        error(method(path), 404, "not found")
        if not path.endswith("switch"):
            error(api.delete(path), 404)


@pytest.fixture
def scene(api):
    """A standalone display, a 2x2 wall with zones "Left" and "Right", a mirror group, two
    sources."""
    topology = make_topology(api)
    return {
        "display": topology.display,
        "wall": topology.wall,
        "mirror": topology.mirror,
        "a": create_source(api, WEB, "Source A"),
        "b": create_source(api, WEB, "Source B"),
    }


def _assign(api, scene, first, second):
    """Display and zone Left play ``first``; zone Right and the mirror group ``second``."""
    wall, mirror = scene["wall"], scene["mirror"]
    ok(
        api.put(
            f"/displays/{scene['display']}/switch",
            params={"destinationSourceId": first["sourceId"]},
        )
    )
    ok(
        api.put(
            url("zones", wall.zone_id("Left"), "switch"),
            params={"destinationSourceId": first["sourceId"]},
        )
    )
    ok(
        api.put(
            url("zones", wall.zone_id("Right"), "switch"),
            params={"destinationSourceId": second["sourceId"]},
        )
    )
    ok(api.put(url("mirrorgroups", mirror.id, "play"), json={"sourceId": second["sourceId"]}))


def _mapping(api, scene):
    wall, mirror = scene["wall"], scene["mirror"]
    zones = {
        z["zoneName"]: (z["playingSourceId"], z["isPlaying"])
        for z in ok(api.get("/zones"))["zones"]
    }
    displays = {d["displayId"]: d["playingSourceId"] for d in ok(api.get("/displays"))["displays"]}
    group = ok(api.get(url("mirrorgroups", mirror.id)))
    return {
        "zones": zones,
        "displays": displays,
        "mirror": (group["playingSourceId"], group["isPlaying"]),
        "wall": wall.id,
    }


@pytest.mark.parametrize("by", ["id", "name"])
def test_switch_restores_every_mapping(api, scene, by):
    a, b = scene["a"], scene["b"]
    _assign(api, scene, a, b)
    expected = _mapping(api, scene)
    saved = ok(api.post("/presets", json={"name": "Show A & B ü"}))
    # change everything
    _assign(api, scene, b, a)
    ok(api.put(f"/zones/{scene['wall'].zone_id('Right')}/stop"))
    assert _mapping(api, scene) != expected
    path = (
        url("presets", saved["id"], "switch")
        if by == "id"
        else url("presets", "byname", "Show A & B ü", "switch")
    )
    body = ok(api.put(path))
    assert body == {"id": saved["id"], "name": "Show A & B ü", "playing": True}
    assert _mapping(api, scene) == expected
    # every display of the wall follows its zone
    displays = _mapping(api, scene)["displays"]
    wall = scene["wall"]
    assert displays[wall.displays[0]] == a["sourceId"]
    assert displays[wall.displays[1]] == b["sourceId"]
    assert displays[scene["mirror"].displays[1]] == b["sourceId"]


def test_switch_to_nothing_playing(api, scene):
    saved = ok(api.post("/presets", json={"name": "Dark"}))
    _assign(api, scene, scene["a"], scene["b"])
    body = ok(api.put(url("presets", saved["id"], "switch")))
    assert body["playing"] is False
    assert set(_mapping(api, scene)["displays"].values()) == {""}


def test_switch_skips_objects_deleted_since(api, scene):
    _assign(api, scene, scene["a"], scene["b"])
    saved = ok(api.post("/presets", json={"name": "Before"}))
    ok(api.delete(url("mirrorgroups", scene["mirror"].id)))
    ok(api.delete(url("zones", scene["wall"].zone_id("Right"))))
    body = ok(api.put(url("presets", saved["id"], "switch")))
    assert body["playing"] is True
    assert [z["zoneName"] for z in ok(api.get("/zones"))["zones"]] == ["Left"]


def test_switch_after_source_deleted_plays_no_ghost(api):
    display = locked_display(api)
    source = create_source(api, WEB, "Ephemeral")
    ok(api.put(f"/displays/{display}/switch", params={"destinationSourceId": source["sourceId"]}))
    saved = ok(api.post("/presets", json={"name": "With ephemeral"}))
    ok(api.delete(url("sources", source["sourceId"])))
    body = ok(api.put(url("presets", saved["id"], "switch")))
    playing = ok(api.get(f"/displays/{display}"))["playingSourceId"]
    assert playing == "" or api.get(url("sources", playing)).status_code == 200
    assert body["playing"] is False
