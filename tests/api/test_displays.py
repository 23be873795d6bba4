"""Displays: list and station types, read, switch, playback control with real media
durations, settings, tag, reset."""

import pytest

from tests.helpers import (
    WEB,
    create_source,
    error,
    host_of,
    locked_display,
    locked_displays,
    make_mirror,
    make_wall,
    media_root,
    needs_ffmpeg,
    ok,
    signage_source,
    write_mp4,
    write_png,
)

DISPLAY_FIELDS = {"displayId", "seatId", "isOnline", "playingSourceId", "isShowingWelcomeScreen"}


@pytest.fixture
def display(api):
    return locked_display(api)


@pytest.fixture
def web(api):
    return create_source(api, WEB, "Welcome page")


def info(api, display):
    return ok(api.get(f"/displays/{display}/mediainfo"))


# list and read


def test_list_shape(api, display):
    displays = ok(api.get("/displays"))["displays"]
    assert len(displays) == 1
    item = displays[0]
    assert set(item) == DISPLAY_FIELDS | {"stationType"}
    assert item["displayId"] == display
    assert item["stationType"] == "STANDALONE"
    assert item["isOnline"] is True
    assert item["playingSourceId"] == ""
    assert isinstance(item["isShowingWelcomeScreen"], bool)


def test_station_types(api):
    wall = make_wall(api, zones={"Top": [0, 1]})
    standalone = locked_display(api)
    types = {d["displayId"]: d["stationType"] for d in ok(api.get("/displays"))["displays"]}
    assert types[standalone] == "STANDALONE"
    assert types[wall.displays[0]] == "VIDEOWALL"
    assert types[wall.displays[1]] == "VIDEOWALL"
    assert types[wall.displays[2]] == "VIDEOWALL_ZONE_INACTIVE"
    assert types[wall.displays[3]] == "VIDEOWALL_ZONE_INACTIVE"


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


def test_get_display_without_station_type(api, display):
    body = ok(api.get(f"/displays/{display}"))
    assert set(body) == DISPLAY_FIELDS
    assert body["displayId"] == display


@pytest.mark.parametrize("key", ["999", "abc", "-1", "1.5"])
def test_unknown_display_404(api, key):
    error(api.get(f"/displays/{key}"), 404, "not found")


# switch


def test_switch_by_query_id(api, display, web):
    body = ok(
        api.put(f"/displays/{display}/switch", params={"destinationSourceId": web["sourceId"]})
    )
    assert set(body) == DISPLAY_FIELDS
    assert body["playingSourceId"] == web["sourceId"]
    assert body["isShowingWelcomeScreen"] is False
    assert ok(api.get(f"/displays/{display}"))["playingSourceId"] == web["sourceId"]


def test_switch_by_query_name(api, display, web):
    body = ok(
        api.put(f"/displays/{display}/switch", params={"destinationSourceName": "Welcome page"})
    )
    assert body["playingSourceId"] == web["sourceId"]


def test_switch_by_body(api, display, web):
    other = create_source(api, WEB, "Second page")
    assert (
        ok(api.put(f"/displays/{display}/switch", json={"sourceId": web["sourceId"]}))[
            "playingSourceId"
        ]
        == web["sourceId"]
    )
    assert (
        ok(api.put(f"/displays/{display}/switch", json={"sourceName": "Second page"}))[
            "playingSourceId"
        ]
        == other["sourceId"]
    )


def test_switch_without_destination_400(api, display):
    error(api.put(f"/displays/{display}/switch"), 400, "destinationSourceId")
    error(api.put(f"/displays/{display}/switch", json={}), 400, "destinationSourceId")


def test_switch_unknown_display_or_source_404(api, display, web):
    error(api.put("/displays/999/switch", params={"destinationSourceId": web["sourceId"]}), 404)
    error(api.put(f"/displays/{display}/switch", params={"destinationSourceId": "nope"}), 404)
    error(api.put(f"/displays/{display}/switch", params={"destinationSourceName": "nope"}), 404)


