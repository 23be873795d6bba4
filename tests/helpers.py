"""Test helpers: run host coroutines on the test client's event loop, build topologies
(locked displays, a 2x2 wall with zones, a mirror group), media files and sources of
every catalogue type, and generic CRUD test mixins so a resource's tests are a few lines.

Everything a client can do is done over HTTP; only what a receiver would do (say hello
over its WebSocket) is done directly on the host.
"""

from __future__ import annotations

import functools
import io
import itertools
import json
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from litestar.testing import TestClient

from tilewall.host.model import Resolution

FFMPEG = shutil.which("ffmpeg")
needs_ffmpeg = pytest.mark.skipif(FFMPEG is None, reason="ffmpeg is not installed")

SIGNAGE = "Signage Player"
WEB = "Web Browser"
STREAMER = "Network Streamer"
CONTROL = "Command and Control"
CATALOGUE_TYPES = (SIGNAGE, WEB, STREAMER, CONTROL)

HD = Resolution(1920, 1080)
RESOLUTIONS = [Resolution(1920, 1080), Resolution(1280, 720), Resolution(3840, 2160)]

_seq = itertools.count(1)


# ---------------------------------------------------------------------------------------
# the host behind the client


def host_of(client: TestClient) -> Any:  # type: ignore[type-arg]
    return client.app.state.host


def run(client: TestClient, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:  # type: ignore[type-arg]
    """Run host coroutine ``fn(*args, **kwargs)`` on the app's event loop and return its result."""
    return client.blocking_portal.call(functools.partial(fn, *args, **kwargs))


def url(*parts: str) -> str:
    """A path from segments, each percent-encoded (names with spaces, slashes, Unicode)."""
    return "/" + "/".join(quote(p, safe="") for p in parts)


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, f"{response.status_code}: {response.text}"
    if response.headers.get("content-type", "").startswith("application/json"):
        return response.json()
    return response.text


def error(response: Any, status: int, *words: str) -> str:
    """Assert an error answer: the status, a JSON ``{status, message}`` body naming ``words``."""
    assert response.status_code == status, (
        f"expected {status}, got {response.status_code}: {response.text}"
    )
    assert response.headers.get("content-type", "").startswith("application/json"), response.headers
    body = response.json()
    assert set(body) >= {"status", "message"}, body
    assert body["status"] == status, body
    assert isinstance(body["message"], str) and body["message"], body
    for word in words:
        assert word.casefold() in body["message"].casefold(), (word, body["message"])
    return str(body["message"])


# ---------------------------------------------------------------------------------------
# receivers and displays


def register(
    client: TestClient,  # type: ignore[type-arg]
    seat_id: str | None = None,
    ip: str | None = None,
    *,
    model: str = "Kiosk",
    firmware: str = "1.0",
    screen: Resolution = HD,
    resolutions: list[Resolution] | None = None,
    usb_devices: list[dict[str, object]] | None = None,
) -> Any:
    """A receiver says hello to the host (available, not locked)."""
    n = next(_seq)
    seat_id = seat_id or f"seat-{n:04d}"
    ip = ip or f"10.0.{n // 250}.{n % 250 + 1}"
    return run(
        client,
        host_of(client).stations.hello,
        seat_id,
        ip,
        model,
        firmware,
        screen,
        list(RESOLUTIONS if resolutions is None else resolutions),
        usb_devices=usb_devices,
    )


def locked_display(client: TestClient, seat_id: str | None = None, ip: str | None = None) -> int:  # type: ignore[type-arg]
    """Register a receiver and lock it over the interface; its display id."""
    station = register(client, seat_id, ip)
    body = ok(client.put(url("network", station.seat_id, "lock")))
    assert body["status"] == "CONNECTED", body
    return int(body["displayId"])


def locked_displays(client: TestClient, count: int) -> list[int]:  # type: ignore[type-arg]
    return [locked_display(client) for _ in range(count)]


def geometry(
    width: float, height: float, cx: float, cy: float, rot: float = 0.0
) -> dict[str, float]:
    return {"width": width, "height": height, "centerX": cx, "centerY": cy, "rotationDegrees": rot}


@dataclass
class Wall:
    id: str
    name: str
    displays: list[int]
    zones: dict[str, dict[str, Any]] = field(default_factory=dict)  # by zone name

    def zone_id(self, name: str) -> str:
        return str(self.zones[name]["zoneId"])


def wall_body(
    name: str,
    displays: list[int],
    cols: int = 2,
    w: float = 1000,
    h: float = 600,
    bezel: float = 10,
) -> dict[str, Any]:
    monitors = []
    for i, display_id in enumerate(displays):
        row, col = divmod(i, cols)
        monitors.append(
            {
                "displayId": display_id,
                "monitorGeometry": geometry(
                    w, h, col * (w + bezel) + w / 2, row * (h + bezel) + h / 2
                ),
                "monitorDiagonal": {"lengthInMillimeter": 1320.0},
            }
        )
    return {"name": name, "monitors": monitors}


def make_wall(
    client: TestClient,  # type: ignore[type-arg]
    name: str = "Lobby wall",
    zones: dict[str, list[int]] | None = None,
    displays: list[int] | None = None,
) -> Wall:
    """A 2x2 wall of new locked displays; ``zones`` maps zone names to display positions
    (0..3). By default: zone "Left" holds positions 0 and 2, zone "Right" 1 and 3."""
    displays = displays or locked_displays(client, 4)
    body = ok(client.post("/videowalls", json=wall_body(name, displays)))
    wall = Wall(body["id"], body["name"], displays)
    layout = {"Left": [0, 2], "Right": [1, 3]} if zones is None else zones
    for zone_name, positions in layout.items():
        zone = ok(
            client.post(
                "/zones",
                json={
                    "zoneName": zone_name,
                    "videowallId": wall.id,
                    "displayIds": [displays[p] for p in positions],
                },
            )
        )
        wall.zones[zone_name] = zone
    return wall


@dataclass
class Mirror:
    id: str
    name: str
    displays: list[int]


def make_mirror(client: TestClient, name: str = "Reception pair", count: int = 2) -> Mirror:  # type: ignore[type-arg]
    displays = locked_displays(client, count)
    body = ok(client.post("/mirrorgroups", json={"name": name, "displayIds": displays}))
    assert body["displayIds"] == displays, body
    return Mirror(body["id"], body["name"], displays)


# ---------------------------------------------------------------------------------------
# media


def png_bytes(
    color: tuple[int, int, int] = (200, 30, 30), size: tuple[int, int] = (32, 18)
) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format="PNG")
    return out.getvalue()


