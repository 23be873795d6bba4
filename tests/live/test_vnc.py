"""A desktop over VNC as a live source, driven as receivers and operators drive it: a
host served by uvicorn, a real VNC server with a password (TigerVNC's Xvnc, its desktop
drawn in four known colours; tests/support/vnc_desktop.py), real WebSocket viewers of
``/live/<sourceId>``. The password reaches the VNC server and nothing else."""

from __future__ import annotations

import av
import pytest

from tests.support.http import error, ok
from tests.support.live_publish import Seen, collect, viewer
from tests.support.server import free_port, running
from tests.support.sources import VNC, body_of
from tests.support.topology import unique
from tests.support.vnc_desktop import BLUE, GREEN, PASSWORD, RED, YELLOW, VncDesktop

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    yield from running(tmp_path_factory, "vnc", in_process=True)


@pytest.fixture(scope="module")
def desktop():
    with VncDesktop() as server:
        yield server


def _create(host, **params: str) -> dict:
    return ok(host.api.post("/sources", json=body_of(VNC, unique("Desktop"), params)))


def _status(host, source_id: str) -> dict:
    return ok(host.api.get(f"/sources/{source_id}/status"))


def _value(source: dict, name: str) -> str:
    return next(p["paramValue"] for p in source["params"] if p["paramName"] == name)


def _decoded(seen: Seen) -> av.VideoFrame:
    """The newest picture of what a viewer was sent, decoded from its key frame on."""
    decoder = av.CodecContext.create("h264", "r")
    start = max(n for n, f in enumerate(seen.frames) if f.key)
    pictures = []
    for frame in seen.frames[start:]:
        pictures += decoder.decode(av.Packet(frame.data))
    pictures += decoder.decode(None)
    return pictures[-1]


def _near(rgb, expected, tolerance: int = 40) -> bool:
    return all(abs(int(a) - b) <= tolerance for a, b in zip(rgb, expected, strict=True))


