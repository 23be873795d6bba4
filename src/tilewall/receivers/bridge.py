"""The host as the receiver hub sees it: the ``HostPort`` over a ``Host``."""

import asyncio
import logging
from collections.abc import Callable

from tilewall.host.host import Host
from tilewall.host.model import Resolution
from tilewall.host.playback.playlist import MediaCatalog
from tilewall.host.playback.render import HostInfo
from tilewall.host.playback.render_overlays import OverlaySwitches
from tilewall.host.state import Event, State
from tilewall.receivers.hub import Hub

log = logging.getLogger(__name__)


class HostBridge:
    """Implements the hub's HostPort; the host is attached when it has been opened."""

    def __init__(self, host: Host | None = None) -> None:
        self._host = host

    @property
    def host(self) -> Host:
        if self._host is None:
            raise RuntimeError("the host is not open yet")
        return self._host

    def attach(self, host: Host, hub: Hub) -> None:
        self._host = host
        host.core.on_command(lambda seat, name: _command(hub, seat, name))

    @property
    def state(self) -> State:
        return self.host.core.state

    @property
    def media(self) -> MediaCatalog | None:
        return self.host.media

    def subscribe(self, listener: Callable[[Event], None]) -> Callable[[], None]:
        return self.host.core.subscribe(listener)

    def now_ms(self) -> int:
        return self.host.core.clock.now_ms()

    def host_info(self) -> HostInfo:
        return self.host.screens.host_info()

    def overlays(self) -> OverlaySwitches:
        return self.host.screens.overlays()

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
        await self.host.stations.hello(
            seat_id, ip, model, firmware, screen, resolutions, name=name or ""
        )

    def set_online(self, seat_id: str, online: bool) -> None:
        if online:
            self.host.stations.set_online(seat_id)
        else:
            self.host.stations.set_offline(seat_id)


_pending: set[asyncio.Task[None]] = set()


def _command(hub: Hub, seat_id: str, name: str) -> None:
    action = hub.reset if name == "reset" else hub.reload
    task = asyncio.get_running_loop().create_task(action([seat_id]))
    _pending.add(task)
    task.add_done_callback(_pending.discard)