def test_switch_with_welcome_screen(api, display, web):
    body = ok(
        api.put(
            f"/displays/{display}/switch",
            params={"destinationSourceId": web["sourceId"], "isShowWelcomeScreen": "true"},
        )
    )
    assert body["isShowingWelcomeScreen"] is True
    # play then plays the source that was assigned
    ok(api.put(f"/displays/{display}/play"))
    shown = ok(api.get(f"/displays/{display}"))
    assert shown["isShowingWelcomeScreen"] is False
    assert shown["playingSourceId"] == web["sourceId"]


def test_switch_display_in_zone_switches_the_zone(api, web):
    wall = make_wall(api)
    member = wall.displays[0]
    ok(api.put(f"/displays/{member}/switch", params={"destinationSourceId": web["sourceId"]}))
    zone = ok(api.get(f"/zones/{wall.zone_id('Left')}"))
    assert zone["playingSourceId"] == web["sourceId"]
    assert ok(api.get(f"/displays/{wall.displays[2]}"))["playingSourceId"] == web["sourceId"]


# play, pause, resume


def test_play_without_assigned_source_409(api, display):
    error(api.put(f"/displays/{display}/play"), 409)


def test_play_with_selector_switches(api, display, web):
    ok(api.put(f"/displays/{display}/play", json={"sourceName": "Welcome page"}))
    assert ok(api.get(f"/displays/{display}"))["playingSourceId"] == web["sourceId"]


def test_pause_resume(api, display):
    write_png(media_root(api), "a.png")
    write_png(media_root(api), "b.png")
    source = signage_source(api, "Slides", "a.png", "b.png", interval=5)
    ok(api.put(f"/displays/{display}/switch", params={"destinationSourceId": source["sourceId"]}))
    ok(api.put(f"/displays/{display}/pause"))
    first = info(api, display)["currentTimeInMilliseconds"]
    second = info(api, display)["currentTimeInMilliseconds"]
    assert first == second  # paused: the position holds
    ok(api.put(f"/displays/{display}/resume"))
    assert ok(api.get(f"/displays/{display}"))["playingSourceId"] == source["sourceId"]


def test_pause_when_nothing_plays_409(api, display):
    error(api.put(f"/displays/{display}/pause"), 409)
    error(api.put(f"/displays/{display}/resume"), 409)


# media info, seek, forward, rewind


def test_mediainfo_nothing_playing(api, display):
    body = info(api, display)
    assert set(body) == {"filename", "totalDurationInMillliseconds", "currentTimeInMilliseconds"}
    assert body["filename"] == ""


def test_mediainfo_non_signage_minus_one(api, display, web):
    ok(api.put(f"/displays/{display}/switch", params={"destinationSourceId": web["sourceId"]}))
    assert info(api, display)["totalDurationInMillliseconds"] == -1


def test_mediainfo_unknown_display_404(api):
    error(api.get("/displays/999/mediainfo"), 404)


@pytest.fixture
def slideshow(api, display):
    """A paused signage playlist: red.png (4 s), clip.mp4 (3 s), blue.png (4 s)."""
    root = media_root(api)
    write_png(root, "red.png", (255, 0, 0))
    write_mp4(root, "clip.mp4", seconds=3)
    write_png(root, "blue.png", (0, 0, 255))
    source = signage_source(api, "Mixed", "red.png", "clip.mp4", "blue.png", interval=4)
    ok(api.put(f"/displays/{display}/switch", params={"destinationSourceId": source["sourceId"]}))
    ok(api.put(f"/displays/{display}/pause"))
    ok(api.put(f"/displays/{display}/seek", json={"time": 0}))
    return source


