"""Sources: every catalogue type, defaults, validation, by id and by name, licence."""

import json

import pytest

from tests.helpers import (
    CATALOGUE_TYPES,
    CONTROL,
    SIGNAGE,
    STREAMER,
    WEB,
    CrudMixin,
    create_source,
    error,
    files_value,
    host_of,
    locked_display,
    media_root,
    ok,
    param,
    param_value,
    run,
    source_body,
    write_png,
)
from tilewall.host.model import Licence


class TestSourceCrud(CrudMixin):
    collection = "/sources"
    list_key = "sources"
    id_field = "sourceId"
    name_field = "sourceName"

    def create_body(self, client, name):
        return source_body(WEB, name, URL="https://example.org/")


EXPECTED_PARAMS = {
    SIGNAGE: {
        "Media": "FILE_DIR_SELECT",
        "Slide Interval": "NUMBER",
        "Shuffle": "CHECKBOX",
        "Scaling": "RADIO",
    },
    WEB: {"URL": "URL", "Refresh Interval": "NUMBER"},
    STREAMER: {"URL": "URL", "Muted": "CHECKBOX"},
    CONTROL: {"Layouts": "LAYOUT_SELECT"},
}


@pytest.mark.parametrize("type_", CATALOGUE_TYPES)
def test_create_each_catalogue_type(api, type_):
    created = create_source(api, type_, f"A {type_}")
    assert created["sourceType"] == type_
    assert created["sourceName"] == f"A {type_}"
    for p in created["params"]:
        assert set(p) == {"type", "paramName", "paramValue"}
        assert all(isinstance(v, str) for v in p.values())
    named = {p["paramName"]: p["type"] for p in created["params"] if p["type"] != "HELP"}
    assert named == EXPECTED_PARAMS[type_]
    help_params = [p for p in created["params"] if p["type"] == "HELP"]
    assert len(help_params) == 1 and help_params[0]["paramName"] == ""
    assert help_params[0]["paramValue"]
    # what GET answers is what POST answered
    assert ok(api.get(f"/sources/{created['sourceId']}")) == created


def test_defaults_filled(api):
    created = create_source(api, WEB, "Defaults", URL="https://example.org/")
    assert param_value(created, "Refresh Interval") == "0"
    streamer = create_source(api, STREAMER, "Muted default", URL="https://example.org/live.m3u8")
    assert param_value(streamer, "Muted") == "true"
    write_png(media_root(api), "one.png")
    signage = ok(api.post("/sources", json=source_body(SIGNAGE, "Bare signage")))
    assert json.loads(param_value(signage, "Media")) == []
    assert param_value(signage, "Slide Interval") == "10"
    assert param_value(signage, "Shuffle") == "false"
    assert param_value(signage, "Scaling") == "fit"


def test_values_normalised(api):
    created = ok(
        api.post(
            "/sources",
            json=source_body(STREAMER, "Normalised", URL="https://example.org/s", Muted="no"),
        )
    )
    assert param_value(created, "Muted") == "false"


def test_signage_file_dir_select_is_json_array(api):
    write_png(media_root(api), "dir/a.png")
    body = source_body(
        SIGNAGE, "Folder", Media=json.dumps([{"type": "dir", "name": "dir", "value": "dir"}])
    )
    created = ok(api.post("/sources", json=body))
    entries = json.loads(param_value(created, "Media"))
    assert entries == [{"type": "dir", "name": "dir", "value": "dir"}]


def test_unknown_type_400_names_it(api):
    error(api.post("/sources", json=source_body("Toaster", "T")), 400, "Toaster")


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
def test_invalid_param_400_names_it(api, params, named):
    error(api.post("/sources", json=source_body(WEB, "Bad", **params)), 400, named)
    assert ok(api.get("/sources"))["sources"] == []


def test_param_of_wrong_type_400(api):
    body = source_body(WEB, "Wrong type")
    body["params"] = [param("URL", "https://example.org/", "NUMBER")]
    error(api.post("/sources", json=body), 400, "URL")


def test_signage_with_missing_media_refused(api):
    body = source_body(SIGNAGE, "Missing", Media=files_value("nowhere.png"))
    response = api.post("/sources", json=body)
    assert response.status_code in (400, 404), response.text
    error(response, response.status_code, "nowhere.png")


def test_signage_media_outside_library_refused(api):
    body = source_body(SIGNAGE, "Escape", Media=files_value("../../etc/passwd"))
    error(api.post("/sources", json=body), 400)


