"""The playback operations every target offers, tested once for all of them.

A target is what plays a source: a display, a zone (by id or by name) and a mirror group
(by id or by name). They share switch (mirror groups: play with a source instead), play,
playVideoList, pause, resume, stop (zones), rewind, forward, seek and mediainfo;
``PlaybackMixin`` runs each test against every target (``TARGETS``).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.support.http import Api, error, ok
from tests.support.media import media_root, write_mp4, write_png
from tests.support.sources import WEB, create_source
from tests.support.targets import (
    MEDIA_INFO,
    OPERATIONS,
    STOPPING,
    SWITCHING,
    TARGETS,
    Target,
    check_playing,
    info,
    is_playing,
    make_target,
    playing,
    slideshow,
    still,
    switch,
)
from tests.support.topology import unique


class PlaybackMixin:
    """Every playback operation, against every target (``kind``)."""

    @pytest.fixture(params=TARGETS)
    def target(self, request: pytest.FixtureRequest, api: Api) -> Target:
        return make_target(api, request.param)

    @pytest.fixture
    def web(self, api: Api) -> dict[str, Any]:
        return create_source(api, WEB, unique("Welcome page"))

    # --- switch -------------------------------------------------------------------------------

    @pytest.mark.parametrize("kind", SWITCHING)
    @pytest.mark.parametrize(
        "how",
        ["query id", "query name", "body id", "body name"],
    )
    def test_switch(self, api: Api, web: dict[str, Any], kind: str, how: str) -> None:
        target = make_target(api, kind)
        key = "sourceId" if how.endswith("id") else "sourceName"
        value = web[key]
        if how.startswith("query"):
            name = "destinationSourceId" if key == "sourceId" else "destinationSourceName"
            response = api.put(target.op("switch"), params={name: value})
        else:
            response = api.put(target.op("switch"), json={key: value})
        body = ok(response)
        check_playing(target, body, True)
        assert body["playingSourceId"] == web["sourceId"]
        if "isShowingWelcomeScreen" in body:
            assert body["isShowingWelcomeScreen"] is False
        # every display of the target shows it, the others of its wall do not
        assert [playing(api, d) for d in target.displays] == [web["sourceId"]] * len(
            target.displays
        )
        assert [playing(api, d) for d in target.idle] == [""] * len(target.idle)

    @pytest.mark.parametrize("kind", SWITCHING)
    def test_switch_without_destination_400_names_parameter(self, api: Api, kind: str) -> None:
        target = make_target(api, kind)
        error(api.put(target.op("switch")), 400, target.switch_parameter)
        error(api.put(target.op("switch"), json={}), 400, target.switch_parameter)

    @pytest.mark.parametrize("kind", SWITCHING)
    def test_switch_404s(self, api: Api, web: dict[str, Any], kind: str) -> None:
        target = make_target(api, kind)
        error(api.put(target.op("switch"), params={"destinationSourceId": "nope"}), 404)
        error(api.put(target.op("switch"), params={"destinationSourceName": "nope"}), 404)
        missing = f"{target.missing}/switch"
        error(api.put(missing, params={"destinationSourceId": web["sourceId"]}), 404)

    @pytest.mark.parametrize("kind", SWITCHING)
    def test_switch_to_the_welcome_screen_then_play(
        self, api: Api, web: dict[str, Any], kind: str
    ) -> None:
        target = make_target(api, kind)
        answer = switch(api, target, web, isShowWelcomeScreen="true")
        if "isShowingWelcomeScreen" in answer:
            assert answer["isShowingWelcomeScreen"] is True
        shown = ok(api.get(target.item))
        assert shown["isShowingWelcomeScreen"] is True
        assert shown.get("isPlaying", False) is False
        # play then plays the source that was assigned
        ok(api.put(target.op("play")))
        shown = ok(api.get(target.item))
        assert shown["isShowingWelcomeScreen"] is False
        assert shown["playingSourceId"] == web["sourceId"]
        assert playing(api, target.displays[-1]) == web["sourceId"]

    # --- play, pause, resume, stop --------------------------------------------------------------

    def test_play_without_assigned_source_409(self, api: Api, target: Target) -> None:
        error(api.put(target.op("play")), 409)

    @pytest.mark.parametrize("key", ["sourceId", "sourceName"])
    def test_play_with_a_source_plays_it_on_every_display(
        self, api: Api, target: Target, web: dict[str, Any], key: str
    ) -> None:
        check_playing(target, ok(api.put(target.op("play"), json={key: web[key]})), True)
        for display in target.displays:
            assert playing(api, display) == web["sourceId"]

    def test_pause_holds_the_position_and_resume_goes_on(self, api: Api, target: Target) -> None:
        source = still(api, target, "a.png", "b.png")
        check_playing(target, ok(api.put(target.op("pause"))), False)
        assert is_playing(api, target) in (False, None)
        first = info(api, target)["currentTimeInMilliseconds"]
        second = info(api, target)["currentTimeInMilliseconds"]
        assert first == second  # paused: the position holds
        check_playing(target, ok(api.put(target.op("resume"))), True)
        assert is_playing(api, target) in (True, None)
        assert ok(api.get(target.item))["playingSourceId"] == source["sourceId"]
        # paused, play goes on with the assigned source
        ok(api.put(target.op("pause")))
        body = ok(api.put(target.op("play")))
        check_playing(target, body, True)
        assert body["playingSourceId"] == source["sourceId"]

    def test_pause_and_resume_when_nothing_plays_409(self, api: Api, target: Target) -> None:
        error(api.put(target.op("pause")), 409)
        error(api.put(target.op("resume")), 409)

    @pytest.mark.parametrize("kind", STOPPING)
    def test_stop_then_play_the_assigned_source(
        self, api: Api, web: dict[str, Any], kind: str
    ) -> None:
        target = make_target(api, kind)
        switch(api, target, web)
        body = ok(api.put(target.op("stop")))
        check_playing(target, body, False)
        assert body["playingSourceId"] == ""
        assert [playing(api, d) for d in target.displays] == [""] * len(target.displays)
        body = ok(api.put(target.op("play")))
        check_playing(target, body, True)
        assert body["playingSourceId"] == web["sourceId"]

    # --- media info, seek, forward, rewind ------------------------------------------------------

    def test_mediainfo_when_nothing_plays(self, api: Api, target: Target) -> None:
        body = info(api, target)
        assert set(body) == MEDIA_INFO
        assert body["filename"] == ""

    def test_mediainfo_of_a_source_other_than_signage(
        self, api: Api, target: Target, web: dict[str, Any]
    ) -> None:
        switch(api, target, web)
        assert info(api, target)["totalDurationInMillliseconds"] == -1

    def test_seek_forward_rewind_with_real_durations(self, api: Api, target: Target) -> None:
        slideshow(api, target)
        assert info(api, target) == {
            "filename": "mixed/red.png",
            "totalDurationInMillliseconds": 4000,
            "currentTimeInMilliseconds": 0,
        }
        body = ok(api.put(target.op("seek"), json={"time": 5500}))
        assert body == {
            "filename": "mixed/clip.mp4",
            "totalDurationInMillliseconds": 3000,
            "currentTimeInMilliseconds": 1500,
        }
        assert info(api, target) == body
        body = ok(api.put(target.op("forward"), json={"time": 2000}))
        assert body == {
            "filename": "mixed/blue.png",
            "totalDurationInMillliseconds": 4000,
            "currentTimeInMilliseconds": 500,
        }
        body = ok(api.put(target.op("rewind"), json={"time": 1000}))
        assert body == {
            "filename": "mixed/clip.mp4",
            "totalDurationInMillliseconds": 3000,
            "currentTimeInMilliseconds": 2500,
        }
        # every display of the target reports the same
        assert info(api, target) == body
        for display in target.displays:
            assert ok(api.get(f"/displays/{display}/mediainfo")) == body
        # rewinding past the start holds at the start
        body = ok(api.put(target.op("rewind"), json={"time": 60_000}))
        assert body["filename"] == "mixed/red.png" and body["currentTimeInMilliseconds"] == 0

    def test_signage_repeats(self, api: Api, target: Target) -> None:
        slideshow(api, target)
        # 11 s in total: 12.5 s is 1.5 s into the second pass
        body = ok(api.put(target.op("seek"), json={"time": 12_500}))
        assert body["filename"] == "mixed/red.png"
        assert body["currentTimeInMilliseconds"] == 1500

    def test_playing_position_advances(self, api: Api, target: Target) -> None:
        slideshow(api, target)
        ok(api.put(target.op("resume")))
        time.sleep(0.3)
        assert info(api, target)["currentTimeInMilliseconds"] >= 250

    def test_seek_negative_or_malformed_400(self, api: Api, target: Target) -> None:
        still(api, target, "a.png")
        error(api.put(target.op("seek"), json={"time": -5}), 400)
        error(api.put(target.op("forward"), json={"time": -5}), 400)
        error(api.put(target.op("rewind"), json={"time": -5}), 400)
        error(api.put(target.op("seek"), json={"time": "soon"}), 400)
        error(api.put(target.op("seek"), json={}), 400, "time")

    def test_seek_on_a_web_source_409(self, api: Api, target: Target, web: dict[str, Any]) -> None:
        switch(api, target, web)
        error(api.put(target.op("seek"), json={"time": 1000}), 409)

    # --- video lists --------------------------------------------------------------------------

    def test_play_video_list_of_one_image(self, api: Api, target: Target) -> None:
        write_png(media_root(api), "one.png")
        body = ok(
            api.put(
                target.op("playVideoList"),
                json={"videolist": ["one.png"], "repeat": True, "slideshowInterval": 5},
            )
        )
        check_playing(target, body, True)
        assert info(api, target)["filename"] == "one.png"

    def test_play_video_list(self, api: Api, target: Target) -> None:
        root = media_root(api)
        write_mp4(root, "videos/intro.mp4", seconds=2)
        write_png(root, "videos/card.png")
        ok(
            api.put(
                target.op("playVideoList"),
                json={
                    "videolist": ["videos/intro.mp4", "videos/card.png"],
                    "queue": False,
                    "repeat": False,
                    "slideshowInterval": 3,
                },
            )
        )
        ok(api.put(target.op("pause")))
        ok(api.put(target.op("seek"), json={"time": 0}))
        assert info(api, target) == {
            "filename": "videos/intro.mp4",
            "totalDurationInMillliseconds": 2000,
            "currentTimeInMilliseconds": 0,
        }
        body = ok(api.put(target.op("seek"), json={"time": 2500}))
        assert body["filename"] == "videos/card.png"
        assert body["totalDurationInMillliseconds"] == 3000
        # without repeat, seeking past the end holds the last item at its end
        body = ok(api.put(target.op("seek"), json={"time": 99_000}))
        assert body["filename"] == "videos/card.png"
        # a video list is not a source
        assert ok(api.get(target.item))["playingSourceId"] == ""

    def test_play_video_list_queue_appends(self, api: Api, target: Target) -> None:
        root = media_root(api)
        for name in ("1.png", "2.png", "3.png"):
            write_png(root, name)
        ok(
            api.put(
                target.op("playVideoList"), json={"videolist": ["1.png"], "slideshowInterval": 2}
            )
        )
        ok(
            api.put(
                target.op("playVideoList"),
                json={"videolist": ["2.png", "3.png"], "queue": True, "slideshowInterval": 2},
            )
        )
        ok(api.put(target.op("pause")))
        assert ok(api.put(target.op("seek"), json={"time": 4500}))["filename"] == "3.png"

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
    def test_play_video_list_refused(self, api: Api, target: Target, body: dict[str, Any]) -> None:
        write_png(media_root(api), "a.png")
        response = api.put(target.op("playVideoList"), json=body)
        assert response.status_code in (400, 404), response.text
        error(response, response.status_code)
        assert info(api, target)["filename"] == ""

    # --- a target that does not exist ----------------------------------------------------------

    def test_every_operation_404_for_an_unknown_target(self, api: Api, target: Target) -> None:
        operations: list[tuple[str, Any]] = list(OPERATIONS)
        if target.switches:
            operations.append(("switch", {"sourceId": "x"}))
        if target.stops:
            operations.append(("stop", None))
        for name, body in operations:
            error(api.put(f"{target.missing}/{name}", json=body), 404)
        error(api.get(f"{target.missing}/mediainfo"), 404)