@needs_ffmpeg
def test_seek_forward_rewind_with_real_durations(api, display, slideshow):
    assert info(api, display) == {
        "filename": "red.png",
        "totalDurationInMillliseconds": 4000,
        "currentTimeInMilliseconds": 0,
    }
    body = ok(api.put(f"/displays/{display}/seek", json={"time": 5500}))
    assert body == {
        "filename": "clip.mp4",
        "totalDurationInMillliseconds": 3000,
        "currentTimeInMilliseconds": 1500,
    }
    assert info(api, display) == body
    body = ok(api.put(f"/displays/{display}/forward", json={"time": 2000}))
    assert body == {
        "filename": "blue.png",
        "totalDurationInMillliseconds": 4000,
        "currentTimeInMilliseconds": 500,
    }
    body = ok(api.put(f"/displays/{display}/rewind", json={"time": 1000}))
    assert body == {
        "filename": "clip.mp4",
        "totalDurationInMillliseconds": 3000,
        "currentTimeInMilliseconds": 2500,
    }
    # rewinding past the start holds at the start
    body = ok(api.put(f"/displays/{display}/rewind", json={"time": 60_000}))
    assert body["filename"] == "red.png" and body["currentTimeInMilliseconds"] == 0


@needs_ffmpeg
def test_signage_repeats(api, display, slideshow):
    # 11 s in total: 12.5 s is 1.5 s into the second pass
    body = ok(api.put(f"/displays/{display}/seek", json={"time": 12_500}))
    assert body["filename"] == "red.png"
    assert body["currentTimeInMilliseconds"] == 1500


@needs_ffmpeg
def test_playing_position_advances(api, display, slideshow):
    ok(api.put(f"/displays/{display}/resume"))
    import time

    time.sleep(0.3)
    assert info(api, display)["currentTimeInMilliseconds"] >= 250


def test_seek_negative_or_malformed_400(api, display):
    write_png(media_root(api), "a.png")
    source = signage_source(api, "Slides", "a.png")
    ok(api.put(f"/displays/{display}/switch", params={"destinationSourceId": source["sourceId"]}))
    error(api.put(f"/displays/{display}/seek", json={"time": -5}), 400)
    error(api.put(f"/displays/{display}/forward", json={"time": -5}), 400)
    error(api.put(f"/displays/{display}/seek", json={"time": "soon"}), 400)
    error(api.put(f"/displays/{display}/seek", json={}), 400, "time")


def test_seek_on_web_source_409(api, display, web):
    ok(api.put(f"/displays/{display}/switch", params={"destinationSourceId": web["sourceId"]}))
    error(api.put(f"/displays/{display}/seek", json={"time": 1000}), 409)


@needs_ffmpeg
def test_play_video_list(api, display):
    root = media_root(api)
    write_mp4(root, "videos/intro.mp4", seconds=2)
    write_png(root, "videos/card.png")
    ok(
        api.put(
            f"/displays/{display}/playVideoList",
            json={
                "videolist": ["videos/intro.mp4", "videos/card.png"],
                "queue": False,
                "repeat": False,
                "slideshowInterval": 3,
            },
        )
    )
    ok(api.put(f"/displays/{display}/pause"))
    ok(api.put(f"/displays/{display}/seek", json={"time": 0}))
    assert info(api, display) == {
        "filename": "videos/intro.mp4",
        "totalDurationInMillliseconds": 2000,
        "currentTimeInMilliseconds": 0,
    }
    body = ok(api.put(f"/displays/{display}/seek", json={"time": 2500}))
    assert body["filename"] == "videos/card.png"
    assert body["totalDurationInMillliseconds"] == 3000
    # without repeat, seeking past the end holds the last item at its end
    body = ok(api.put(f"/displays/{display}/seek", json={"time": 99_000}))
    assert body["filename"] == "videos/card.png"
    # a video list is not a source
    assert ok(api.get(f"/displays/{display}"))["playingSourceId"] == ""


def test_play_video_list_queue_appends(api, display):
    root = media_root(api)
    for name in ("1.png", "2.png", "3.png"):
        write_png(root, name)
    ok(
        api.put(
            f"/displays/{display}/playVideoList",
            json={"videolist": ["1.png"], "slideshowInterval": 2},
        )
    )
    ok(
        api.put(
            f"/displays/{display}/playVideoList",
            json={"videolist": ["2.png", "3.png"], "queue": True, "slideshowInterval": 2},
        )
    )
    ok(api.put(f"/displays/{display}/pause"))
    assert ok(api.put(f"/displays/{display}/seek", json={"time": 4500}))["filename"] == "3.png"