def test_missing_fields_400(api):
    error(api.post("/sources", json={"sourceName": "x"}), 400, "sourceType")


def test_get_by_source_name_query(api):
    first = create_source(api, WEB, "First screen")
    create_source(api, WEB, "Second screen")
    listed = ok(api.get("/sources", params={"sourceName": "First screen"}))["sources"]
    assert listed == [first]
    assert ok(api.get("/sources", params={"sourceName": "nobody"}))["sources"] == []
    assert len(ok(api.get("/sources"))["sources"]) == 2


def test_update(api):
    created = create_source(api, WEB, "Page")
    body = source_body(STREAMER, "Stream now", URL="https://example.org/live", Muted="false")
    updated = ok(api.put(f"/sources/{created['sourceId']}", json=body))
    assert updated["sourceId"] == created["sourceId"]
    assert updated["sourceName"] == "Stream now"
    assert updated["sourceType"] == STREAMER
    assert param_value(updated, "URL") == "https://example.org/live"
    assert param_value(updated, "Muted") == "false"
    assert ok(api.get(f"/sources/{created['sourceId']}")) == updated


def test_update_ignores_source_id_in_body(api):
    created = create_source(api, WEB, "Page")
    body = source_body(WEB, "Page 2", URL="https://example.org/2")
    body["sourceId"] = "forged"
    updated = ok(api.put(f"/sources/{created['sourceId']}", json=body))
    assert updated["sourceId"] == created["sourceId"]
    error(api.get("/sources/forged"), 404)


def test_update_invalid_leaves_source_unchanged(api):
    created = create_source(api, WEB, "Page")
    error(
        api.put(
            f"/sources/{created['sourceId']}", json=source_body(WEB, "Renamed", URL="ftp://nope")
        ),
        400,
        "URL",
    )
    assert ok(api.get(f"/sources/{created['sourceId']}")) == created


def test_update_to_taken_name_409(api):
    create_source(api, WEB, "Taken")
    other = create_source(api, WEB, "Other")
    error(
        api.put(
            f"/sources/{other['sourceId']}",
            json=source_body(WEB, "Taken", URL="https://example.org/"),
        ),
        409,
        "Taken",
    )


def test_update_unknown_404(api):
    error(api.put("/sources/nope", json=source_body(WEB, "x", URL="https://example.org/")), 404)


def test_create_ignores_given_source_id(api):
    body = source_body(WEB, "With id", URL="https://example.org/")
    body["sourceId"] = "mine"
    created = ok(api.post("/sources", json=body))
    assert created["sourceId"] != "mine"


def test_delete_by_name(api):
    created = create_source(api, WEB, "Name with spaces & ü")
    ok(api.delete("/sources", params={"sourceName": "Name with spaces & ü"}))
    error(api.get(f"/sources/{created['sourceId']}"), 404)
    error(api.delete("/sources", params={"sourceName": "Name with spaces & ü"}), 404)


def test_delete_by_name_needs_the_name(api):
    error(api.delete("/sources"), 400, "sourceName")


def test_delete_playing_source_stops_displays(api):
    display = locked_display(api)
    created = create_source(api, WEB, "Playing")
    ok(api.put(f"/displays/{display}/switch", params={"destinationSourceId": created["sourceId"]}))
    assert ok(api.get(f"/displays/{display}"))["playingSourceId"] == created["sourceId"]
    ok(api.delete(f"/sources/{created['sourceId']}"))
    shown = ok(api.get(f"/displays/{display}"))
    assert shown["playingSourceId"] == ""


def _licence(api, types):
    host = host_of(api)

    async def go():
        async with host.core.change() as tx:
            host.licence.set(tx, Licence(source_types=types))

    run(api, go)


def test_licence_forbids_type_403(api):
    _licence(api, [WEB])
    create_source(api, WEB, "Allowed")
    error(
        api.post("/sources", json=source_body(STREAMER, "Not allowed", URL="https://example.org/")),
        403,
    )
    assert [s["sourceName"] for s in ok(api.get("/sources"))["sources"]] == ["Allowed"]


def test_licence_forbids_update_to_type_403(api):
    created = create_source(api, WEB, "Page")
    _licence(api, [WEB])
    error(
        api.put(
            f"/sources/{created['sourceId']}",
            json=source_body(STREAMER, "Page", URL="https://example.org/"),
        ),
        403,
    )
    assert ok(api.get(f"/sources/{created['sourceId']}"))["sourceType"] == WEB