def write_png(root: Path, name: str, color: tuple[int, int, int] = (200, 30, 30)) -> str:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png_bytes(color))
    return name


@functools.cache
def _mp4(seconds: int) -> bytes:
    assert FFMPEG is not None
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "clip.mp4"
        subprocess.run(
            [
                FFMPEG,
                "-v",
                "error",
                "-y",
                "-f",
                "lavfi",
                "-i",
                "testsrc=size=160x90:rate=10",
                "-t",
                str(seconds),
                "-pix_fmt",
                "yuv420p",
                "-movflags",
                "+faststart",
                str(out),
            ],
            check=True,
            timeout=60,
        )
        return out.read_bytes()


def mp4_bytes(seconds: int = 3) -> bytes:
    """A short H.264 MP4 of ``seconds`` seconds (needs ffmpeg)."""
    return _mp4(seconds)


def write_mp4(root: Path, name: str, seconds: int = 3) -> str:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(mp4_bytes(seconds))
    return name


def media_root(client: TestClient) -> Path:  # type: ignore[type-arg]
    return Path(host_of(client).media.root)


# ---------------------------------------------------------------------------------------
# sources


def param(name: str, value: str, type_: str = "") -> dict[str, str]:
    return {"type": type_, "paramName": name, "paramValue": value}


def files_value(*names: str, kind: str = "file") -> str:
    return json.dumps([{"type": kind, "name": n, "value": n} for n in names])


def source_body(type_: str, name: str | None = None, **params: str) -> dict[str, Any]:
    """A create/update body; ``params`` by catalogue param name (underscores for spaces)."""
    return {
        "sourceName": name or f"{type_} {next(_seq)}",
        "sourceType": type_,
        "params": [param(k.replace("_", " "), v) for k, v in params.items()],
    }


