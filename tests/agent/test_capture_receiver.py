"""A kiosk device's capture device on a real receiver page: the agent (a real process)
encodes the device's frames and sends them to the host (a real process) over
``/live/agent/<seat>``; the host relays them to a receiver page in real Chromium, which
decodes and draws them. What the page shows is compared with the device's picture.

This machine has no V4L2 device, so the agent opens FFmpeg's test source (``testsrc2``)
for the device path named by ``TILEWALL_AGENT_TEST_CAPTURE``, as tests/agent/test_capture.py
does: its colour bars stand still, so the same points of the page and of the test
source's own frame must have the same colours."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import av
import pytest

from tests.agent.conftest import AgentFactory, agent_online
from tests.support.browser import near, needs_chromium, open_receiver, rig, screenshot
from tests.support.server import ServerProcess
from tests.support.sources import CAPTURE, source_body
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.live, needs_chromium]

DEVICE = "/dev/video4"
ENV = {"TILEWALL_AGENT_TEST_CAPTURE": DEVICE}
WIDTH, HEIGHT, FPS = 320, 180, 15
#: where testsrc2's six colour bars are, below its moving parts: (x, y) as fractions
BARS = [((n + 0.5) / 6, 0.92) for n in range(6)]


@pytest.fixture(scope="module")
def rigged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Any]]:
    yield from rig(tmp_path_factory, "capture-receiver")


def _device_colours() -> list[tuple[int, int, int]]:
    """The colours at BARS in the test source's first frame, as the agent opens it."""
    graph = f"testsrc2=size={WIDTH}x{HEIGHT}:rate={FPS}"
    with av.open(graph, format="lavfi") as container:
        image = next(container.decode(video=0)).to_image()
    return [image.getpixel((int(x * WIDTH), int(y * HEIGHT))) for x, y in BARS]


def _shown_colours(page: Any, name: str) -> list[tuple[int, int, int]]:
    image = screenshot(page, name)
    return [image.getpixel((int(x * image.width), int(y * image.height))) for x, y in BARS]


def test_a_kiosks_capture_device_shows_on_a_receiver_page(
    rigged: tuple[ServerProcess, Any], agents: AgentFactory
) -> None:
    host, context = rigged
    kiosk = "capture-kiosk"
    agent = agents(host, kiosk, env=ENV)
    agent_online(host, kiosk)
    host.lock(kiosk)
    wait_until(lambda: (agent.state_dir / f"{kiosk}.key").exists(), 10, what="the agent's key")

    page = open_receiver(context, host, "capture-screen")
    display = host.lock("capture-screen")
    body = source_body(
        CAPTURE,
        "Microscope",
        Device=DEVICE,
        Seat=kiosk,
        Resolution=f"{WIDTH}x{HEIGHT}",
        Frame_Rate=str(FPS),
    )
    source_id = host.ok("POST", "/sources", json=body)["sourceId"]
    host.ok("PUT", f"/displays/{display}/switch", params={"destinationSourceId": source_id})

    expected = _device_colours()
    assert len({tuple(c) for c in expected}) == 6  # six different bars to tell apart

    def matches() -> bool:
        shown = _shown_colours(page, "capture-receiver")
        return all(near(s, e, 40) for s, e in zip(shown, expected, strict=True))

    wait_until(matches, 40, 0.5, f"the device's colour bars on the page ({expected})")
    status = host.ok("GET", f"/sources/{source_id}/status")
    assert status["state"] == "live" and status["viewers"] >= 1, status
    assert (status["width"], status["height"]) == (WIDTH, HEIGHT), status
    drawn = page.evaluate("() => window.tilewall.sample().frames.drawn")
    wait_until(
        lambda: page.evaluate("() => window.tilewall.sample().frames.drawn") > drawn + 10,
        20,
        0.3,
        "the page drawing the device's frames as they come",
    )
    page.close()
