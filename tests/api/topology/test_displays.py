"""Displays: list and station types, read, settings, tag, reset, and what is particular
to a display's playback. The playback operations are tested with every target's
(test_playback.py)."""

import pytest

from tests.support.app import SharedApp, host_of
from tests.support.http import error, ok
from tests.support.singletons import SingletonMixin
from tests.support.sources import WEB, create_source
from tests.support.targets import DISPLAY_FIELDS
from tests.support.topology import (
    locked_display,
    locked_displays,
    make_mirror,
    make_wall,
    unique,
    wall_body,
)


class TestDisplayTag(SharedApp, SingletonMixin):
    def where(self, api):
        return f"/displays/{locked_display(api)}/tag"

    def shown(self, answer):
        return answer["displayTag"]

    def expected(self, body):
        return body["displayTag"]

    def initial(self, api):
        return ""

    def valid_body(self, api):
        return {"displayTag": "Lobby — left ✓"}

    def invalid_bodies(self, api):
        return [({"displayTag": "x" * 1000}, 400, ()), ({"displayTag": 5}, 400, ("displayTag",))]

    def test_unknown_display_404(self, api):
        error(api.get("/displays/999/tag"), 404)
        error(api.put("/displays/999/tag", json={"displayTag": "x"}), 404)


class TestDisplaySettings(SharedApp, SingletonMixin):
    """The resolution of a display: one of those its receiver offers."""

    def where(self, api):
        return f"/displays/{locked_display(api)}/settings"

    def shown(self, answer):
        return answer["currentResolution"]

    def initial(self, api):
        return {"width": 1920, "height": 1080}

    def valid_body(self, api):
        return {"width": 1280, "height": 720}

    def invalid_bodies(self, api):
        return [
            ({"width": 1024, "height": 768}, 400, ("1280x720",)),
            ({"width": 0, "height": 768}, 400, ()),
            ({"width": "wide"}, 400, ()),
        ]

    def test_shape(self, api):
        display = locked_display(api)
        body = ok(api.get(f"/displays/{display}/settings"))
        assert body["displayId"] == display
        assert {"width": 1280, "height": 720} in body["availableResolutions"]
        changed = ok(api.put(f"/displays/{display}/settings", json={"width": 1280, "height": 720}))
        assert changed["currentResolution"] == {"width": 1280, "height": 720}

    def test_unknown_display_404(self, api):
        error(api.get("/displays/999/settings"), 404)
        error(api.put("/displays/999/settings", json={"width": 1280, "height": 720}), 404)


class TestDisplays(SharedApp):
    @pytest.mark.parametrize("key", ["999", "abc", "-1", "1.5"])
    def test_unknown_display_404(self, api, key):
        error(api.get(f"/displays/{key}"), 404, "not found")

    def test_station_types(self, api):
        wall = make_wall(api, unique("Lobby wall"), zones={unique("Top"): [0, 1]})
        standalone = locked_display(api)
        types = {d["displayId"]: d["stationType"] for d in ok(api.get("/displays"))["displays"]}
        assert types[standalone] == "STANDALONE"
        assert types[wall.displays[0]] == "VIDEOWALL"
        assert types[wall.displays[1]] == "VIDEOWALL"
        assert types[wall.displays[2]] == "VIDEOWALL_ZONE_INACTIVE"
        assert types[wall.displays[3]] == "VIDEOWALL_ZONE_INACTIVE"

    def test_get_display_without_station_type(self, api):
        display = locked_display(api)
        body = ok(api.get(f"/displays/{display}"))
        assert set(body) == DISPLAY_FIELDS
        assert body["displayId"] == display

    def test_reset(self, api):
        display = locked_display(api)
        commands = []
        unsubscribe = host_of(api).core.on_command(lambda seat, name: commands.append(name))
        try:
            ok(api.put(f"/displays/{display}/reset"))
        finally:
            unsubscribe()
        assert commands == ["reset"]
        error(api.put("/displays/999/reset"), 404)

    def test_several_displays_independent(self, api):
        web = create_source(api, WEB, unique("Welcome page"))
        first, second = locked_displays(api, 2)
        ok(api.put(f"/displays/{first}/switch", params={"destinationSourceId": web["sourceId"]}))
        assert ok(api.get(f"/displays/{second}"))["playingSourceId"] == ""

    def test_switch_display_in_zone_switches_the_zone(self, api):
        web = create_source(api, WEB, unique("Welcome page"))
        wall = make_wall(api, unique("Lobby wall"), zones={unique("Left"): [0, 2]})
        [zone] = wall.zones
        member = wall.displays[0]
        ok(api.put(f"/displays/{member}/switch", params={"destinationSourceId": web["sourceId"]}))
        assert ok(api.get(f"/zones/{wall.zone_id(zone)}"))["playingSourceId"] == web["sourceId"]
        assert ok(api.get(f"/displays/{wall.displays[2]}"))["playingSourceId"] == web["sourceId"]

    def test_wall_display_in_no_zone_cannot_play(self, api):
        ids = locked_displays(api, 2)
        name = unique("Idle wall")
        wall = ok(api.post("/videowalls", json=wall_body(name, ids)))
        assert wall["zones"] == []
        source = create_source(api, WEB, unique("Idle page"))
        message = error(
            api.put(
                f"/displays/{ids[0]}/switch", params={"destinationSourceId": source["sourceId"]}
            ),
            409,
            "no zone",
        )
        assert name in message
        assert ok(api.get(f"/displays/{ids[0]}"))["playingSourceId"] == ""


def test_list_shape(api):
    display = locked_display(api)
    displays = ok(api.get("/displays"))["displays"]
    assert len(displays) == 1
    item = displays[0]
    assert set(item) == DISPLAY_FIELDS | {"stationType"}
    assert item["displayId"] == display
    assert item["stationType"] == "STANDALONE"
    assert item["isOnline"] is True
    assert item["playingSourceId"] == ""
    assert isinstance(item["isShowingWelcomeScreen"], bool)


def test_standalone_only_excludes_zone_members(api):
    wall = make_wall(api, zones={"Top": [0, 1]})
    mirror = make_mirror(api)
    standalone = locked_display(api)
    listed = ok(api.get("/displays", params={"isStandaloneOnly": "true"}))["displays"]
    ids = {d["displayId"] for d in listed}
    assert standalone in ids
    assert set(mirror.displays) <= ids
    assert not ids & set(wall.displays[:2])  # in a zone
    everything = ok(api.get("/displays", params={"isStandaloneOnly": "false"}))["displays"]
    assert len(everything) == 7
