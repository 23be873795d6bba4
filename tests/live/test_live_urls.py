"""Stream sources' URLs over the interface: which are accepted (form only, never
reachability), which refused with a 400 that says why, and which the receivers are told
to take from the host as live frames rather than play as a file."""

import pytest

from tests.support.http import error, ok
from tests.support.sources import RTSP, STREAMER, control_body, param_value, source_body
from tests.support.targets import make_target, shown_source, switch
from tests.support.topology import make_wall, unique

LIVE_URLS = [
    "rtsp://camera.example/stream1",
    "rtsp://admin:s3cret@192.0.2.10:554/Streaming/Channels/101",
    "rtsps://camera.example:322/live",
    "srt://encoder.example:9000?mode=caller&latency=50",
    "srt://:9000?mode=listener",
    "rtmp://media.example/live/key",
    "rtmps://media.example/live/key",
    "udp://@239.1.1.1:5000",
    "udp://0.0.0.0:5000",
    "rtp://239.1.1.2:5004",
    "https://cdn.example/live/index.m3u8",
    "http://encoder.example:8080/stream.ts",
    "http://encoder.example:8080/feed#live",
]
FILE_URLS = ["/media/clips/loop.mp4", "https://cdn.example/video.mp4"]
REFUSED = [
    ("file:///etc/passwd", "must be a"),
    ("concat:/media/a.mp4|/etc/passwd", "must be a"),
    ("data:video/mp4;base64,AAAA", "must be a"),
    ("subfile,,start,0,end,100,,:/etc/passwd", "must be a"),
    ("pipe:0", "must be a"),
    ("ftp://files.example/a.ts", "must be a"),
    ("rtsp://", "must name a host"),
    ("udp://239.1.1.1", "must name a port"),
    ("rtsp://camera.example:99999/x", "port"),
    ("rtsp://camera.example/a b", "spaces"),
    ("", "URL"),
]


@pytest.mark.parametrize("url", LIVE_URLS + FILE_URLS)
@pytest.mark.parametrize("kind", [STREAMER, RTSP])
def test_stream_urls_accepted_as_given(api, kind, url):
    created = ok(api.post("/sources", json=source_body(kind, unique("Cam"), URL=url)))
    assert param_value(created, "URL") == url
    if kind == RTSP:
        assert param_value(created, "Transport") == "auto"


@pytest.mark.parametrize(("url", "why"), REFUSED)
def test_other_urls_refused_with_a_reason(api, url, why):
    for kind in (STREAMER, RTSP):
        message = error(api.post("/sources", json=source_body(kind, "Bad", URL=url)), 400, why)
        assert "URL" in message
    # an update is held to the same rule
    good = ok(api.post("/sources", json=source_body(RTSP, unique("Cam"), URL=LIVE_URLS[0])))
    bad = source_body(RTSP, good["sourceName"], URL=url)
    error(api.put(f"/sources/{good['sourceId']}", json=bad), 400, why)


def test_refusal_hides_the_credentials(api):
    url = "ftp://admin:hunter2@camera.example/x?password=swordfish"
    message = error(api.post("/sources", json=source_body(RTSP, "Bad", URL=url)), 400, "URL")
    assert "hunter2" not in message and "swordfish" not in message and "admin" not in message


def test_transport_is_one_of_auto_tcp_udp(api):
    for transport in ("tcp", "udp"):
        body = source_body(RTSP, unique("Cam"), URL=LIVE_URLS[0], Transport=transport)
        assert param_value(ok(api.post("/sources", json=body)), "Transport") == transport
    body = source_body(RTSP, "Cam", URL=LIVE_URLS[0], Transport="http")
    error(api.post("/sources", json=body), 400, "Transport")


def test_a_web_page_still_takes_only_http(api):
    body = source_body("Web Browser", "Page", URL="rtsp://camera.example/stream")
    error(api.post("/sources", json=body), 400, "http(s)")


@pytest.mark.parametrize("kind", ["display", "zone by id", "mirror group by id"])
def test_live_urls_rendered_as_live_frames_from_the_host(api, kind):
    target = make_target(api, kind)
    for url in ("rtsp://admin:s3cret@camera.example/stream", "https://cdn.example/live.m3u8"):
        created = ok(api.post("/sources", json=source_body(RTSP, unique("Cam"), URL=url)))
        switch(api, target, created)
        for display in target.displays:
            shown = shown_source(api, display)
            assert shown == {
                "type": "live",
                "sourceId": created["sourceId"],
                "name": created["sourceName"],
                "url": f"/live/{created['sourceId']}",
                "muted": True,
            }


def test_file_urls_still_played_by_the_receiver(api):
    target = make_target(api, "display")
    for url in FILE_URLS:
        created = ok(api.post("/sources", json=source_body(STREAMER, unique("Clip"), URL=url)))
        switch(api, target, created)
        shown = shown_source(api, target.displays[0])
        assert shown["type"] == "stream" and shown["url"] == url


def test_a_whole_wall_and_a_layout_window_show_a_live_source(api):
    wall = make_wall(api, unique("Wall"), zones={"Whole": [0, 1, 2, 3]})
    cam = ok(api.post("/sources", json=source_body(RTSP, unique("Cam"), URL=LIVE_URLS[1])))
    live = {"type": "live", "url": f"/live/{cam['sourceId']}"}
    zone = wall.zone_id("Whole")
    ok(api.put(f"/zones/{zone}/switch", params={"destinationSourceId": cam["sourceId"]}))
    for display in wall.displays:
        assert live.items() <= shown_source(api, display).items()
    window = {"sourceId": cam["sourceId"], "x": 0, "y": 0, "width": 0.5, "height": 0.5}
    layout = ok(api.post("/controlroom/layouts", json={"name": unique("L"), "windows": [window]}))
    room = ok(api.post("/sources", json=control_body(unique("Room"), [layout["id"]])))
    ok(api.put(f"/zones/{zone}/switch", params={"destinationSourceId": room["sourceId"]}))
    shown = shown_source(api, wall.displays[0])
    assert shown["type"] == "layout"
    assert live.items() <= shown["windows"][0]["source"].items()