@pytest.mark.parametrize(
    "body",
    [
        {"videolist": []},
        {"videolist": ["missing.png"]},
        {"videolist": ["../../etc/passwd"]},
        {"videolist": ["a.png"], "slideshowInterval": 0},
        {"queue": True},
    ],
    ids=["empty", "missing-file", "outside-library", "zero-interval", "no-list"],
)
def test_play_video_list_refused(api, display, body):
    write_png(media_root(api), "a.png")
    response = api.put(f"/displays/{display}/playVideoList", json=body)
    assert response.status_code in (400, 404), response.text
    error(response, response.status_code)
    assert info(api, display)["filename"] == ""


# settings, tag, reset


def test_settings(api, display):
    body = ok(api.get(f"/displays/{display}/settings"))
    assert body["displayId"] == display
    assert body["currentResolution"] == {"width": 1920, "height": 1080}
    assert {"width": 1280, "height": 720} in body["availableResolutions"]
    changed = ok(api.put(f"/displays/{display}/settings", json={"width": 1280, "height": 720}))
    assert changed["currentResolution"] == {"width": 1280, "height": 720}
    assert ok(api.get(f"/displays/{display}/settings"))["currentResolution"] == {
        "width": 1280,
        "height": 720,
    }


def test_settings_unavailable_resolution_400(api, display):
    error(
        api.put(f"/displays/{display}/settings", json={"width": 1024, "height": 768}),
        400,
        "1280x720",
    )
    assert ok(api.get(f"/displays/{display}/settings"))["currentResolution"]["width"] == 1920
    error(api.put(f"/displays/{display}/settings", json={"width": 0, "height": 768}), 400)
    error(api.put(f"/displays/{display}/settings", json={"width": "wide"}), 400)


def test_settings_404(api):
    error(api.get("/displays/999/settings"), 404)
    error(api.put("/displays/999/settings", json={"width": 1280, "height": 720}), 404)


def test_tag(api, display):
    assert ok(api.get(f"/displays/{display}/tag"))["displayTag"] == ""
    ok(api.put(f"/displays/{display}/tag", json={"displayTag": "Lobby — left ✓"}))
    assert ok(api.get(f"/displays/{display}/tag"))["displayTag"] == "Lobby — left ✓"
    error(api.put(f"/displays/{display}/tag", json={"displayTag": "x" * 1000}), 400)
    assert ok(api.get(f"/displays/{display}/tag"))["displayTag"] == "Lobby — left ✓"
    error(api.get("/displays/999/tag"), 404)
    error(api.put("/displays/999/tag", json={"displayTag": "x"}), 404)


def test_reset(api, display):
    commands = []
    unsubscribe = host_of(api).core.on_command(lambda seat, name: commands.append(name))
    try:
        ok(api.put(f"/displays/{display}/reset"))
    finally:
        unsubscribe()
    assert commands == ["reset"]
    error(api.put("/displays/999/reset"), 404)


def test_every_display_operation_404_for_unknown_display(api):
    for suffix, body in [
        ("play", None),
        ("pause", None),
        ("resume", None),
        ("seek", {"time": 1}),
        ("forward", {"time": 1}),
        ("rewind", {"time": 1}),
        ("playVideoList", {"videolist": ["a.png"]}),
    ]:
        error(api.put(f"/displays/999/{suffix}", json=body), 404)


def test_several_displays_independent(api, web):
    first, second = locked_displays(api, 2)
    ok(api.put(f"/displays/{first}/switch", params={"destinationSourceId": web["sourceId"]}))
    assert ok(api.get(f"/displays/{second}"))["playingSourceId"] == ""


def test_wall_display_in_no_zone_cannot_play(api):
    from tests.helpers import create_source, locked_displays, wall_body

    ids = locked_displays(api, 2)
    wall = ok(api.post("/videowalls", json=wall_body("Idle wall", ids)))
    assert wall["zones"] == []
    source = create_source(api, WEB, "Idle page")
    message = error(
        api.put(f"/displays/{ids[0]}/switch", params={"destinationSourceId": source["sourceId"]}),
        409,
        "no zone",
    )
    assert "Idle wall" in message
    shown = ok(api.get(f"/displays/{ids[0]}"))
    assert shown["playingSourceId"] == ""