async def test_the_desktop_is_relayed_to_a_viewer(host, desktop):
    source = _create(host, Host="127.0.0.1", Port=str(desktop.port), Password=PASSWORD)
    source_id = source["sourceId"]
    assert _status(host, source_id)["state"] == "idle"
    async with viewer(host.url, source_id, str(host.api.session)) as socket:
        seen = await collect(socket, Seen(), lambda s: len(s.frames) >= 3)
        config = seen.configs()[0]
        assert config["codec"].startswith("avc1.")
        assert (config["codedWidth"], config["codedHeight"]) == (desktop.width, desktop.height)
        assert seen.frames[0].key
        status = _status(host, source_id)
        assert status["state"] == "live" and status["viewers"] == 1, status
        assert status["codec"] == "rfb" and status["width"] == desktop.width, status
        # the four quarters of the desktop, in their colours
        picture = _decoded(seen).to_ndarray(format="rgb24")
        w, h = desktop.width, desktop.height
        for (x, y), colour in zip(
            [
                (w // 4, h // 4),
                (3 * w // 4, h // 4),
                (w // 4, 3 * h // 4),
                (3 * w // 4, 3 * h // 4),
            ],
            (RED, GREEN, BLUE, YELLOW),
            strict=True,
        ):
            assert _near(picture[y, x], colour), (x, y, picture[y, x], colour)
        # an unchanged desktop still sends a frame now and then: receivers see it alive
        count = len(seen.frames)
        await collect(socket, seen, lambda s: len(s.frames) >= count + 2, timeout=5)


async def test_a_desktop_change_reaches_the_viewer(host, desktop):
    source_id = _create(host, Host="127.0.0.1", Port=str(desktop.port), Password=PASSWORD)[
        "sourceId"
    ]
    async with viewer(host.url, source_id, str(host.api.session)) as socket:
        seen = await collect(socket, Seen(), lambda s: len(s.frames) >= 2)
        white = (250, 250, 250)
        desktop.paint((white, white, white, white))
        try:

            def white_now(s: Seen) -> bool:
                row = _decoded(s).to_ndarray(format="rgb24")[desktop.height // 4]
                return _near(row[desktop.width // 4], white)

            await collect(socket, seen, white_now, timeout=10)
        finally:
            desktop.paint((RED, GREEN, BLUE, YELLOW))


async def test_a_wrong_password_is_named_and_never_shown(host, desktop, caplog):
    source_id = _create(host, Host="127.0.0.1", Port=str(desktop.port), Password="not-it1")[
        "sourceId"
    ]
    async with viewer(host.url, source_id, str(host.api.session)) as socket:
        seen = await collect(socket, Seen(), lambda s: "failed" in s.states(), timeout=15)
    status = _status(host, source_id)
    assert status["state"] == "failed" and "wrong password" in status["message"], status
    assert "wrong password" in seen.texts[-1]["message"]
    shown = str(seen.texts) + str(status) + caplog.text + str(ok(host.api.get("/sources")))
    assert "not-it1" not in shown


async def test_no_password_and_nothing_listening_are_named(host, desktop):
    none = _create(host, Host="127.0.0.1", Port=str(desktop.port))["sourceId"]
    nothing = _create(host, Host="127.0.0.1", Port=str(free_port()), Password="x")["sourceId"]
    for source_id, words in ((none, "asks for a password"), (nothing, "connection refused")):
        async with viewer(host.url, source_id, str(host.api.session)) as socket:
            await collect(socket, Seen(), lambda s: "failed" in s.states(), timeout=15)
        status = _status(host, source_id)
        assert status["state"] == "failed" and words in status["message"], status


async def test_the_password_is_hidden_when_read_and_kept_when_sent_back(host, desktop):
    created = _create(host, Host="127.0.0.1", Port=str(desktop.port), Password=PASSWORD)
    source_id = created["sourceId"]
    assert _value(created, "Password") == "***"
    read = ok(host.api.get(f"/sources/{source_id}"))
    assert _value(read, "Password") == "***" and PASSWORD not in str(read)
    assert PASSWORD not in str(ok(host.api.get("/sources")))
    # the console sends back what it read, renamed: the password stays
    read["sourceName"] = unique("Renamed desktop")
    ok(host.api.put(f"/sources/{source_id}", json=read))
    async with viewer(host.url, source_id, str(host.api.session)) as socket:
        await collect(socket, Seen(), lambda s: "live" in s.states(), timeout=15)
    # receivers are told where to take frames from, never how the host logs in
    description = ok(host.api.get("/sources"))
    assert PASSWORD not in str(description)
    # a new password replaces it (here a wrong one: the status says so)
    params = [p for p in read["params"] if p["paramName"] != "Password"]
    params.append({"type": "", "paramName": "Password", "paramValue": "changed1"})
    ok(host.api.put(f"/sources/{source_id}", json={**read, "params": params}))
    async with viewer(host.url, source_id, str(host.api.session)) as socket:
        seen = await collect(socket, Seen(), lambda s: "failed" in s.states(), timeout=15)
    assert "wrong password" in seen.texts[-1]["message"]


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"Host": "vnc://desk:5900"}, "param 'Host' must be a host name or an IP address"),
        ({"Host": "desk/../x"}, "param 'Host' must be a host name"),
        ({"Host": ""}, "param 'Host' must be a host name"),
        ({"Host": "desk", "Port": "0"}, "param 'Port' must be at least 1"),
        ({"Host": "desk", "Port": "70000"}, "param 'Port' must be at most 65535"),
        ({"Host": "desk", "Password": "a\nb"}, "param 'Password' must be printable ASCII"),
        ({"Host": "desk", "Password": "pässwort"}, "param 'Password' must be printable ASCII"),
        ({"Host": "desk", "Password": "secret\n"}, "param 'Password' must be printable ASCII"),
        ({"Port": "5900"}, "param 'Host' is required"),
    ],
)
def test_bad_params_are_refused_in_words(host, params, words):
    before = ok(host.api.get("/sources"))
    error(host.api.post("/sources", json=body_of(VNC, unique("Bad"), params)), 400, words)
    assert ok(host.api.get("/sources")) == before


def test_defaults_and_forms_of_the_address(host):
    created = _create(host, Host=" [::1] ")
    assert _value(created, "Host") == "::1" and _value(created, "Port") == "5900"
    assert _value(created, "Password") == ""
    named = _create(host, Host="ops-pc.example.org", Port="5901")
    assert _value(named, "Host") == "ops-pc.example.org" and _value(named, "Port") == "5901"
