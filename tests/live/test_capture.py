"""A capture device on the host as a live source, driven as receivers and operators
drive it: a host served by uvicorn, real WebSocket viewers of ``/live/<sourceId>``.

This machine has no V4L2 device and cannot load ``v4l2loopback``, so the device the
host opens here is FFmpeg's test source, put behind the very interface the host opens
``/dev/videoN`` through (tests/support/capture_inputs.py): the opening, the reading, the
encoding (once, for every viewer) and the relay are the ones a capture card goes
through. A device path that is not the test source is opened as V4L2 for real."""

from __future__ import annotations

import itertools
import re

import av
import pytest

from tests.support.capture_inputs import SYNTHETIC_DEVICE, synthetic_device
from tests.support.http import error, ok
from tests.support.live_publish import Seen, collect, viewer
from tests.support.server import running
from tests.support.sources import CAPTURE, body_of
from tests.support.topology import unique

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    yield from running(tmp_path_factory, "capture", in_process=True)


@pytest.fixture
def device():
    with synthetic_device() as inputs:
        yield inputs


def _create(host, **params: str) -> str:
    body = body_of(CAPTURE, unique("Capture"), params)
    return str(ok(host.api.post("/sources", json=body))["sourceId"])


def _status(host, source_id: str) -> dict:
    return ok(host.api.get(f"/sources/{source_id}/status"))


def _metric(host, name: str, source_id: str) -> float:
    page = host.api.transport.get(host.url + "/metrics").text
    found = re.search(rf'^{name}{{source="{source_id}"}} (\S+)$', page, re.M)
    assert found, name
    return float(found.group(1))


async def test_the_device_is_encoded_once_for_every_viewer(host, device):
    source_id = _create(host, Device=SYNTHETIC_DEVICE, Resolution="640x360", Frame_Rate="25")
    session = str(host.api.session)
    async with (
        viewer(host.url, source_id, session) as one,
        viewer(host.url, source_id, session) as two,
    ):
        seen = await collect(one, Seen(), lambda s: len(s.frames) >= 50)
        other = await collect(two, Seen(), lambda s: len(s.frames) >= 10)
        config = seen.configs()[0]
        assert config["codec"].startswith("avc1.")
        assert (config["codedWidth"], config["codedHeight"]) == (640, 360)
        assert seen.frames[0].key and other.frames[0].key
        status = _status(host, source_id)
        assert status["state"] == "live" and status["viewers"] == 2, status
        assert (status["width"], status["height"], status["fps"]) == (640, 360, 25), status
        assert "transcoded to H.264 once for every viewer" in status["message"], status
        assert _metric(host, "tilewall_live_encoders_total", source_id) == 1
    # the device was asked for the size and rate of the source
    assert device.opened[0] == (SYNTHETIC_DEVICE, 640, 360, 25)
    # in the device's rhythm, stamped on the host clock
    ats = [f.at for f in seen.frames[-30:]]
    steps = sorted(b - a for a, b in itertools.pairwise(ats))
    assert abs(steps[len(steps) // 2] - 1000 / 25) < 5, steps
    # and the picture is the device's: FFmpeg's test pattern, in colour, not black
    decoder = av.CodecContext.create("h264", "r")
    pictures = [p for f in seen.frames for p in decoder.decode(av.Packet(f.data))]
    picture = pictures[-1].to_ndarray(format="rgb24")
    assert picture.shape == (360, 640, 3)
    assert picture.std() > 30 and len({tuple(picture[180, x]) for x in range(0, 640, 40)}) > 5


async def test_a_missing_device_is_named(host, device):
    source_id = _create(host, Device="/dev/video5")
    async with viewer(host.url, source_id, str(host.api.session)) as socket:
        seen = await collect(socket, Seen(), lambda s: "failed" in s.states(), timeout=15)
    status = _status(host, source_id)
    assert status["state"] == "failed", status
    assert status["message"] == "no such capture device: /dev/video5", status
    assert seen.texts[-1]["message"] == status["message"]
    # opened for real, as V4L2, at the defaults
    assert device.opened[-1] == ("/dev/video5", 1280, 720, 30)


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"Device": "/etc/passwd"}, "param 'Device' must be a V4L2 device /dev/videoN"),
        ({"Device": "/dev/sda"}, "param 'Device' must be a V4L2 device"),
        ({"Device": "/dev/video0/../../etc/shadow"}, "param 'Device' must be a V4L2 device"),
        ({"Device": "/dev/video"}, "param 'Device' must be a V4L2 device"),
        ({"Device": "video0"}, "param 'Device' must be a V4L2 device"),
        ({"Resolution": "big"}, "param 'Resolution' must be WIDTHxHEIGHT"),
        ({"Resolution": "1921x1080"}, "param 'Resolution' must be WIDTHxHEIGHT in even pixels"),
        ({"Resolution": "16000x9000"}, "param 'Resolution' must be WIDTHxHEIGHT"),
        ({"Frame_Rate": "0"}, "param 'Frame Rate' must be at least 1"),
        ({"Frame_Rate": "240"}, "param 'Frame Rate' must be at most 60"),
        ({"Seat": "a b/c"}, "param 'Seat' must be empty (the host) or a seat name"),
    ],
)
def test_bad_params_are_refused_in_words(host, params, words):
    before = ok(host.api.get("/sources"))
    error(host.api.post("/sources", json=body_of(CAPTURE, unique("Bad"), params)), 400, words)
    assert ok(host.api.get("/sources")) == before


def test_defaults(host):
    source = ok(host.api.post("/sources", json=body_of(CAPTURE, unique("Card"), {})))
    values = {p["paramName"]: p["paramValue"] for p in source["params"] if p["paramName"]}
    assert values == {
        "Device": "/dev/video0",
        "Seat": "",
        "Resolution": "1280x720",
        "Frame Rate": "30",
    }
    other = ok(
        host.api.post(
            "/sources",
            json=body_of(
                CAPTURE, unique("Card"), {"Device": " /dev/video12 ", "Resolution": "1920X1080"}
            ),
        )
    )
    values = {p["paramName"]: p["paramValue"] for p in other["params"] if p["paramName"]}
    assert values["Device"] == "/dev/video12" and values["Resolution"] == "1920x1080"
