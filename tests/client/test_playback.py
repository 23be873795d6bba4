"""Switching and playback control of displays, zones and mirror groups, through the
client, on the demo topology; each operation once as it succeeds and once as it fails."""

from __future__ import annotations

import pytest

from tests.client.conftest import by_name, refused
from tilewall.client import Client

SLIDES = ["demo/quadrants.png", "demo/pattern.png"]


@pytest.fixture(scope="module")
def ids(client: Client) -> dict[str, str]:
    """Source ids by name."""
    return {s["sourceName"]: s["sourceId"] for s in client.sources.list()}


def test_displays_list_show_and_switch(client: Client, ids: dict[str, str]) -> None:
    listed = client.displays.list()
    assert {d["stationType"] for d in listed} == {"VIDEOWALL", "STANDALONE"}
    assert [d["displayId"] for d in client.displays.list(standalone_only=True)] == [5, 6]
    shown = client.displays.get(5)
    assert shown["seatId"] == "demo-5" and "stationType" not in shown
    switched = client.displays.switch("5", "Project Page")
    assert switched["playingSourceId"] == ids["Project Page"]
    assert (
        client.displays.switch(5, source_id=ids["Welcome Slides"])["playingSourceId"]
        == (ids["Welcome Slides"])
    )
    assert client.displays.switch(5, "Project Page", welcome=True)["isShowingWelcomeScreen"]
    refused(lambda: client.displays.switch(5), 400, "destinationSourceId")
    refused(lambda: client.displays.switch(5, "No such source"), 404, "source")
    refused(lambda: client.displays.switch(42, "Project Page"), 404, "display 42")


def test_display_playback(client: Client, ids: dict[str, str]) -> None:
    played = client.displays.play(6, "Welcome Slides")
    assert played["playingSourceId"] == ids["Welcome Slides"]
    assert client.displays.play(6, source_id=ids["Welcome Slides"])["playingSourceId"]
    assert client.displays.play(6)["displayId"] == 6
    assert client.displays.play_video_list(6, SLIDES, repeat=True, interval=20)["displayId"] == 6
    assert client.displays.pause(6)["displayId"] == 6  # paused, positions hold still
    assert client.displays.seek(6, 7000)["currentTimeInMilliseconds"] == 7000
    assert client.displays.forward(6, 1000)["currentTimeInMilliseconds"] == 8000
    assert client.displays.rewind(6, 3000)["currentTimeInMilliseconds"] == 5000
    info = client.displays.media_info(6)
    assert info["filename"] == "demo/quadrants.png" and info["currentTimeInMilliseconds"] == 5000
    assert client.displays.resume(6)["displayId"] == 6
    assert client.displays.reset(6)["displayId"] == 6
    refused(lambda: client.displays.rewind(6, -1), 400, "time", ">= 0")
    refused(lambda: client.displays.play_video_list(6, ["../outside.png"]), 400)
    for call in (
        client.displays.pause,
        client.displays.resume,
        client.displays.reset,
        client.displays.media_info,
        client.displays.play,
    ):
        refused(lambda call=call: call(77), 404, "display 77")  # type: ignore[misc]
    refused(lambda: client.displays.seek(77, 0), 404)
    refused(lambda: client.displays.forward(77, 0), 404)


def test_display_settings_tag_and_render(client: Client) -> None:
    settings = client.displays.settings(1)
    assert {"width": 1280, "height": 720} in settings["availableResolutions"]
    changed = client.displays.set_resolution(1, 1280, 720)
    assert changed["currentResolution"] == {"width": 1280, "height": 720}
    assert client.displays.set_tag(1, "lobby-left")["displayTag"] == "lobby-left"
    assert client.displays.tag(1)["displayTag"] == "lobby-left"
    render = client.displays.render(1)
    assert render, render
    refused(lambda: client.displays.set_resolution(1, 1, 1), 400)
    refused(lambda: client.displays.settings(50), 404)
    refused(lambda: client.displays.tag(50), 404)
    refused(lambda: client.displays.set_tag(50, "x"), 404)
    refused(lambda: client.displays.render(50), 404)


def test_zones_by_name_by_id_and_auto(client: Client, ids: dict[str, str]) -> None:
    zones = client.zones.list()
    top = by_name(zones, "Lobby Top", "zoneName")
    assert client.zones.get(top["zoneId"])["zoneName"] == "Lobby Top"
    assert client.zones.get("Lobby Top", by="name")["zoneId"] == top["zoneId"]
    assert client.zones.get(top["zoneId"], by="id")["zoneName"] == "Lobby Top"
    refused(lambda: client.zones.get("Lobby Top", by="id"), 404)
    wall = client.zones.of_wall(top["videowallId"])
    assert {z["zoneName"] for z in wall} == {"Lobby Top", "Lobby Bottom"}
    refused(lambda: client.zones.of_wall("no-wall"), 404)

    switched = client.zones.switch("Lobby Top", "Project Page")
    assert switched["playingSourceId"] == ids["Project Page"] and switched["isPlaying"]
    by_id = client.zones.switch(top["zoneId"], source_id=ids["Welcome Slides"], by="id")
    assert by_id["playingSourceId"] == ids["Welcome Slides"]
    refused(lambda: client.zones.switch("Lobby Top", by="name"), 400, "destinationSourceName")
    refused(lambda: client.zones.switch(top["zoneId"], by="id"), 400, "destinationSourceId")
    refused(lambda: client.zones.switch("Lobby Top", "No such source"), 404, "source")
    refused(lambda: client.zones.switch("No zone", "Project Page"), 404, "zone")