def minimal_params(client: TestClient, type_: str) -> dict[str, str]:  # type: ignore[type-arg]
    """The params a source of ``type_`` needs (media files are written as needed)."""
    if type_ == SIGNAGE:
        write_png(media_root(client), "slides/red.png", (220, 20, 20))
        write_png(media_root(client), "slides/green.png", (20, 220, 20))
        return {"Media": files_value("slides/red.png", "slides/green.png"), "Slide_Interval": "5"}
    if type_ in (WEB, STREAMER):
        return {"URL": "https://example.org/page"}
    return {}


def create_source(
    client: TestClient, type_: str = WEB, name: str | None = None, **params: str
) -> dict[str, Any]:  # type: ignore[type-arg]
    values = minimal_params(client, type_)
    values.update(params)
    body: dict[str, Any] = ok(client.post("/sources", json=source_body(type_, name, **values)))
    assert body["sourceId"], body
    return body


def signage_source(client: TestClient, name: str, *files: str, interval: int = 5) -> dict[str, Any]:  # type: ignore[type-arg]
    """A Signage Player over existing library ``files``."""
    body = source_body(SIGNAGE, name, Media=files_value(*files), Slide_Interval=str(interval))
    result: dict[str, Any] = ok(client.post("/sources", json=body))
    return result


def param_value(source: dict[str, Any], name: str) -> str:
    for p in source["params"]:
        if p["paramName"] == name:
            return str(p["paramValue"])
    raise KeyError(name)


# ---------------------------------------------------------------------------------------
# NetBox-style CRUD mixins: a resource class sets the class attributes and ``create_body``;
# the mixins bring the tests.


class ResourceBase:
    #: collection path, e.g. "/sources"
    collection: str = ""
    #: key of the list in the list answer, e.g. "sources"
    list_key: str = ""
    #: id field of an object, e.g. "sourceId"
    id_field: str = "id"
    #: name field of an object, e.g. "sourceName"
    name_field: str = "name"

    def create_body(self, client: TestClient, name: str) -> dict[str, Any]:  # type: ignore[type-arg]
        raise NotImplementedError

    def item(self, object_id: str) -> str:
        return f"{self.collection}{url(object_id)}"

    def create(self, client: TestClient, name: str | None = None) -> dict[str, Any]:  # type: ignore[type-arg]
        name = name or f"obj {next(_seq)}"
        body: dict[str, Any] = ok(client.post(self.collection, json=self.create_body(client, name)))
        return body


class ListMixin(ResourceBase):
    def test_list_empty_then_holds_created(self, api: TestClient) -> None:  # type: ignore[type-arg]
        before = ok(api.get(self.collection))[self.list_key]
        created = self.create(api)
        after = ok(api.get(self.collection))[self.list_key]
        assert len(after) == len(before) + 1
        assert created[self.id_field] in {o[self.id_field] for o in after}


class CreateMixin(ResourceBase):
    def test_create_returns_object_with_id(self, api: TestClient) -> None:  # type: ignore[type-arg]
        created = self.create(api, "Created one")
        assert isinstance(created[self.id_field], str) and created[self.id_field]
        assert created[self.name_field] == "Created one"

    def test_create_duplicate_name_409(self, api: TestClient) -> None:  # type: ignore[type-arg]
        self.create(api, "Twin")
        error(api.post(self.collection, json=self.create_body(api, "Twin")), 409, "Twin")

    def test_create_empty_name_400(self, api: TestClient) -> None:  # type: ignore[type-arg]
        error(api.post(self.collection, json=self.create_body(api, "  ")), 400)

    def test_create_malformed_body_400(self, api: TestClient) -> None:  # type: ignore[type-arg]
        error(
            api.post(
                self.collection, content=b"{not json", headers={"content-type": "application/json"}
            ),
            400,
        )


class GetMixin(ResourceBase):
    def test_get_by_id(self, api: TestClient) -> None:  # type: ignore[type-arg]
        created = self.create(api)
        got = ok(api.get(self.item(created[self.id_field])))
        assert got[self.id_field] == created[self.id_field]
        assert got[self.name_field] == created[self.name_field]

    def test_get_unknown_404(self, api: TestClient) -> None:  # type: ignore[type-arg]
        error(api.get(self.item("no-such-thing")), 404, "not found")


