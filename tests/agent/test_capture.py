"""A capture device on a kiosk device, shown on the wall: the agent (a real process)
encodes the device's frames and sends them to the host (a real process), which relays
them to viewers like any live source.

This machine has no V4L2 device, so the agent is told (``TILEWALL_AGENT_TEST_CAPTURE``)
to open one device path as FFmpeg's test source; everything else, the host's word to
start, the encoding, the link, the relay, is the path a capture card's frames take. A
device path other than that one is opened as V4L2 for real, and fails here."""

from __future__ import annotations

import asyncio

import av
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.agent.conftest import AgentFactory, agent_online
from tests.support.live_publish import Seen, collect, viewer
from tests.support.server import ServerProcess
from tests.support.sources import CAPTURE, source_body
from tests.support.waiting import wait_until

pytestmark = pytest.mark.live

DEVICE = "/dev/video3"
ENV = {"TILEWALL_AGENT_TEST_CAPTURE": DEVICE}


def _status(host: ServerProcess, source_id: str) -> dict:
    return host.ok("GET", f"/sources/{source_id}/status")


def _source(host: ServerProcess, seat: str, device: str = DEVICE) -> str:
    body = source_body(
        CAPTURE,
        f"Camera of {seat} {device}",
        Device=device,
        Seat=seat,
        Resolution="320x180",
        Frame_Rate="15",
    )
    return str(host.ok("POST", "/sources", json=body)["sourceId"])


async def test_the_agent_encodes_the_device_and_the_host_relays_it(
    host: ServerProcess, agents: AgentFactory
) -> None:
    seat = "capture-1"
    agent = agents(host, seat, env=ENV)
    agent_online(host, seat)
    host.lock(seat)
    wait_until(lambda: (agent.state_dir / f"{seat}.key").exists(), 10, what="the agent's key")
    source_id = _source(host, seat)
    session = str(host.api.session)
    async with viewer(host.url, source_id, session) as socket:
        seen = await collect(socket, Seen(), lambda s: len(s.frames) >= 20, timeout=30)
        config = seen.configs()[0]
        assert config["codec"].startswith("avc1.")
        assert (config["codedWidth"], config["codedHeight"]) == (320, 180)
        assert seen.frames[0].key
        status = _status(host, source_id)
        assert status["state"] == "live" and status["viewers"] == 1, status
        assert (status["width"], status["height"]) == (320, 180), status
        # the device's picture: FFmpeg's test pattern, in colour
        decoder = av.CodecContext.create("h264", "r")
        pictures = [p for f in seen.frames for p in decoder.decode(av.Packet(f.data))]
        picture = pictures[-1].to_ndarray(format="rgb24")
        assert picture.shape == (180, 320, 3) and picture.std() > 30
        # a second viewer joins on a key frame at once
        async with viewer(host.url, source_id, session) as other:
            late = await collect(other, Seen(), lambda s: len(s.frames) >= 3, timeout=10)
            assert late.frames[0].key

        # the agent goes: the picture holds, the status says why; it comes back
        # (off the event loop: the viewer keeps reading, and answering pings, meanwhile)
        await asyncio.to_thread(agent.stop)
        await collect(socket, seen, lambda s: "reconnecting" in s.states(), timeout=15)
        assert "went away" in _status(host, source_id)["message"]
        agent.start()
        count = len(seen.frames)
        await collect(socket, seen, lambda s: len(s.frames) >= count + 10, timeout=40)
        assert seen.states()[-1] == "live"
    # nothing shows it any more: the agent is told to stop
    wait_until(lambda: "no longer wanted" in agent.log(), 20, what="the agent told to stop")


async def test_a_device_the_kiosk_lacks_is_named(host: ServerProcess, agents: AgentFactory) -> None:
    seat = "capture-2"
    agent = agents(host, seat, env=ENV)
    agent_online(host, seat)
    host.lock(seat)
    wait_until(lambda: (agent.state_dir / f"{seat}.key").exists(), 10, what="the agent's key")
    source_id = _source(host, seat, "/dev/video9")
    async with viewer(host.url, source_id, str(host.api.session)) as socket:
        # (the relay may say first that the agent is not connected yet)
        seen = await collect(socket, Seen(), lambda s: "/dev/video9" in str(s.texts), timeout=30)
    assert seen.texts[-1]["state"] == "failed", seen.texts
    # a seat without a connected agent says so too
    lonely = _source(host, "capture-nobody")
    async with viewer(host.url, lonely, str(host.api.session)) as socket:
        seen = await collect(socket, Seen(), lambda s: "failed" in s.states(), timeout=15)
    assert "not connected" in seen.texts[-1]["message"]


async def test_only_the_agent_of_a_locked_station_may_send(host: ServerProcess) -> None:
    url = host.url.replace("http://", "ws://") + "/live/agent/capture-3"
    for headers in ({}, {"Cookie": "tilewall_key_capture-3=guessed"}):
        async with connect(url, additional_headers=headers) as socket:
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(socket.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