def test_zone_playback(client: Client) -> None:
    top = by_name(client.zones.list(), "Lobby Top", "zoneName")["zoneId"]
    assert client.zones.stop("Lobby Top")["isPlaying"] is False
    assert client.zones.play("Lobby Top", "Welcome Slides")["isPlaying"]
    assert client.zones.play(top, by="id")["isPlaying"]
    assert client.zones.play_assigned("Lobby Top")["isPlaying"]
    assert client.zones.play_assigned(top)["isPlaying"]
    assert client.zones.play_video_list("Lobby Top", SLIDES, queue=False)["zoneName"] == (
        "Lobby Top"
    )
    assert client.zones.pause("Lobby Top")["zoneName"] == "Lobby Top"
    assert client.zones.seek("Lobby Top", 2000)["currentTimeInMilliseconds"] == 2000
    assert client.zones.forward(top, 500)["currentTimeInMilliseconds"] == 2500
    assert client.zones.rewind("Lobby Top", 1000)["currentTimeInMilliseconds"] == 1500
    assert client.zones.media_info("Lobby Top")["currentTimeInMilliseconds"] == 1500
    assert client.zones.resume("Lobby Top")["isPlaying"]
    for name in ("stop", "pause", "resume", "media_info", "play", "play_assigned"):
        refused(lambda name=name: getattr(client.zones, name)("Nowhere"), 404, "zone")  # type: ignore[misc]
    refused(lambda: client.zones.play_video_list("Nowhere", SLIDES), 404)
    refused(lambda: client.zones.seek("Nowhere", 1), 404)
    refused(lambda: client.zones.forward("Nowhere", 1), 404)
    refused(lambda: client.zones.rewind("Nowhere", 1), 404)


def test_zone_rename_by_name_and_by_id(client: Client) -> None:
    bottom = by_name(client.zones.list(), "Lobby Bottom", "zoneName")["zoneId"]
    assert client.zones.rename("Lobby Bottom", "Lower")["zoneName"] == "Lower"
    assert client.zones.rename(bottom, "Lobby Bottom", by="id")["zoneName"] == "Lobby Bottom"
    refused(lambda: client.zones.rename("Lobby Bottom", "Lobby Top"), 409)
    refused(lambda: client.zones.rename("Lobby Bottom", " "), 400, "newZoneName")


def test_mirror_groups(client: Client, ids: dict[str, str]) -> None:
    group = by_name(client.mirrorgroups.list(), "Reception")
    assert client.mirrorgroups.get("Reception")["displayIds"] == [5, 6]
    assert client.mirrorgroups.get(group["id"], by="id")["name"] == "Reception"
    played = client.mirrorgroups.play("Reception", "Demo Clip")
    assert played["playingSourceId"] == ids["Demo Clip"]
    refused(lambda: client.mirrorgroups.seek("Reception", 1000), 409, "signage")
    assert client.mirrorgroups.play(group["id"], source_id=ids["Welcome Slides"], by="id")
    assert client.mirrorgroups.play_video_list("Reception", SLIDES, repeat=True)["isPlaying"]
    assert client.mirrorgroups.pause("Reception")["isPlaying"] is False
    assert client.mirrorgroups.seek("Reception", 3000)["currentTimeInMilliseconds"] == 3000
    assert client.mirrorgroups.forward("Reception", 1000)["currentTimeInMilliseconds"] == 4000
    assert client.mirrorgroups.rewind("Reception", 4000)["currentTimeInMilliseconds"] == 0
    assert client.mirrorgroups.media_info("Reception")["filename"] == "demo/quadrants.png"
    assert client.mirrorgroups.resume("Reception")["isPlaying"]
    refused(lambda: client.mirrorgroups.media_info("Nobody"), 404, "not found")
    for name in ("get", "play", "pause", "resume"):
        refused(lambda name=name: getattr(client.mirrorgroups, name)("Nobody"), 404)  # type: ignore[misc]
    refused(lambda: client.mirrorgroups.play_video_list("Nobody", SLIDES), 404)
    refused(lambda: client.mirrorgroups.forward("Nobody", 1), 404)
    refused(lambda: client.mirrorgroups.rewind("Nobody", 1), 404)