class DeleteMixin(ResourceBase):
    def test_delete_then_gone(self, api: TestClient) -> None:  # type: ignore[type-arg]
        created = self.create(api)
        ok(api.delete(self.item(created[self.id_field])))
        error(api.get(self.item(created[self.id_field])), 404)
        assert created[self.id_field] not in {
            o[self.id_field] for o in ok(api.get(self.collection))[self.list_key]
        }
        error(api.delete(self.item(created[self.id_field])), 404)


class CrudMixin(ListMixin, CreateMixin, GetMixin, DeleteMixin):
    """List, create, get and delete tests for one resource."""


# ---------------------------------------------------------------------------------------
# a real server in a subprocess


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``tilewall serve`` on a free local port and ``data_dir``, as an operator runs it."""

    def __init__(self, data_dir: Path, env: dict[str, str]) -> None:
        self.data_dir = data_dir
        self.env = env
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        import os
        import sys
        import time

        import httpx

        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from tilewall.cli import main; main()",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--data-dir",
                str(self.data_dir),
            ],
            env={**os.environ, **self.env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            try:
                httpx.get(f"{self.base}/openapi.json", timeout=1.0)
                return self
            except httpx.TransportError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not start in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks, no flushing."""
        import signal

        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.proc is not None and self.proc.stderr is not None:
            self.proc.stderr.close()


# ---------------------------------------------------------------------------------------
# small builders used by the failover, serial, print-profile and control-room tests

Client = TestClient  # type: ignore[type-arg]


def station(api: Client, seat_id: str, ip: str = "192.0.2.10") -> None:
    """A receiver has said hello: an available station."""
    run(api, api.app.state.host.stations.hello, seat_id, ip)


def display(api: Client, seat_id: str) -> int:
    """A locked station; its display id."""
    station(api, seat_id)
    body = ok(api.put(f"/network/{seat_id}/lock"))
    assert body["status"] == "CONNECTED", body
    displays = ok(api.get("/displays"))["displays"]
    return int(next(d["displayId"] for d in displays if d["seatId"] == seat_id))


def wall_zone(
    api: Client, zone_name: str, seats: tuple[str, ...] = ("wall-a", "wall-b")
) -> dict[str, Any]:
    """A video wall of the given seats' displays side by side, with one zone of all of them."""
    ids = [display(api, seat) for seat in seats]
    monitors = [
        {
            "displayId": d,
            "monitorGeometry": {
                "width": 1000,
                "height": 600,
                "centerX": 500 + 1000 * i,
                "centerY": 300,
            },
        }
        for i, d in enumerate(ids)
    ]
    wall = ok(api.post("/videowalls", json={"name": f"wall of {zone_name}", "monitors": monitors}))
    zone: dict[str, Any] = ok(
        api.post(
            "/zones",
            json={
                "zoneName": zone_name,
                "videowallId": wall["id"],
                "displayIds": ids,
            },
        )
    )
    return zone


def web_source(api: Client, name: str, url: str = "https://example.org/") -> str:
    body = ok(
        api.post(
            "/sources",
            json={
                "sourceName": name,
                "sourceType": "Web Browser",
                "params": [{"type": "URL", "paramName": "URL", "paramValue": url}],
            },
        )
    )
    return str(body["sourceId"])


def control_source(api: Client, name: str, layouts: list[str]) -> str:
    """A Command and Control source listing ``layouts`` (ids or names)."""
    import json

    body = ok(
        api.post(
            "/sources",
            json={
                "sourceName": name,
                "sourceType": "Command and Control",
                "params": [
                    {
                        "type": "LAYOUT_SELECT",
                        "paramName": "Layouts",
                        "paramValue": json.dumps(layouts),
                    }
                ],
            },
        )
    )
    return str(body["sourceId"])


def reopened_settings(data_dir: Any) -> dict[str, Any]:
    """The settings a host opened afresh on ``data_dir`` finds: what was made durable."""
    import asyncio

    from tilewall.server import open_host

    async def load() -> dict[str, Any]:
        host = await open_host(data_dir)
        try:
            return dict(host.core.state.settings)
        finally:
            await host.close()

    return asyncio.run(load())
