"""Mirror groups: every operation by name and by id, and the extensions."""

import pytest

from tests.helpers import (
    WEB,
    CrudMixin,
    create_source,
    error,
    locked_display,
    locked_displays,
    make_mirror,
    make_wall,
    media_root,
    needs_ffmpeg,
    ok,
    signage_source,
    url,
    write_mp4,
    write_png,
)

FORMS = ["byname", "byid"]


@pytest.fixture
def mirror(api):
    return make_mirror(api, "Reception – pair", count=2)


@pytest.fixture
def web(api):
    return create_source(api, WEB, "Page")


def mpath(mirror, form, suffix=""):
    base = (
        url("mirrorgroups", "byname", mirror.name)
        if form == "byname"
        else url("mirrorgroups", mirror.id)
    )
    return base + (f"/{suffix}" if suffix else "")


def missing(form, suffix=""):
    base = "/mirrorgroups/byname/Nowhere" if form == "byname" else "/mirrorgroups/nowhere"
    return base + (f"/{suffix}" if suffix else "")


class TestMirrorCrud(CrudMixin):
    collection = "/mirrorgroups"
    list_key = "mirrorgroups"

    def create_body(self, client, name):
        return {"name": name, "displayIds": locked_displays(client, 1)}


def test_list_items_are_id_and_name(api, mirror):
    assert ok(api.get("/mirrorgroups")) == {
        "mirrorgroups": [{"id": mirror.id, "name": mirror.name}]
    }


@pytest.mark.parametrize("form", FORMS)
def test_get(api, mirror, form):
    body = ok(api.get(mpath(mirror, form)))
    assert body["id"] == mirror.id and body["name"] == mirror.name
    error(api.get(missing(form)), 404)


@pytest.mark.parametrize("form", FORMS)
def test_play_with_selector_plays_on_every_member(api, mirror, web, form):
    ok(api.put(mpath(mirror, form, "play"), json={"sourceId": web["sourceId"]}))
    for display in mirror.displays:
        assert ok(api.get(f"/displays/{display}"))["playingSourceId"] == web["sourceId"]
    ok(api.put(mpath(mirror, form, "pause")))
    assert ok(api.get(mpath(mirror, form)))["isPlaying"] is False
    ok(api.put(mpath(mirror, form, "resume")))
    assert ok(api.get(mpath(mirror, form)))["isPlaying"] is True


@pytest.mark.parametrize("form", FORMS)
def test_play_assigned(api, mirror, web, form):
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


@needs_ffmpeg
@pytest.mark.parametrize("form", FORMS)
def test_seek_forward_rewind_mediainfo(api, mirror, form):
    root = media_root(api)
    write_mp4(root, "m.mp4", seconds=3)
    write_png(root, "m.png")
    source = signage_source(api, "Mirror slides", "m.mp4", "m.png", interval=2)
    ok(api.put(mpath(mirror, form, "play"), json={"sourceName": "Mirror slides"}))
    ok(api.put(mpath(mirror, form, "pause")))
    body = ok(api.put(mpath(mirror, form, "seek"), json={"time": 1000}))
    assert body == {
        "filename": "m.mp4",
        "totalDurationInMillliseconds": 3000,
        "currentTimeInMilliseconds": 1000,
    }
    body = ok(api.put(mpath(mirror, form, "forward"), json={"time": 2500}))
    assert body == {
        "filename": "m.png",
        "totalDurationInMillliseconds": 2000,
        "currentTimeInMilliseconds": 500,
    }
    body = ok(api.put(mpath(mirror, form, "rewind"), json={"time": 600}))
    assert body["filename"] == "m.mp4" and body["currentTimeInMilliseconds"] == 2900
    assert ok(api.get(mpath(mirror, form, "mediainfo"))) == body
    for display in mirror.displays:
        assert ok(api.get(f"/displays/{display}/mediainfo")) == body
    assert source["sourceId"]


@pytest.mark.parametrize("form", FORMS)
def test_play_video_list(api, mirror, form):
    write_png(media_root(api), "v.png")
    ok(api.put(mpath(mirror, form, "playVideoList"), json={"videolist": ["v.png"]}))
    assert ok(api.get(mpath(mirror, form, "mediainfo")))["filename"] == "v.png"


@pytest.mark.parametrize("form", FORMS)
def test_mediainfo_404_says_zone_not_found(api, mirror, form):
    message = error(api.get(missing(form, "mediainfo")), 404)
    assert "zone" in message.casefold() and "not found" in message.casefold()


@pytest.mark.parametrize("form", FORMS)
def test_operations_on_unknown_group_404(api, mirror, form):
    for suffix, body in [
        ("play", None),
        ("pause", None),
        ("resume", None),
        ("seek", {"time": 0}),
        ("forward", {"time": 0}),
        ("rewind", {"time": 0}),
        ("playVideoList", {"videolist": ["v.png"]}),
    ]:
        error(api.put(missing(form, suffix), json=body), 404)


def test_membership_rules(api, mirror):
    wall = make_wall(api)
    error(
        api.post("/mirrorgroups", json={"name": "On wall", "displayIds": [wall.displays[0]]}), 409
    )
    error(
        api.post("/mirrorgroups", json={"name": "Taken", "displayIds": [mirror.displays[0]]}),
        409,
        mirror.name,
    )
    error(api.post("/mirrorgroups", json={"name": "Ghost", "displayIds": [999]}), 404)
    display = locked_display(api)
    error(api.post("/mirrorgroups", json={"name": "Twice", "displayIds": [display, display]}), 400)
    assert len(ok(api.get("/mirrorgroups"))["mirrorgroups"]) == 1


def test_update_and_delete(api, mirror):
    extra = locked_display(api)
    body = ok(
        api.put(
            url("mirrorgroups", mirror.id),
            json={"name": "Renamed", "displayIds": [mirror.displays[0], extra]},
        )
    )
    assert body["name"] == "Renamed"
    assert body["displayIds"] == [mirror.displays[0], extra]
    assert ok(api.get(url("mirrorgroups", "byname", "Renamed")))["id"] == mirror.id
    error(api.get(url("mirrorgroups", "byname", mirror.name)), 404)
    ok(api.delete(url("mirrorgroups", mirror.id)))
    assert ok(api.get("/mirrorgroups")) == {"mirrorgroups": []}
    # freed displays may join a wall
    ok(
        api.post(
            "/videowalls",
            json={
                "name": "W",
                "monitors": [
                    {
                        "displayId": extra,
                        "monitorGeometry": {"width": 1, "height": 1, "centerX": 0, "centerY": 0},
                    }
                ],
            },
        )
    )
