"""Stand-ins: a fake host behind the receiver hub's port (and the receiver route served
for it), a network serial server."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from litestar import Litestar
from litestar.static_files import create_static_files_router

from tests.support.server import serve_asgi
from tilewall.app import receiver_version
from tilewall.host.clock import ManualClock
from tilewall.host.memory import Event, State
from tilewall.host.model import Display, Resolution, Station
from tilewall.host.render.description import HostInfo
from tilewall.host.render.overlays import OverlaySwitches
from tilewall.receivers.hub import Hub
from tilewall.receivers.routes import RECEIVER_PAGE_DIR, receiver_websocket
from tilewall.receivers.session import Limits


class FakeMedia:
    def __init__(self, files: dict[str, int | None]) -> None:
        self.files = files

    def files_in(self, name: str) -> list[str]:
        prefix = name.strip("/") + "/" if name.strip("/") else ""
        return sorted(f for f in self.files if f.startswith(prefix))

    def duration_ms(self, name: str) -> int | None:
        return self.files.get(name)

    def exists(self, name: str) -> bool:
        return name in self.files


class FakeHost:
    def __init__(self) -> None:
        self.state = State()
        self.media: FakeMedia | None = None
        self.clock = ManualClock()
        self.overlay = OverlaySwitches()
        self.online: dict[str, bool] = {}
        self.hellos: list[tuple[str, str, str]] = []
        self._listeners: list[Callable[[Event], None]] = []

    def subscribe(self, listener: Callable[[Event], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def publish(self, event: Event | None = None) -> None:
        for listener in list(self._listeners):
            listener(event or Event(None))

    def now_ms(self) -> int:
        return self.clock.now_ms()

    def exact_ms(self) -> float:
        return self.clock.exact_ms()

    def host_info(self) -> HostInfo:
        return HostInfo("wallhost", "192.0.2.10")

    def overlays(self) -> OverlaySwitches:
        return self.overlay

    async def station_hello(
        self,
        seat_id: str,
        ip: str,
        model: str,
        firmware: str,
        screen: Resolution,
        resolutions: list[Resolution],
        name: str | None,
    ) -> None:
        self.hellos.append((seat_id, ip, model))
        station = self.state.stations.get(seat_id) or Station(seat_id, name=name or "")
        station.ip, station.model, station.firmware, station.screen = ip, model, firmware, screen
        self.state.stations[seat_id] = station

    def set_online(self, seat_id: str, online: bool) -> None:
        self.online[seat_id] = online

    #: False: a standby of a group, which lets receivers go to the active member
    is_serving = True
    #: the group's members and active member, or None for a host on its own
    group_members: tuple[list[str], str | None] | None = None
    #: the active member's lease is late: how long its group may take to replace it
    active_late_s: float | None = None

    def serving(self) -> bool:
        return self.is_serving

    def active_late(self) -> float | None:
        return self.active_late_s

    def hostgroup(self) -> tuple[list[str], str | None] | None:
        return self.group_members

    def lock(self, seat_id: str, display_id: int) -> Display:
        station = self.state.stations.setdefault(seat_id, Station(seat_id))
        station.locked, station.display_id = True, display_id
        display = self.state.displays.setdefault(display_id, Display(display_id, seat_id))
        self.publish(Event(frozenset({display_id}), topology=True))
        return display


def receiver_app(hub: Hub, media_dir: Path | None = None) -> Litestar:
    """The receiver page (and the host's version module it imports) and WebSocket (and
    ``media_dir`` under /media), nothing else."""
    handlers: list = [
        receiver_websocket(hub),
        receiver_version,
        create_static_files_router(
            path="/receiver", directories=[RECEIVER_PAGE_DIR], html_mode=True
        ),
    ]
    if media_dir is not None:
        handlers.append(create_static_files_router(path="/media", directories=[media_dir]))
    return Litestar(route_handlers=handlers)


@contextlib.asynccontextmanager
async def serve(
    host: FakeHost, limits: Limits | None = None, media_dir: Path | None = None
) -> AsyncIterator[tuple[Hub, int]]:
    """A running hub and HTTP server on a free port, in this event loop."""
    hub = Hub(host, limits)
    await hub.start()
    async with serve_asgi(receiver_app(hub, media_dir)) as port:
        try:
            yield hub, port
        finally:
            await hub.stop()


class SerialServer:
    """A network serial server stand-in: a TCP listener on loopback keeping what arrives."""

    def __init__(self) -> None:
        self.received = bytearray()
        self._socket = socket.create_server(("127.0.0.1", 0))
        self.port = self._socket.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        self._socket.settimeout(10)
        try:
            while True:
                connection, _ = self._socket.accept()
                with connection:
                    while chunk := connection.recv(65536):
                        self.received += chunk
        except OSError:
            return

    def close(self) -> None:
        self._socket.close()
