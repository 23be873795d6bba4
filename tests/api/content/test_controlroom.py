"""Control rooms over HTTP: layout management (extension) and the interface operations."""

from typing import Any

from tests.support.app import SharedApp
from tests.support.http import error, ok
from tests.support.mixins import FullCrudMixin, NamesInPathsMixin, SortedByNameMixin
from tests.support.sources import control_body, control_source, web_source
from tests.support.topology import unique, zone_on_new_wall
from tilewall.host.memory import Event

NONE = {"id": "", "name": "None", "sources": []}


def window(
    source_id: str, x: float = 0, y: float = 0, w: float = 0.5, h: float = 0.5
) -> dict[str, Any]:
    return {"sourceId": source_id, "x": x, "y": y, "width": w, "height": h}


def layout(api: Any, name: str, *windows: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = ok(
        api.post("/controlroom/layouts", json={"name": name, "windows": list(windows)})
    )
    return body


def switch(api: Any, zone: str, source_name: str) -> None:
    ok(api.put(f"/zones/byname/{zone}/switch", params={"destinationSourceName": source_name}))


def control_room(api: Any) -> dict[str, Any]:
    """Zone "Ops" playing the source "Ops wall" with the layouts "Quad" and "Split"."""
    zone = zone_on_new_wall(api, "Ops")
    cam1, cam2 = web_source(api, "Cam 1"), web_source(api, "Cam 2")
    quad = layout(api, "Quad", window(cam1), window(cam2, x=0.5), window(cam1, y=0.5))
    split = layout(api, "Split", window(cam2, w=1, h=0.5), window(cam1, y=0.5, w=1, h=0.5))
    source = control_source(api, "Ops wall", [quad["id"], split["id"]])
    switch(api, "Ops", "Ops wall")
    return {
        "zone": zone,
        "cam1": cam1,
        "cam2": cam2,
        "quad": quad,
        "split": split,
        "source": source,
    }


def set_layouts(api: Any, source_id: str, name: str, layouts: list[str]) -> None:
    ok(api.put(f"/sources/{source_id}", json=control_body(name, layouts)))


# layouts (extension)


class TestLayoutCrud(SharedApp, FullCrudMixin, NamesInPathsMixin, SortedByNameMixin):
    collection = "/controlroom/layouts"
    list_key = "layouts"

    def valid_body(self, api, name):
        return {"name": name, "windows": [window(web_source(api, unique("Cam")))]}

    def update_body(self, api, created, name):
        return {"name": name}

    def invalid_bodies(self, api):
        cam = web_source(api, unique("Cam"))
        cc = control_source(api, unique("Room"), [])
        return [
            ({"name": "x" * 201}, 400, ("name",)),
            ({"windows": []}, 400, ("name",)),
            ({"name": "L", "windows": [window("nope")]}, 404, ("windows[0].sourceId",)),
            ({"name": "L", "windows": [window(cam), window(cc)]}, 400, ("windows[1].sourceId",)),
            ({"name": "L", "windows": [window(cam, x=-0.1)]}, 400, ("windows[0].x",)),
            ({"name": "L", "windows": [window(cam, y=1.5)]}, 400, ("windows[0].y",)),
            ({"name": "L", "windows": [window(cam, w=0)]}, 400, ("width",)),
            ({"name": "L", "windows": [window(cam, h=1.2)]}, 400, ("height",)),
            ({"name": "L", "windows": [window(cam, x=0.6, w=0.5)]}, 400, ("x + width",)),
            ({"name": "L", "windows": [window(cam, y=0.75, h=0.5)]}, 400, ("y + height",)),
            ({"name": "L", "windows": [{"x": 0}]}, 400, ("sourceId",)),
            ({"name": "L", "windows": [{**window(cam), "x": "left"}]}, 400, ("x",)),
            ({"name": "L", "windows": [window(cam)] * 65}, 400, ("64",)),
        ]

    def invalid_update(self, api, created):
        cam = created["windows"][0]["sourceId"]
        return {"windows": [window(cam, x=0.9, w=0.2)]}, 400, ("x + width",)

    def test_update_to_an_empty_name_refused(self, api):
        made = self.create(api)
        error(api.put(self.item(made["id"]), json={"name": ""}), 400, "name")
        assert ok(api.get(self.item(made["id"]))) == made


def test_layout_crud(api):
    assert ok(api.get("/controlroom/layouts")) == {"layouts": []}
    cam = web_source(api, "Cam")
    made = layout(api, "Main", window(cam, 0.25, 0.25, 0.75, 0.75))
    assert made["name"] == "Main" and made["id"]
    assert made["windows"] == [
        {"sourceId": cam, "x": 0.25, "y": 0.25, "width": 0.75, "height": 0.75}
    ]
    assert made["sources"] == [{"id": cam, "name": "Cam"}]
    assert ok(api.get("/controlroom/layouts")) == {"layouts": [made]}
    assert ok(api.get(f"/controlroom/layouts/{made['id']}")) == made

    renamed = ok(api.put(f"/controlroom/layouts/{made['id']}", json={"name": "Main 2"}))
    assert renamed["name"] == "Main 2" and renamed["windows"] == made["windows"]
    moved = ok(
        api.put(f"/controlroom/layouts/{made['id']}", json={"windows": [window(cam, 0, 0, 1, 1)]})
    )
    assert moved["name"] == "Main 2"
    assert moved["windows"] == [{"sourceId": cam, "x": 0, "y": 0, "width": 1, "height": 1}]

    assert ok(api.delete(f"/controlroom/layouts/{made['id']}"))["message"]
    assert ok(api.get("/controlroom/layouts")) == {"layouts": []}
    error(api.delete(f"/controlroom/layouts/{made['id']}"), 404, "not found")
    error(api.put(f"/controlroom/layouts/{made['id']}", json={"name": "x"}), 404)
    error(api.get(f"/controlroom/layouts/{made['id']}"), 404)


def test_layout_defaults_and_order(api):
    cam = web_source(api, "Cam")
    empty = layout(api, "b empty")
    assert empty["windows"] == [] and empty["sources"] == []
    full = ok(
        api.post("/controlroom/layouts", json={"name": "a full", "windows": [{"sourceId": cam}]})
    )
    assert full["windows"] == [{"sourceId": cam, "x": 0, "y": 0, "width": 1, "height": 1}]
    names = [item["name"] for item in ok(api.get("/controlroom/layouts"))["layouts"]]
    assert names == ["a full", "b empty"]


def test_delete_refused_while_a_source_lists_the_layout(api):
    room = control_room(api)
    quad = room["quad"]["id"]
    error(api.delete(f"/controlroom/layouts/{quad}"), 409, "Ops wall")
    set_layouts(api, room["source"], "Ops wall", [room["split"]["id"]])
    ok(api.delete(f"/controlroom/layouts/{quad}"))


def test_layout_sources_skip_removed_sources_and_repeat_once(api):
    room = control_room(api)
    assert ok(api.get(f"/controlroom/layouts/{room['quad']['id']}"))["sources"] == [
        {"id": room["cam1"], "name": "Cam 1"},
        {"id": room["cam2"], "name": "Cam 2"},
    ]
    ok(api.delete(f"/sources/{room['cam1']}"))
    assert ok(api.get(f"/controlroom/layouts/{room['quad']['id']}"))["sources"] == [
        {"id": room["cam2"], "name": "Cam 2"}
    ]


# interface operations


def test_instances(api):
    assert ok(api.get("/controlroom")) == {"controlrooms": []}
    room = control_room(api)
    zone_on_new_wall(api, "Lobby", count=1)
    web_source(api, "Menu")
    switch(api, "Lobby", "Menu")
    assert ok(api.get("/controlroom")) == {
        "controlrooms": [
            {
                "zoneId": room["zone"]["zoneId"],
                "zoneName": "Ops",
                "sourceId": room["source"],
                "sourceName": "Ops wall",
                "currentLayout": {"id": room["quad"]["id"], "name": "Quad"},
            }
        ]
    }


def test_instance_of_a_source_without_layouts(api):
    zone_on_new_wall(api, "Ops")
    control_source(api, "Empty room", [])
    switch(api, "Ops", "Empty room")
    [instance] = ok(api.get("/controlroom"))["controlrooms"]
    assert instance["currentLayout"] == {"id": "", "name": "None"}
    assert ok(api.get("/controlroom/Ops/layouts")) == {"layouts": []}
    assert ok(api.get("/controlroom/Ops/currentlayout")) == NONE


def test_zone_layouts(api):
    room = control_room(api)
    assert ok(api.get("/controlroom/Ops/layouts")) == {
        "layouts": [
            {
                "id": room["quad"]["id"],
                "name": "Quad",
                "sources": [
                    {"id": room["cam1"], "name": "Cam 1"},
                    {"id": room["cam2"], "name": "Cam 2"},
                ],
            },
            {
                "id": room["split"]["id"],
                "name": "Split",
                "sources": [
                    {"id": room["cam2"], "name": "Cam 2"},
                    {"id": room["cam1"], "name": "Cam 1"},
                ],
            },
        ]
    }
    error(api.get("/controlroom/Nowhere/layouts"), 404, "Nowhere")
    zone_on_new_wall(api, "Lobby", count=1)
    assert ok(api.get("/controlroom/Lobby/layouts")) == {"layouts": []}


def test_current_layout(api):
    room = control_room(api)
    current = ok(api.get("/controlroom/Ops/currentlayout"))
    assert current["id"] == room["quad"]["id"] and current["name"] == "Quad"
    assert current["sources"] == room["quad"]["sources"]
    assert ok(api.get("/controlroom/Nowhere/currentlayout")) == NONE
    zone_on_new_wall(api, "Lobby", count=1)
    assert ok(api.get("/controlroom/Lobby/currentlayout")) == NONE
    web_source(api, "Menu")
    switch(api, "Lobby", "Menu")
    assert ok(api.get("/controlroom/Lobby/currentlayout")) == NONE


def test_load(api, host):
    room = control_room(api)
    loaded = ok(api.put("/controlroom/Ops/load/Split"))
    assert loaded["id"] == room["split"]["id"] and loaded["name"] == "Split"
    assert ok(api.get("/controlroom/Ops/currentlayout"))["name"] == "Split"
    assert ok(api.get("/controlroom"))["controlrooms"][0]["currentLayout"]["name"] == "Split"
    zone = ok(api.get("/zones/byname/Ops"))
    assert zone["isPlaying"] is True and zone["playingSourceId"] == room["source"]
    assert host.state.zones[zone["zoneId"]].timeline.layout_id == room["split"]["id"]
    # by id as well
    ok(api.put(f"/controlroom/Ops/load/{room['quad']['id']}"))
    assert ok(api.get("/controlroom/Ops/currentlayout"))["name"] == "Quad"


def test_load_errors(api):
    room = control_room(api)
    lonely = layout(api, "Lonely", window(room["cam1"]))
    error(api.put("/controlroom/Nowhere/load/Quad"), 404, "Nowhere")
    error(api.put("/controlroom/Ops/load/Nothing"), 404, "Nothing")
    error(api.put(f"/controlroom/Ops/load/{lonely['name']}"), 404, "Lonely", "Ops wall")
    zone_on_new_wall(api, "Lobby", count=1)
    error(api.put("/controlroom/Lobby/load/Quad"), 409, "Command and Control")
    assert ok(api.get("/controlroom/Ops/currentlayout"))["name"] == "Quad"


def test_current_layout_follows_the_source(api):
    room = control_room(api)
    ok(api.put("/controlroom/Ops/load/Split"))
    # the source no longer lists the loaded layout: the zone shows its first layout
    set_layouts(api, room["source"], "Ops wall", [room["quad"]["id"]])
    assert ok(api.get("/controlroom/Ops/currentlayout"))["name"] == "Quad"


def test_changing_a_shown_layout_tells_the_zone_displays(api, host):
    room = control_room(api)
    events: list[Event] = []
    host.core.subscribe(events.append)
    ok(api.put(f"/controlroom/layouts/{room['split']['id']}", json={"name": "Split 2"}))
    assert events == []  # not shown anywhere
    ok(
        api.put(
            f"/controlroom/layouts/{room['quad']['id']}", json={"windows": [window(room["cam2"])]}
        )
    )
    displays = frozenset(
        ok(api.get("/zones/byname/Ops"))["zoneDisplays"][i]["displayId"] for i in range(2)
    )
    assert [e.displays for e in events] == [displays]


def test_a_zone_named_layouts_stays_addressable(api):
    zone_on_new_wall(api, "layouts")
    cam = web_source(api, "Cam")
    only = layout(api, "Only", window(cam))
    control_source(api, "Room", [only["id"]])
    switch(api, "layouts", "Room")
    assert ok(api.get("/controlroom/layouts/currentlayout"))["name"] == "Only"
    assert [x["name"] for x in ok(api.get("/controlroom/layouts/layouts"))["layouts"]] == ["Only"]
    assert ok(api.put("/controlroom/layouts/load/Only"))["name"] == "Only"
    assert [x["name"] for x in ok(api.get("/controlroom/layouts"))["layouts"]] == ["Only"]


def test_needs_a_session(sessionless):
    for method, path in [
        ("GET", "/controlroom"),
        ("GET", "/controlroom/Ops/layouts"),
        ("GET", "/controlroom/Ops/currentlayout"),
        ("PUT", "/controlroom/Ops/load/Quad"),
        ("GET", "/controlroom/layouts"),
        ("POST", "/controlroom/layouts"),
    ]:
        assert sessionless.request(method, path).status_code == 401, (method, path)
