"""The host's relay of live sources, driven as receivers drive it: a host served by
uvicorn, real WebSocket viewers of ``/live/<sourceId>``, live streams made by Debian's
ffmpeg (tests/support/live_publish.py)."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time

import pytest
from click.testing import CliRunner
from websockets.exceptions import InvalidStatus

from tests.support.http import ADMIN, PASSWORD, error, ok
from tests.support.live_publish import (
    Seen,
    audio_only,
    collect,
    http_ts,
    refusing,
    udp_ts,
    viewer,
)
from tests.support.server import running
from tests.support.sources import RTSP, body_of, source_body
from tests.support.topology import unique
from tests.support.waiting import wait_until
from tilewall.cli import main
from tilewall.live.feeds import LINGER_S
from tilewall.live.latency import START_MS, TARGET_MS

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    yield from running(tmp_path_factory, "live", in_process=True)


def _source(host, url: str, **params: str) -> str:
    body = body_of(RTSP, unique("Camera"), {"URL": url, **params})
    return str(ok(host.api.post("/sources", json=body))["sourceId"])


def _session(host) -> str:
    return str(host.api.session)


def _status(host, source_id: str) -> dict:
    return ok(host.api.get(f"/sources/{source_id}/status"))


def _counts(host, source_id: str):
    return host.app.state.live.counts[source_id]


def _frames(n: int):
    return lambda seen: len(seen.frames) >= n


async def test_one_pull_for_many_viewers_each_starting_on_a_key_frame(host):
    with http_ts("h264") as camera:
        source_id = _source(host, camera.url)
        assert _status(host, source_id)["state"] == "idle"
        async with viewer(host.url, source_id, _session(host)) as first:
            seen = await collect(first, Seen(), _frames(45))
            assert seen.configs()[0]["codec"].startswith("avc1.")
            assert seen.configs()[0]["codedWidth"] == 320
            assert seen.configs()[0]["codedHeight"] == 180
            assert seen.frames[0].key
            assert seen.frames[0].data.startswith(b"\x00\x00\x00\x01\x67")  # SPS in band
            status = _status(host, source_id)
            assert status["state"] == "live" and status["viewers"] == 1
            assert status["codec"] == "h264" and status["fps"] == 30
            assert status["bitrate"] > 0
            # tries before ffmpeg listened count too: none may be added by the joiners
            pulls = _counts(host, source_id).connections
            # four more join late; ffmpeg's server takes one connection only, so every
            # frame they get comes through the host's one pull
            others = [viewer(host.url, source_id, _session(host)) for _ in range(4)]
            sockets = [await o.__aenter__() for o in others]
            try:
                seens = await asyncio.gather(*(collect(s, Seen(), _frames(20)) for s in sockets))
                for late in seens:
                    first_frame = late.order.index(("frame", 0))
                    assert late.order[:first_frame] == [("text", 0), ("text", 1)]
                    assert late.texts[0]["type"] == "config" and late.frames[0].key
                assert _status(host, source_id)["viewers"] == 5
                assert _counts(host, source_id).connections == pulls
            finally:
                for o in others:
                    await o.__aexit__(None, None, None)
            # the others leaving (their connections' waits cancelled) leaves the first
            # one's connection and frames as they were
            await collect(first, seen, _frames(len(seen.frames) + 15))
        # frames are stamped on the host clock, a little after they arrived, in order (the
        # least late of them: this viewer read nothing while the others were served, and
        # on a loaded machine what queued meanwhile arrives here seconds after its stamp)
        ats = [f.at for f in seen.frames[-30:]]
        assert ats == sorted(ats)
        assert min(abs(f.received - f.at) for f in seen.frames[-30:]) < 1000
        steps = sorted(b - a for a, b in itertools.pairwise(ats))
        assert abs(steps[len(steps) // 2] - 1000 / 30) < 4  # in the stream's own rhythm


async def test_the_stream_closes_after_the_last_viewer_leaves(host):
    with http_ts("h264") as camera:
        source_id = _source(host, camera.url)
        relays = host.app.state.live.relays
        async with viewer(host.url, source_id, _session(host)) as socket:
            await collect(socket, Seen(), _frames(5))
            # taken before the close: the host lets the viewer go on the close's first
            # frame, while the client's close can take seconds more on a loaded machine
            # (its reply waits behind the frames queued for the client)
            left = time.monotonic()
        # it lingers a few seconds (a reload costs no reconnect), then lets go: the time
        # is taken on the host's own dict, as a loaded machine can make a status call
        # outlast the lingering
        wait_until(lambda: source_id not in relays, LINGER_S + 15, what="closing")
        assert time.monotonic() - left >= LINGER_S - 0.5
        assert _status(host, source_id)["state"] == "idle"
        # ffmpeg's one-connection server ends when its client goes
        process = camera.process
        assert process is not None
        wait_until(lambda: process.poll() is not None, 10, what="the server let go")


async def test_a_source_kept_open_is_pulled_before_anyone_shows_it(host):
    relays = host.app.state.live.relays
    with http_ts("h264") as camera:
        source_id = _source(host, camera.url, **{"Keep Open": "true"})
        wait_until(lambda: _status(host, source_id)["state"] == "live", 30, what="kept open")
        assert _status(host, source_id)["viewers"] == 0
        # a viewer starts from what the relay holds: live at once, from a key frame
        async with viewer(host.url, source_id, _session(host)) as socket:
            seen = await collect(socket, Seen(), _frames(3))
        assert seen.states()[0] == "live" and seen.frames[0].key
        assert seen.order[0] == ("text", 0) and seen.configs()
        await asyncio.sleep(LINGER_S + 1)  # no lingering: it stays open for nobody
        assert _status(host, source_id)["state"] == "live"
        # no longer kept: it lets go after the lingering
        read = ok(host.api.get(f"/sources/{source_id}"))
        params = [
            {**p, "paramValue": "false"} if p["paramName"] == "Keep Open" else p
            for p in read["params"]
        ]
        ok(host.api.put(f"/sources/{source_id}", json={**read, "params": params}))
        wait_until(lambda: source_id not in relays, LINGER_S + 15, what="closing")
        process = camera.process
        assert process is not None
        wait_until(lambda: process.poll() is not None, 10, what="the server let go")


@pytest.mark.parametrize("codec", ["hevc", "mjpeg"])
async def test_other_codecs_are_transcoded_once_for_all_viewers(host, codec):
    with http_ts(codec) as camera:
        source_id = _source(host, camera.url)
        async with (
            viewer(host.url, source_id, _session(host)) as one,
            viewer(host.url, source_id, _session(host)) as two,
        ):
            seen = await asyncio.gather(
                collect(one, Seen(), _frames(30)), collect(two, Seen(), _frames(30))
            )
            for s in seen:
                assert s.configs()[0]["codec"].startswith("avc1.")
                assert s.frames[0].key
            assert _counts(host, source_id).encoders == 1
            status = _status(host, source_id)
            assert status["codec"] == codec and "transcoded" in status["message"]


async def test_picture_back_after_the_source_restarts(host):
    with udp_ts("h264") as camera:
        source_id = _source(host, camera.url)
        async with viewer(host.url, source_id, _session(host)) as socket:
            seen = await collect(socket, Seen(), _frames(10))
            camera.stop()
            await collect(socket, seen, lambda s: "reconnecting" in s.states(), timeout=10)
            assert "timeout" in _status(host, source_id)["message"]
            stopped_at = len(seen.frames)
            camera.start()
            back = time.monotonic()
            await collect(socket, seen, lambda s: len(s.frames) > stopped_at + 5)
            assert time.monotonic() - back < 8
            assert seen.states()[-1] == "live"


async def test_status_names_each_failure(host):
    refused = _source(host, "http://127.0.0.1:9/camera.ts")
    async with viewer(host.url, refused, _session(host)) as socket:
        seen = await collect(socket, Seen(), lambda s: "failed" in s.states(), timeout=15)
    assert "refused" in seen.texts[-1]["message"]
    status = _status(host, refused)
    assert status["state"] == "failed" and "connection refused" in status["message"]


@pytest.mark.parametrize(
    ("status", "words"), [(401, "401 unauthorized"), (404, "404 no such stream")]
)
async def test_status_names_what_the_server_answered(host, status, words):
    with refusing(status) as url:
        source_id = _source(host, url)
        async with viewer(host.url, source_id, _session(host)) as socket:
            seen = await collect(socket, Seen(), lambda s: "failed" in s.states(), timeout=15)
    assert words in seen.texts[-1]["message"]
    found = _status(host, source_id)
    assert found["state"] == "failed" and words in found["message"]
    assert "secret" not in str(seen.texts) + str(found)


async def test_a_stream_without_picture_says_so(host):
    with audio_only() as radio:
        source_id = _source(host, radio.url)
        async with viewer(host.url, source_id, _session(host)) as socket:
            # (ffmpeg may not listen yet at the first try: refused, then the truth)
            seen = await collect(socket, Seen(), lambda s: "no video" in str(s.texts), timeout=15)
    assert seen.states()[-1] == "failed"
    assert _status(host, source_id)["message"] == "the stream has no video"


async def test_credentials_never_in_status_or_logs(host, caplog):
    url = "rtsp://operator:Tr0ub4dor@127.0.0.1:9/stream?password=Sw0rdfish"
    source_id = _source(host, url)
    async with viewer(host.url, source_id, _session(host)) as socket:
        seen = await collect(socket, Seen(), lambda s: "failed" in s.states(), timeout=15)
    text = str(seen.texts) + str(_status(host, source_id)) + caplog.text
    assert "Tr0ub4dor" not in text and "Sw0rdfish" not in text and "operator" not in text


def test_status_of_what_is_not_live(host):
    web = ok(
        host.api.post(
            "/sources", json=source_body("Web Browser", unique("Page"), URL="https://example.org/")
        )
    )
    message = error(host.api.get(f"/sources/{web['sourceId']}/status"), 400, "not a live stream")
    assert message
    error(host.api.get("/sources/no-such-source/status"), 404)


async def test_metrics_and_the_command_line_tell_of_a_live_stream(host):
    with http_ts("h264") as camera:
        source_id = _source(host, camera.url)
        async with viewer(host.url, source_id, _session(host)) as socket:
            await collect(socket, Seen(), _frames(20))
            page = host.api.transport.get(host.url + "/metrics").text
            login = ["--url", host.url, "--user", ADMIN, "--password", PASSWORD]
            command = ["sources", "status", source_id, "--json", *login]
            result = await asyncio.to_thread(CliRunner().invoke, main, command)
        assert result.exit_code == 0, result.output
        status = json.loads(result.stdout)
        assert status["state"] == "live" and status["viewers"] == 1
        assert (status["width"], status["height"]) == (320, 180)

    def value(name: str) -> float:
        found = re.search(rf'^{name}{{source="{source_id}"}} (\S+)$', page, re.M)
        assert found, name
        return float(found.group(1))

    assert value("tilewall_live_frames_in_total") >= 20
    assert value("tilewall_live_frames_sent_total") >= 20
    assert value("tilewall_live_bytes_in_total") > 0
    assert value("tilewall_live_frames_dropped_total") == 0
    assert value("tilewall_live_viewers") == 1


async def test_a_viewer_needs_a_session_or_a_locked_stations_key(host):
    with http_ts("h264") as camera:
        source_id = _source(host, camera.url)
        with pytest.raises(InvalidStatus) as refused:
            async with viewer(host.url, source_id, "not-a-session"):
                pass
        assert refused.value.response.status_code == 403
        assert _status(host, source_id)["state"] == "idle"  # nothing was opened


def _current(seen: Seen) -> int | None:
    """The index in ``seen.order`` of the host's word that the frames are current."""
    return next(
        (
            n
            for n, (kind, i) in enumerate(seen.order)
            if kind == "text" and seen.texts[i]["type"] == "current"
        ),
        None,
    )


