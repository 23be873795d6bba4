"""Sources: every catalogue type, defaults, validation, by id and by name, licence."""

import json

import pytest

from tests.support.app import SharedApp, set_licence
from tests.support.http import error, ok
from tests.support.media import media_root, write_png
from tests.support.mixins import FullCrudMixin
from tests.support.sources import (
    CATALOGUE_TYPES,
    PARAM_TYPES,
    SIGNAGE,
    STREAMER,
    WEB,
    create_source,
    files_value,
    param,
    param_value,
    source_body,
)
from tests.support.topology import locked_display, unique


class TestSourceCrud(SharedApp, FullCrudMixin):
    collection = "/sources"
    list_key = "sources"
    id_field = "sourceId"
    name_field = "sourceName"

    def valid_body(self, api, name):
        return source_body(WEB, name, URL="https://example.org/")

    def invalid_bodies(self, api):
        return [
            (source_body("Toaster", "T"), 400, ("Toaster",)),
            ({"sourceName": "x"}, 400, ("sourceType",)),
            (source_body(WEB, "Bad", URL="javascript:alert(1)"), 400, ("URL",)),
        ]

    def update_body(self, api, created, name):
        return source_body(STREAMER, name, URL="https://example.org/live", Muted="false")

    def invalid_update(self, api, created):
        return source_body(WEB, "Renamed", URL="ftp://nope"), 400, ("URL",)

    def test_update_changes_type_and_params(self, api):
        created = create_source(api, WEB, unique("Page"))
        body = source_body(
            STREAMER, unique("Stream now"), URL="https://example.org/live", Muted="false"
        )
        updated = ok(api.put(f"/sources/{created['sourceId']}", json=body))
        assert updated["sourceType"] == STREAMER
        assert param_value(updated, "URL") == "https://example.org/live"
        assert param_value(updated, "Muted") == "false"
        assert ok(api.get(f"/sources/{created['sourceId']}")) == updated

    def test_get_by_source_name_query(self, api):
        first = create_source(api, WEB, unique("First screen"))
        second = create_source(api, WEB, unique("Second screen"))
        listed = ok(api.get("/sources", params={"sourceName": first["sourceName"]}))["sources"]
        assert listed == [first]
        assert ok(api.get("/sources", params={"sourceName": "nobody"}))["sources"] == []
        assert {first["sourceId"], second["sourceId"]} <= {
            s["sourceId"] for s in ok(api.get("/sources"))["sources"]
        }

    def test_delete_by_name(self, api):
        created = create_source(api, WEB, unique("Name with spaces & ü"))
        ok(api.delete("/sources", params={"sourceName": created["sourceName"]}))
        error(api.get(f"/sources/{created['sourceId']}"), 404)
        error(api.delete("/sources", params={"sourceName": created["sourceName"]}), 404)

    def test_delete_by_name_needs_the_name(self, api):
        error(api.delete("/sources"), 400, "sourceName")

    @pytest.mark.parametrize("type_", CATALOGUE_TYPES)
    def test_create_each_catalogue_type(self, api, type_):
        name = unique(f"A {type_}")
        created = create_source(api, type_, name)
        assert created["sourceType"] == type_
        assert created["sourceName"] == name
        for p in created["params"]:
            assert set(p) == {"type", "paramName", "paramValue"}
            assert all(isinstance(v, str) for v in p.values())
        named = {p["paramName"]: p["type"] for p in created["params"] if p["type"] != "HELP"}
        assert named == PARAM_TYPES[type_]
        help_params = [p for p in created["params"] if p["type"] == "HELP"]
        assert len(help_params) == 1 and help_params[0]["paramName"] == ""
        assert help_params[0]["paramValue"]
        # what GET answers is what POST answered
        assert ok(api.get(f"/sources/{created['sourceId']}")) == created

    def test_defaults_filled(self, api):
        created = create_source(api, WEB, unique("Defaults"), URL="https://example.org/")
        assert param_value(created, "Refresh Interval") == "0"
        streamer = create_source(api, STREAMER, unique("Muted"), URL="https://example.org/l.m3u8")
        assert param_value(streamer, "Muted") == "true"
        write_png(media_root(api), "one.png")
        signage = ok(api.post("/sources", json=source_body(SIGNAGE, unique("Bare signage"))))
        assert json.loads(param_value(signage, "Media")) == []
        assert param_value(signage, "Slide Interval") == "10"
        assert param_value(signage, "Shuffle") == "false"
        assert param_value(signage, "Scaling") == "fit"

    def test_values_normalised(self, api):
        body = source_body(STREAMER, unique("Normalised"), URL="https://example.org/s", Muted="no")
        assert param_value(ok(api.post("/sources", json=body)), "Muted") == "false"

    def test_signage_file_dir_select_is_json_array(self, api):
        write_png(media_root(api), "dir/a.png")
        entries = [{"type": "dir", "name": "dir", "value": "dir"}]
        body = source_body(SIGNAGE, unique("Folder"), Media=json.dumps(entries))
        created = ok(api.post("/sources", json=body))
        assert json.loads(param_value(created, "Media")) == entries

    def test_param_of_wrong_type_400(self, api):
        body = source_body(WEB, "Wrong type")
        body["params"] = [param("URL", "https://example.org/", "NUMBER")]
        error(api.post("/sources", json=body), 400, "URL")

    def test_signage_with_missing_media_refused(self, api):
        body = source_body(SIGNAGE, "Missing", Media=files_value("nowhere.png"))
        response = api.post("/sources", json=body)
        assert response.status_code in (400, 404), response.text
        error(response, response.status_code, "nowhere.png")

    def test_signage_media_outside_library_refused(self, api):
        body = source_body(SIGNAGE, "Escape", Media=files_value("../../etc/passwd"))
        error(api.post("/sources", json=body), 400)

    @pytest.mark.parametrize(
        ("params", "named"),
        [
            ({"URL": "https://example.org/", "Refresh_Interval": "often"}, "Refresh Interval"),
            ({"URL": "https://example.org/", "Refresh_Interval": "-5"}, "Refresh Interval"),
            ({"URL": "javascript:alert(1)"}, "URL"),
            ({"URL": "https://example.org/", "Colour": "red"}, "Colour"),
            ({}, "URL"),
        ],
        ids=["not-a-number", "below-minimum", "bad-url", "unknown-param", "required-missing"],
    )
    def test_invalid_param_400_names_it(self, api, params, named):
        before = ok(api.get("/sources"))
        error(api.post("/sources", json=source_body(WEB, "Bad", **params)), 400, named)
        assert ok(api.get("/sources")) == before

    def test_delete_playing_source_stops_displays(self, api):
        display = locked_display(api)
        created = create_source(api, WEB, unique("Playing"))
        switch = {"destinationSourceId": created["sourceId"]}
        ok(api.put(f"/displays/{display}/switch", params=switch))
        assert ok(api.get(f"/displays/{display}"))["playingSourceId"] == created["sourceId"]
        ok(api.delete(f"/sources/{created['sourceId']}"))
        assert ok(api.get(f"/displays/{display}"))["playingSourceId"] == ""


def test_licence_forbids_type_403(api):
    set_licence(api, source_types=[WEB])
    create_source(api, WEB, "Allowed")
    error(
        api.post("/sources", json=source_body(STREAMER, "Not allowed", URL="https://example.org/")),
        403,
    )
    assert [s["sourceName"] for s in ok(api.get("/sources"))["sources"]] == ["Allowed"]


def test_licence_forbids_update_to_type_403(api):
    created = create_source(api, WEB, "Page")
    set_licence(api, source_types=[WEB])
    error(
        api.put(
            f"/sources/{created['sourceId']}",
            json=source_body(STREAMER, "Page", URL="https://example.org/"),
        ),
        403,
    )
    assert ok(api.get(f"/sources/{created['sourceId']}"))["sourceType"] == WEB