async def test_the_viewers_margins_move_the_streams_delay(host):
    with udp_ts("h264") as camera:
        source_id = _source(host, camera.url)
        async with viewer(host.url, source_id, _session(host)) as first:
            await collect(first, Seen(), _frames(15))
            async with viewer(host.url, source_id, _session(host)) as socket:
                await _margins_move_the_delay(host, source_id, socket)


async def _margins_move_the_delay(host, source_id: str, socket) -> None:
    # one joining a stream that plays is sent the frames since its last key frame,
    # then the word that the frames are current, then the frames as they come
    seen = await collect(socket, Seen(), lambda s: _current(s) is not None)
    joined = [i for kind, i in seen.order[: _current(seen)] if kind == "frame"]
    assert joined and seen.frames[joined[0]].key
    seen = await collect(socket, seen, _frames(len(joined) + 30))
    relay = host.app.state.live.relays[source_id]
    assert relay.latency.ms == START_MS

    # frames ready 45 ms after their instant: the delay rises by 45 + the target
    await socket.send(json.dumps({"type": "margins", "ms": [-45.0] * 30}))
    sent = len(seen.frames)
    seen = await collect(socket, seen, lambda _: relay.latency.ms > START_MS)
    seen = await collect(socket, seen, _frames(len(seen.frames) + 45))
    risen = TARGET_MS + 45
    assert relay.latency.ms == START_MS + risen
    # the frames' instants moved later at once: one step of a frame's interval (or a few,
    # should the network lose a frame) + the rise; measured on the instants, not on when
    # they came, which a loaded machine bunches. The rise is far from a whole interval,
    # so a lost frame alone does not pass for it.
    interval = 1000 / 30
    steps = [b.at - a.at for a, b in itertools.pairwise(seen.frames[sent - 1 :])]
    jumps = [x for x in steps if any(abs(x - k * interval - risen) < 5 for k in (1, 2, 3))]
    assert jumps, [round(x) for x in steps if abs(x - interval) > 1]

    # what is not a report changes nothing and the connection stays
    await socket.send("not json")
    await socket.send(json.dumps({"type": "margins", "ms": [-50.0] * 1000}))
    seen = await collect(socket, seen, _frames(len(seen.frames) + 10))
    assert relay.latency.ms == START_MS + risen
    page = host.api.transport.get(host.url + "/metrics").text
    delay = re.search(rf'^tilewall_live_delay_ms{{source="{source_id}"}} (\S+)$', page, re.M)
    assert delay and float(delay.group(1)) == relay.latency.ms
